"""Two recorded runs side by side: the two-round run against itself and against the one-round full6."""
import dataclasses

import pytest

from harness.report.compare import comparison_markdown, comparison_rows
from harness.results.store import load_run
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "results"
ROUNDS2, FULL6 = load_run(FIXTURES / "rounds2"), load_run(FIXTURES / "full6")


def test_a_run_against_itself_agrees_everywhere():
    rows = comparison_rows(ROUNDS2, ROUNDS2)
    assert [row["cell"] for row in rows] == ["servlet/myisam/single", "php/myisam/single"]
    assert all(row["ratio"] == 1 and row["overlap"] for row in rows)
    assert "intervals overlap in 2 of 2 cells" in comparison_markdown(ROUNDS2, ROUNDS2, rows)


def test_only_the_cells_of_both_runs_are_compared_and_one_round_has_no_interval():
    rows = comparison_rows(FULL6, ROUNDS2)
    assert [row["cell"] for row in rows] == ["php/myisam/single", "servlet/myisam/single"]
    php = rows[0]
    second = (1403.62 + 1465.5) / 2
    assert php["second_over_first"] == pytest.approx(second / php["first"].median.estimate)
    assert php["ratio"] == pytest.approx(max(second, php["first"].median.estimate) / min(second, php["first"].median.estimate))
    assert php["overlap"] is None
    markdown = comparison_markdown(FULL6, ROUNDS2, rows)
    assert "(1 round)" in markdown and "overlap in 0 of 0 cells" in markdown


def test_a_median_that_is_only_a_lower_bound_reads_as_one():
    bounded = dataclasses.replace(ROUNDS2, saturation=[
        dataclasses.replace(row, status="client-bound") if row.app == "servlet" else row for row in ROUNDS2.saturation])
    markdown = comparison_markdown(ROUNDS2, bounded, comparison_rows(ROUNDS2, bounded))
    servlet_line = next(line for line in markdown.splitlines() if line.startswith("| servlet/myisam/single"))
    assert servlet_line.count(">= ") == 1, "the second run's servlet figure only, not the first's"
    assert ">= " not in next(line for line in markdown.splitlines() if line.startswith("| php/myisam/single"))
