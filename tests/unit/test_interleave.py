"""Two cells' costs at one moment: the interleaved pairs' ratio of CPU per reply, beside a run's
saturation ratio (harness/results/interleave.py), on steps recorded by `make interleave` and on a
recorded run's rounds."""
import math
import statistics

import pytest

from harness.results import interleave
from harness.results.records import FAIL, PASS
from harness.results.rounds import cell_figures
from harness.results.stats import Interval
from harness.results.store import load_run, read_tsv
from stack.settings import ROOT

RECORDED = ROOT / "tests" / "fixtures" / "spread" / "interleave.tsv"
COST_A = ROOT / "tests" / "fixtures" / "results" / "cost-a"
PHP, POOLED = "php/myisam/single", "pooled-servlet/myisam/single"


def step(cell, pair, cost, verdict=PASS, user=None, system=None):
    return {"cell": cell, "restart": str(pair), "verdict": verdict, "cpu_ms_per_reply": str(cost),
            "user_ms_per_reply": str(user or ""), "system_ms_per_reply": str(system or "")}


def test_the_order_flips_every_pair():
    assert [interleave.order(pair) for pair in (1, 2, 3, 4)] == [(0, 1), (1, 0), (0, 1), (1, 0)]


def test_each_pair_gives_the_second_cells_cost_over_the_firsts():
    rows = [step("a", 1, 1.0), step("b", 1, 2.0), step("b", 2, 4.4), step("a", 2, 2.0)]
    found = interleave.interleaved_ratio(rows, "a", "b")
    assert found.estimate == pytest.approx(math.sqrt(2.0 * 2.2))
    assert found.low < found.estimate < found.high


def test_a_pair_with_a_step_that_did_not_pass_is_left_out():
    rows = [step("a", 1, 1.0), step("b", 1, 2.0), step("a", 2, 1.0), step("b", 2, 9.0, verdict=FAIL)]
    assert interleave.pair_costs(rows, "a", "b") == [(1, 1.0, 2.0)]
    assert interleave.interleaved_ratio(rows, "a", "b").low is None, "one pair: no interval"
    assert interleave.interleaved_ratio(rows[2:], "a", "b") is None


def test_overlap_reads_a_lone_estimate_as_its_own_interval():
    assert Interval(2.0, 1.5, 2.5).overlaps(Interval(2.4, 2.3, 2.6))
    assert not Interval(2.0, 1.5, 2.5).overlaps(Interval(3.0))
    assert Interval(2.0).overlaps(Interval(2.2, 1.9, 2.5))


def test_the_runs_ratios_pair_its_rounds():
    cells = {str(key): figures for key, figures in cell_figures(load_run(COST_A)).items()}
    pooled, php = cells[POOLED], cells[PHP]
    ratios = interleave.run_ratios(pooled, php)
    figures = [pooled.figures[number] / php.figures[number] for number in (1, 2)]
    assert ratios["figure"].estimate == pytest.approx(statistics.geometric_mean(figures))
    costs = [row.server_cpu_ms_per_reply_saturation for row in php.rows]
    own = [row.server_cpu_ms_per_reply_saturation for row in pooled.rows]
    assert ratios["cost"].estimate == pytest.approx(statistics.geometric_mean([c / o for c, o in zip(costs, own)]))


def test_recorded_pairs_alternate_and_give_the_ratio_of_their_costs():
    rows = read_tsv(RECORDED)
    first, second = list(dict.fromkeys(row["cell"] for row in rows))
    for pair in {int(row["restart"]) for row in rows}:
        cells = [row["cell"] for row in rows if int(row["restart"]) == pair]
        assert cells[0] == (first, second)[interleave.order(pair)[0]]
    pairs = interleave.pair_costs(rows, first, second)
    assert len(pairs) >= 4
    found = interleave.interleaved_ratio(rows, first, second)
    assert found.estimate == pytest.approx(statistics.geometric_mean([theirs / mine for _, mine, theirs in pairs]))


def test_interleave_md_sets_the_pairs_beside_the_runs_ratios():
    rows = read_tsv(RECORDED)
    first, second = list(dict.fromkeys(row["cell"] for row in rows))
    saturation = ({"figure": Interval(2.5, 2.4, 2.6), "cost": Interval(2.8, 2.6, 3.0)}, 3)
    text = interleave.interleave_markdown(rows, "why", first, second, 600.0, saturation, "Intel Xeon, 2 cores")
    measured = interleave.interleaved_ratio(rows, first, second)
    assert "| saturation figures, the run's rounds | 2.50 | [2.40, 2.60] | 3 rounds |" in text
    assert f"| servers' CPU per reply, interleaved | {measured.estimate:.2f} |" in text
    assert f"{measured.estimate / 2.5:.2f}× the saturation figures' ratio" in text
    assert text.count("| AB |") + text.count("| BA |") == len(interleave.pair_costs(rows, first, second))
    assert "600 req/s offered" in text and "Intel Xeon" in text
