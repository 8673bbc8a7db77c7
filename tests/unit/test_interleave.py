"""Cells' costs at one moment: the orders of their turns, every pair's ratio of CPU per reply, beside
a run's saturation ratio (harness/results/interleave.py), on steps recorded by `make interleave` and on
a recorded run's rounds."""
import math
import statistics
from collections import Counter
from dataclasses import replace

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


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_a_williams_design_puts_each_cell_in_each_position_and_after_each_other_equally_often(count):
    orders = interleave.williams(count)
    assert all(sorted(order) == list(range(count)) for order in orders)
    positions = Counter((position, member) for order in orders for position, member in enumerate(order))
    assert set(positions.values()) == {len(orders) // count}
    follows = Counter(pair for order in orders for pair in zip(order, order[1:]))
    assert len(follows) == count * (count - 1) and len(set(follows.values())) == 1


def test_the_cycles_repeat_the_design_shuffled_by_the_seed():
    orders = interleave.cycle_orders(5, 2, seed=7)
    assert len(orders) == 2 * 10 and sorted(orders[:10]) == sorted(interleave.williams(5))
    assert orders == interleave.cycle_orders(5, 2, seed=7) and orders != interleave.cycle_orders(5, 2, seed=8)


def test_every_pair_of_cells_is_set_side_by_side_and_the_twin_against_its_cell_alone():
    labels = interleave.members(["php", "servlet", "pooled"])
    assert labels == ["php", "servlet", "pooled", "php (A/A)"]
    assert interleave.pairs_of(labels) == [("php", "servlet"), ("php", "pooled"), ("servlet", "pooled"),
                                           ("php", "php (A/A)")]
    assert interleave.members(["a", "b"], control=False) == ["a", "b"]


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


def test_interleave_md_gives_each_cells_cost_and_capacity_and_every_pairs_ratio_beside_the_runs():
    rows = read_tsv(RECORDED)
    first, second = list(dict.fromkeys(row["cell"] for row in rows))
    saturation = {(first, second): ({"figure": Interval(2.5, 2.4, 2.6), "cost": Interval(2.8, 2.6, 3.0)}, 3)}
    text = interleave.interleave_markdown(rows, "why", {first: 600.0, second: 600.0}, {first: 4000.0, second: 1600.0},
                                          saturation, "Intel Xeon, 2 cores", 1)
    measured = interleave.interleaved_ratio(rows, first, second)
    assert f"| {first} | {second} | {measured.estimate:.2f} | [{measured.low:.2f}, {measured.high:.2f}] | " in text
    assert "| 2.50 [2.40, 2.60], 3 rounds |" in text
    mean = statistics.geometric_mean(float(row["cpu_ms_per_reply"]) for row in rows
                                     if row["cell"] == first and row["verdict"] == PASS)
    assert f"| {first} | 600 | {mean:.3f} [" in text
    assert (f"- {first}: 1 CPU over {mean:.3f} ms a reply predicts {1000 / mean:,.0f} req/s; the run's figure is 4,000, "
            f"{4000 * mean / 1000:.2f}× that") in text
    # One pair is a family of one: Holm's p is the pair's own, and its word follows its interval.
    decided = "yes" if measured.excludes(1) else "no"
    p = f"p {measured.p_value:.3f}" if measured.p_value >= 0.001 else "p < 0.001"
    assert f"| {decided}, {p} | {len(interleave.pair_costs(rows, first, second))} |" in text
    assert f"±{measured.half_width:.0%} at the median pair" in text


WORK_QUICK = ROOT / "tests" / "fixtures" / "results" / "work-quick"


def test_located_figures_are_the_medians_of_the_located_cells():
    run = load_run(COST_A)
    found = interleave.located_figures(run.saturation)
    assert found == {key: figures.median.estimate for key, figures in cell_figures(run).items()}
    unlocated = [replace(row, status="not located") if row.key.app == "php" else row for row in run.saturation]
    assert [str(key) for key in interleave.located_figures(unlocated)] == [POOLED]


def test_a_sweeps_turns_group_its_located_cells_by_workload_and_engine_the_control_first_with_its_twin():
    run = load_run(WORK_QUICK)
    figures = interleave.located_figures(run.saturation)
    cells = [row.key for row in run.saturation]
    control = next(key for key in cells if str(key) == PHP)
    groups = interleave.turn_groups(cells, figures, control, 8, seed=7)
    assert [(group.workload, group.engine) for group in groups] == [
        ("large", "innodb"), ("single", "innodb"), ("single", "myisam"), ("large", "myisam")]
    for group in groups:
        assert {key.workload for key in group.keys} == {group.workload} and len(group.keys) == 4
        assert group.figures == {key: figures[key] for key in group.keys}
        members = len(group.keys) + group.control
        assert len(group.orders) >= 8 and len(group.orders) % len(interleave.williams(members)) == 0
        positions = Counter((position, member) for order in group.orders for position, member in enumerate(order))
        assert set(positions.values()) == {len(group.orders) // members}, "each member in each position alike"
    myisam = groups[2]
    assert myisam.control and str(myisam.keys[0]) == PHP and len(myisam.orders) == 10
    assert not any(group.control for group in groups if group is not myisam)
    assert [len(group.orders) for group in groups if group is not myisam] == [8, 8, 8]
    assert interleave.turn_groups(cells, figures, control, 8, seed=7) == groups, "the seed fixes the orders"
    assert interleave.turn_groups(cells, figures, control, 8, seed=8) != groups


def test_turns_across_engines_group_each_apps_cells_by_workload_and_both_takes_the_apps_groups_first():
    run = load_run(WORK_QUICK)
    figures = interleave.located_figures(run.saturation)
    cells = [row.key for row in run.saturation]
    control = next(key for key in cells if str(key) == PHP)
    engines = interleave.turn_groups(cells, figures, control, 8, seed=7, pairs="engines")
    assert {(group.workload, group.held) for group in engines} == {
        (workload, app) for workload in ("single", "large") for app in {key.app for key in cells}}
    for group in engines:
        assert group.across == "engines" and group.engine is None and group.label == f"engines:{group.workload}/{group.held}"
        assert {key.app for key in group.keys} == {group.held} and {key.engine for key in group.keys} == {"myisam", "innodb"}
    assert [group.control for group in engines].count(True) == 1
    both = interleave.turn_groups(cells, figures, control, 8, seed=7, pairs="both")
    assert both[:4] == interleave.turn_groups(cells, figures, control, 8, seed=7), "the apps' groups as before"
    assert [group.label for group in both[4:]] == [group.label for group in engines]
    assert interleave.group_label("engines:single/php") == ("engines", "single", "php")


def test_a_group_with_one_located_cell_takes_no_turns():
    run = load_run(WORK_QUICK)
    figures = {key: value for key, value in interleave.located_figures(run.saturation).items()
               if key.workload == "single" or key.app == "php"}
    groups = interleave.turn_groups([row.key for row in run.saturation], figures, None, 4, seed=1)
    assert [(group.workload, group.engine) for group in groups] == [("single", "innodb"), ("single", "myisam")]
    assert all(not group.control and len(group.orders) == 4 for group in groups)
