"""The manifest tells two boots of a machine apart: the kernel's boot id and the time it booted, from
this Intel Xeon VM's /proc/stat and boot id as recorded."""
from pathlib import Path

from harness.hosts.inventory import boot

PROC = Path(__file__).parent.parent / "fixtures" / "proc"


def test_a_boot_is_named_by_its_id_and_the_time_it_began():
    found = boot((PROC / "boot_id.txt").read_text(), (PROC / "stat-host.txt").read_text())
    assert found == {"boot_id": "07552f92-b494-4bea-b37f-8de0beec0e02", "booted_at": "2026-11-29T15:39:31+00:00"}


def test_a_stat_without_btime_still_names_the_boot():
    stat = "".join(line for line in (PROC / "stat-host.txt").read_text().splitlines(keepends=True)
                   if not line.startswith("btime"))
    assert boot("07552f92-b494-4bea-b37f-8de0beec0e02\n", stat)["booted_at"] is None
