"""Where a cell's cost spread lives: the one-way ANOVA's components of the log CPU per reply between
restarts and within one, and spread.md from spread.tsv's rows (recorded by `make spread-sources` on
the Intel Xeon host kind)."""
import math
import statistics

import pytest

from harness.results import spread
from harness.results.store import read_tsv
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "spread"
RECORDED = FIXTURES / "spread.tsv"  # NO_RESTART=1: five groups of two steps, the server left running


def test_groups_that_differ_only_between_restarts_have_no_within_spread():
    found = spread.components([[2.0, 2.0], [4.0, 4.0], [8.0, 8.0]])
    assert found.within == 0 and found.between == pytest.approx(math.log(2))
    assert found.geometric_mean == pytest.approx(4.0) and found.between_share == 1.0


def test_the_components_are_the_anova_estimates_on_the_log_scale():
    groups = [[1.0, 1.2, 1.1], [1.5, 1.3, 1.4], [1.0, 0.9, 1.05]]
    logs = [[math.log(value) for value in group] for group in groups]
    within = statistics.fmean(statistics.variance(group) for group in logs)  # balanced: the pooled variance
    between = 3 * statistics.variance([statistics.fmean(group) for group in logs])  # n x the means' variance
    found = spread.components(groups)
    assert found.within == pytest.approx(math.sqrt(within))
    assert found.between == pytest.approx(math.sqrt((between - within) / 3))
    assert (found.restarts, found.steps) == (3, 9)


def test_restarts_that_move_less_than_their_steps_have_no_between_component():
    found = spread.components([[1.0, 2.0], [1.4, 1.5]])
    assert found.between == 0 and found.between_share == 0


def test_too_few_values_give_no_components():
    assert spread.components([[1.0, 2.0]]) is None, "one restart"
    assert spread.components([[1.0], [2.0]]) is None, "no group with two steps: no within spread"
    assert spread.components([[1.0, 1.1], []]) is None


def test_the_recorded_experiments_table():
    rows = read_tsv(RECORDED)
    cells = list(dict.fromkeys(row["cell"] for row in rows))
    markdown = spread.spread_markdown(rows, "recorded", 0.6, "Intel(R) Xeon(R) Processor, 2 cores")
    for cell in cells:
        found = spread.cell_spread(rows, cell)
        assert found["cost"].restarts == len({row["restart"] for row in rows if row["cell"] == cell})
        line = next(line for line in markdown.splitlines() if line.startswith(f"| {cell} |"))
        assert f"{found['cost'].between_share:.0%}" in line and f"{found['cost'].geometric_mean:.3f}" in line
        # A reply's CPU is its user and system time: their geometric means add up to about the whole.
        assert found["user"].geometric_mean + found["system"].geometric_mean == pytest.approx(
            found["cost"].geometric_mean, rel=0.1)


def test_a_group_with_one_passing_step_still_counts_toward_the_restarts():
    # Restarted before each group: the pooled servlet's first step after its fifth restart failed.
    rows = read_tsv(FIXTURES / "spread-restarts.tsv")
    found = spread.cell_spread(rows, "pooled-servlet/myisam/single")
    assert (found["cost"].restarts, found["cost"].steps) == (5, 9)
    assert "| pooled-servlet/myisam/single | 5 x 1.8 |" in spread.spread_markdown(rows, "r", 0.4, "host")
