"""The host's minutes in a run: the part of the cells' round-to-round spread every cell shared and each
cell's own (harness/report/drift.py), on hand-made values and on a run recorded on the Intel Xeon host
kind (cost-b: PHP and the pooled servlet on single MyISAM rows, 3 rounds)."""
import math
import statistics

import pytest

from harness.report import drift
from harness.report.costs import cost_ms
from harness.results.prices import round_prices
from harness.results.rounds import cell_figures
from harness.results.store import load_run
from stack.settings import ROOT

COST_B = ROOT / "tests" / "fixtures" / "results" / "cost-b"


def test_cells_that_move_together_share_all_of_their_spread():
    factors = {1: 1.0, 2: 1.2, 3: 0.9}
    found = drift.round_drift({"a": {n: 2.0 * f for n, f in factors.items()},
                               "b": {n: 5.0 * f for n, f in factors.items()}})
    assert found.own == pytest.approx(0, abs=1e-12) and found.shared_share == pytest.approx(1.0)
    centre = statistics.geometric_mean(factors.values())
    assert found.effects == {n: pytest.approx(f / centre) for n, f in factors.items()}
    assert found.shared == pytest.approx(statistics.stdev(math.log(f) for f in factors.values()))


def test_cells_that_move_against_each_other_share_nothing():
    found = drift.round_drift({"a": {1: 1.0, 2: 2.0}, "b": {1: 2.0, 2: 1.0}})
    assert found.shared == 0 and found.effects == {1: pytest.approx(1.0), 2: pytest.approx(1.0)}
    assert found.own == pytest.approx(math.log(2))


def test_the_rounds_are_those_most_cells_had():
    found = drift.round_drift({"a": {1: 1.0, 2: 1.1, 3: 1.3}, "b": {1: 2.0, 2: 2.3}, "c": {1: 4.0, 2: 4.1}})
    assert found.rounds == [1, 2] and found.cells == 3


def test_one_cell_or_one_round_gives_no_drift():
    assert drift.round_drift({"a": {1: 1.0, 2: 1.1}}) is None
    assert drift.round_drift({"a": {1: 1.0}, "b": {1: 2.0}}) is None
    assert drift.round_drift({}) is None


def test_a_recorded_runs_round_parts_come_from_its_cells_costs():
    run = load_run(COST_B)
    cells = cell_figures(run)
    found = drift.run_drift(cells)["cost"]
    assert found.rounds == [1, 2, 3] and found.cells == 2
    logs = {key: {row.round: math.log(cost_ms(row)) for row in figures.rows} for key, figures in cells.items()}
    for number in found.rounds:
        own = [values[number] - statistics.fmean(values.values()) for values in logs.values()]
        assert found.effects[number] == pytest.approx(math.exp(statistics.fmean(own)))


def test_the_summary_section_sets_each_round_beside_its_price_list():
    run = load_run(COST_B)
    lines = drift.drift_lines(cell_figures(run), run.prices)
    text = "\n".join(lines)
    assert lines[0] == "## The host's minutes: what the cells shared, round by round"
    prices = round_prices(run.prices)
    found = drift.run_drift(cell_figures(run))["cost"]
    for number in (1, 2, 3):
        assert (f"| {number} | {found.effects[number]:.3f} |" in text
                and f"| {prices[number]['canary_ms']:.3g} | {prices[number]['tcp_connection_us']:.3g} |" in text)
    assert "| the run's 2 | " in text and "| myisam single, 2 apps |" in text
