"""Fixed-rate experiments on the live stack: `make interleave` alternates two cells' steps at one rate
set from a recorded run's figures, and writes its steps, their rows and the ratio's page."""
import json
import shutil

from harness import cli
from harness.results import interleave
from harness.results.records import PASS, VERDICTS
from harness.results.store import read_tsv
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


def test_interleave_alternates_two_cells_at_one_rate_and_sets_their_ratio_beside_the_runs(stack, tmp_path, capsys):
    recorded_run(tmp_path)
    assert cli.main(["spread-sources", "--run", "cost-a", "--results", str(tmp_path), "--cells", CELLS,
                        "--interleave", "2", "--share", "0.1"]) == 0
    made = [path for path in tmp_path.iterdir() if path.name.startswith("cost-a-interleave-")]
    assert len(made) == 1
    rows = read_tsv(made[0] / "spread.tsv")
    # AB then BA, all at 0.1 of PHP's recorded figure (2,517 req/s in round 1, 2,626 in round 2).
    assert [(row["restart"], row["cell"]) for row in rows] == [
        ("1", "pooled-servlet/myisam/single"), ("1", "php/myisam/single"),
        ("2", "php/myisam/single"), ("2", "pooled-servlet/myisam/single")]
    assert {row["rate"] for row in rows} == {"257.2"} and all(row["verdict"] in VERDICTS for row in rows)
    passed = [row for row in rows if row["verdict"] == PASS]
    assert all(float(row["cpu_ms_per_reply"]) > 0 and float(row["canary_ms"]) > 0 for row in passed)
    page = (made[0] / "interleave.md").read_text()
    assert "| saturation figures, the run's rounds | " in page and "257.2 req/s offered" in page
    pairs = interleave.pair_costs(rows, "pooled-servlet/myisam/single", "php/myisam/single")
    assert page.count("| AB |") + page.count("| BA |") == len(pairs)
    assert (made[0] / "manifest.json").exists() and "written to" in capsys.readouterr().out


def test_interleave_names_two_cells(tmp_path, capsys):
    recorded_run(tmp_path)
    assert cli.main(["spread-sources", "--run", "cost-a", "--results", str(tmp_path), "--cells", "php/myisam/single",
                        "--interleave", "2"]) == 2
    assert "interleaves two located cells; CELLS= names 1" in capsys.readouterr().err
