"""Memory per engine (harness/measure/memory.py): PSS from smaps_rollup, a JVM's pauses from its GC
log and its heap from its counters, on recorded outputs; the summary's section on a recorded run."""
import re
from pathlib import Path

import pytest

from harness.measure import jit, memory
from harness.report.memory import memory_lines
from harness.report.view import View
from harness.results.store import load_run

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
JVM = FIXTURES / "jvm"
MB = 1024 ** 2


def counters(name):
    return jit.perf_counters((JVM / name).read_bytes())


def jstat_used_kb(name):
    """S0U + S1U + EU + OU of a recorded `jstat -gc` (kB): the heap in use as jstat reads it."""
    header, values = (JVM / name).read_text().splitlines()[:2]
    row = dict(zip(header.split(), values.split()))
    return sum(float(row[column]) for column in ("S0U", "S1U", "EU", "OU"))


def test_pss_is_read_from_a_recorded_smaps_rollup_of_an_apache_worker():
    text = (FIXTURES / "proc" / "smaps_rollup-apache-worker.txt").read_text()
    rss = int(re.search(r"^Rss:\s+(\d+)", text, re.M).group(1))
    assert memory.pss_kb(text) == int(re.search(r"^Pss:\s+(\d+)", text, re.M).group(1))
    assert 0 < memory.pss_kb(text) < rss  # a prefork worker shares most of its pages with the others
    assert memory.pss_kb("") is None


def test_a_servers_pss_is_summed_over_its_readable_processes():
    assert memory.pss_figures("apache", [2048, 1024, None]) == {"apache_pss_mb": 3.0, "apache_processes": 2}
    assert memory.pss_figures("apache", [None]) == {}


@pytest.mark.parametrize("recorded, jstat", [("hsperfdata-tomcat-before-burst", "jstat-gc-before-burst.txt"),
                                             ("hsperfdata-tomcat-after-burst", "jstat-gc-after-burst.txt")])
def test_the_heap_in_use_is_what_jstat_read_from_the_same_jvm(recorded, jstat):
    # jstat ran a moment after the file was copied: its eden had grown by at most a few kB more.
    assert memory.heap_used(counters(recorded)) / 1024 == pytest.approx(jstat_used_kb(jstat), abs=64)


def test_every_pause_of_a_recorded_tomcat_gc_log_is_read_with_its_heap_before_and_after():
    text = (JVM / "tomcat-gc.log").read_text()
    pauses = memory.gc_pauses(text)
    assert len(pauses) == text.count(" Pause ") > 0
    assert all(after < before for before, after in pauses)
    first = re.search(r"Pause .*? (\d+)M->(\d+)M", text)
    assert pauses[0] == (int(first.group(1)) * MB, int(first.group(2)) * MB)


def test_units_of_the_unified_log_are_read():
    assert memory.gc_pauses("[0.1s][info][gc] GC(0) Pause Young (Allocation Failure) 900K->512K(2G) 1.0ms\n"
                            "[0.2s][info][gc] GC(1) Pause Full (Ergonomics) 3G->1G(3G) 900.0ms\n") == \
        [(900 * 1024, 512 * 1024), (3 * 1024 * MB, 1024 * MB)]


def test_the_allocation_is_the_heaps_growth_plus_what_the_steps_collections_freed():
    before, after = {"sun.gc.generation.0.space.0.used": 100 * MB}, {"sun.gc.generation.0.space.0.used": 20 * MB}
    # One collection took the heap from 500 MB to 10 MB: 400 MB allocated before it, 10 MB after.
    assert memory.heap_figures(before, after, [(500 * MB, 10 * MB)], (500 * MB, 10 * MB)) == \
        {"alloc_mb": 410.0, "heap_after_gc_mb": 10.0}
    # No collection in the step, the last one before it: its live heap still stands.
    assert memory.heap_figures(before, {"sun.gc.generation.0.space.0.used": 150 * MB}, [], (80 * MB, 30 * MB)) == \
        {"alloc_mb": 50.0, "heap_after_gc_mb": 30.0}
    assert memory.heap_figures({}, after, [], None) == {}



def test_the_summary_shows_each_apps_servers_memory_at_its_saturation_step():
    # Run mem-quick: QUICK=1 ENGINES=innodb WORKLOADS=single, the study's apps, PHP-FPM and SET=soap, one
    # round, every Java app in the one Tomcat (AMD EPYC; its raw httperf outputs left out of the fixture).
    lines = memory_lines(View(load_run(FIXTURES / "results" / "mem-quick")))
    rows = {(cells[1], cells[4]): cells for line in lines if line.startswith("| ") and "---" not in line
            for cells in [[cell.strip() for cell in line.split("|")]] if cells[1] != "app"}
    php = rows[("PHP (Apache + mod_php)", "Apache")]
    processes, pss = int(php[5]), float(php[6].split()[0])
    # Prefork's workers share most of their pages: PSS per worker x workers is a fraction of summed RSS.
    assert php[6].endswith(f"({pss / processes:.1f} each)") and pss < float(php[7].replace(",", "")) / 5
    assert php[8] == php[9] == "-" and float(php[10]) > 0  # no JVM; the database's PSS beside
    # PHP-FPM's apps name both their servers, each with its own processes.
    assert {server for app, server in rows if app.startswith("PHP-FPM")} == {"Apache (event, PHP-FPM)", "PHP-FPM"}
    java = {app: row for (app, server), row in rows.items() if server == "Tomcat"}
    assert len(java) == 5 and all(int(row[5]) == 1 and float(row[8]) > 0 for row in java.values())
    allocated = {app: float(row[9]) for app, row in java.items()}
    # A connection per request costs Connector/J's buffers every time: the pooled servlet allocates a
    # small part of what the plain servlet does for the same row.
    assert allocated["Pooled servlet (HikariCP)"] * 5 < allocated["Servlet (connection per request)"]
    assert lines[0] == "## Memory at saturation"
