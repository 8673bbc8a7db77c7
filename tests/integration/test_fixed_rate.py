"""Fixed-rate experiments on the live stack: `make interleave` takes cells' steps by turns, each at a
share of its own figure in a recorded run, with the first cell's A/A twin, and writes its steps, their
rows and the ratios' page."""
import json
import shutil
from pathlib import Path

from harness import cli
from harness.results import interleave
from harness.results.records import PASS, VERDICTS
from harness.results.store import read_tsv, tsv_text
from harness.run import spread
from stack.settings import ROOT

RECORDED = ROOT / "tests" / "fixtures" / "results" / "cost-a"  # PHP and the pooled servlet, single MyISAM rows
CELLS = "pooled-servlet/myisam/single,php/myisam/single"


def recorded_run(tmp_path):
    """cost-a copied, its options made short and blind to other work on the CPUs (disturbance is the
    fault suite's subject, not this one's)."""
    shutil.copytree(RECORDED, tmp_path / "cost-a")
    path = tmp_path / "cost-a" / "manifest.json"
    manifest = json.loads(path.read_text())
    manifest["options"].update(duration_s=2, warmup_cap_s=6, jit_warmup_cap_s=6, jvm_warmup_cap_s=0,
                               client_cpus="none", server_cpus="none", db_cpus="none",
                               max_steal_pct=100, max_other_pct=100)
    path.write_text(json.dumps(manifest))


def test_interleave_takes_the_cells_by_turns_each_at_its_share_with_an_a_a_twin(stack, tmp_path, capsys):
    recorded_run(tmp_path)
    assert cli.main(["spread-sources", "--run", "cost-a", "--results", str(tmp_path), "--cells", CELLS,
                     "--interleave", "--share", "0.1", "--seed", "5"]) == 0
    made = [path for path in tmp_path.iterdir() if path.name.startswith("cost-a-interleave-")]
    assert len(made) == 1
    rows = read_tsv(made[0] / "spread.tsv")
    pooled, php, twin = "pooled-servlet/myisam/single", "php/myisam/single", "pooled-servlet/myisam/single (A/A)"
    # Three members, a Williams design of six cycles shuffled by seed 5: each member in each position twice.
    orders = interleave.cycle_orders(3, 1, 5)
    assert [(row["restart"], row["cell"]) for row in rows] == [
        (str(cycle), (pooled, php, twin)[member]) for cycle, order in enumerate(orders, start=1) for member in order]
    # Each at 0.1 of its own median figure in cost-a; the twin at its cell's rate.
    rates = {row["cell"]: row["rate"] for row in rows}
    assert rates[pooled] == rates[twin] != rates[php]
    assert all(row["verdict"] in VERDICTS for row in rows)
    passed = [row for row in rows if row["verdict"] == PASS]
    assert all(float(row["cpu_ms_per_reply"]) > 0 and float(row["canary_ms"]) > 0 for row in passed)
    assert all(float(row["db_selects_per_reply"]) == 1 for row in passed), "MariaDB counted one SELECT a reply"
    page = (made[0] / "interleave.md").read_text()
    assert f"| {pooled} | {php} | " in page and f"| {pooled} | {twin} | " in page and "(seed 5, httperf)" in page
    assert f"boot {Path('/proc/sys/kernel/random/boot_id').read_text()[:8]}" in page, "the page names its machine's boot"
    assert (made[0] / "cells").exists() and (made[0] / "manifest.json").exists()
    assert "written to" in capsys.readouterr().out


def test_interleave_names_two_cells(tmp_path, capsys):
    recorded_run(tmp_path)
    assert cli.main(["spread-sources", "--run", "cost-a", "--results", str(tmp_path), "--cells", "php/myisam/single",
                     "--interleave"]) == 2
    assert "make interleave takes two located cells or more; CELLS= names 1" in capsys.readouterr().err


def test_interleave_by_oha_asks_for_it_to_be_built_first(tmp_path, capsys, monkeypatch):
    recorded_run(tmp_path)
    monkeypatch.setattr(spread, "OHA", tmp_path / "no-oha")
    assert cli.main(["spread-sources", "--run", "cost-a", "--results", str(tmp_path), "--cells", CELLS,
                     "--interleave", "--driver", "oha"]) == 2
    assert f"{tmp_path / 'no-oha'} is missing: `make interleave DRIVER=oha` builds it first" in capsys.readouterr().err
    assert not [path for path in tmp_path.iterdir() if "-interleave-" in path.name], "nothing measured"


def test_interleave_refuses_a_cell_the_run_did_not_locate(tmp_path, capsys):
    recorded_run(tmp_path)
    path = tmp_path / "cost-a" / "saturation.tsv"
    rows = read_tsv(path)
    for row in rows:
        if row["app"] == "php":
            row["status"] = "client-bound"
    path.write_text(tsv_text(list(rows[0]), rows))
    assert cli.main(["spread-sources", "--run", "cost-a", "--results", str(tmp_path), "--cells", CELLS,
                     "--interleave"]) == 2
    assert "located no figure for php/myisam/single" in capsys.readouterr().err
