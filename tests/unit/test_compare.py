"""Two recorded runs side by side: the two-round run against itself and against the one-round full6."""
import dataclasses

import pytest

from harness.report import turns
from harness.report.compare import comparison_markdown, comparison_rows
from harness.results.store import REFERENCE_RUNS, load_run, run_directory
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


def scaled(run, factors):
    """The run with each app's figure in round r multiplied by factors[app][r]."""
    return dataclasses.replace(run, saturation=[
        dataclasses.replace(row, saturation_rps=row.saturation_rps * factors.get(row.app, {}).get(row.round, 1))
        for row in run.saturation])


def test_the_paired_ratio_takes_round_r_beside_round_r_and_is_real_when_its_interval_excludes_one():
    faster = scaled(ROUNDS2, {"servlet": {1: 1.5, 2: 1.6}})
    rows = {row["cell"]: row for row in comparison_rows(ROUNDS2, faster)}
    servlet, php = rows["servlet/myisam/single"], rows["php/myisam/single"]
    assert servlet["paired"].estimate == pytest.approx((1.5 * 1.6) ** 0.5)
    assert servlet["real"] is True  # two rounds, both 1.5x or more: t(1) still excludes 1 at this spread
    assert php["paired"].estimate == pytest.approx(1) and php["real"] is False
    assert comparison_rows(FULL6, ROUNDS2)[0]["paired"].low is None  # one round in common: no interval
    assert "a real paired difference in 1 of 2" in comparison_markdown(ROUNDS2, faster, list(rows.values()))


def test_the_apps_order_is_shown_per_engine_and_workload_and_a_change_is_named():
    same = comparison_markdown(ROUNDS2, ROUNDS2, comparison_rows(ROUNDS2, ROUNDS2))
    assert "| myisam, single | php > servlet | php > servlet | no |" in same
    overtaken = scaled(ROUNDS2, {"servlet": {1: 3, 2: 3}})
    changed = comparison_markdown(ROUNDS2, overtaken, comparison_rows(ROUNDS2, overtaken), heading="##")
    assert "| myisam, single | php > servlet | servlet > php | yes |" in changed
    assert changed.startswith("## Run") and "### The apps' order" in changed


def test_what_a_request_cost_comes_from_the_saturation_step_of_the_median_round():
    """Recorded one-round runs of PHP and the pooled servlet (AMD EPYC), connections closed and kept
    alive: PHP's saturation steps at 2,131 and 2,685 req/s offered."""
    close, kept = load_run(FIXTURES / "close-quick"), load_run(FIXTURES / "ka-quick")
    rows = {row["cell"]: row for row in comparison_rows(close, kept)}
    (cpu_closed, softirq_closed, opened_closed), (cpu_kept, softirq_kept, opened_kept) = rows["php/innodb/single"]["costs"]
    assert softirq_closed == pytest.approx(1e6 * 0.41 / (2033.8551610029272 * 3.144))
    assert softirq_kept == pytest.approx(1e6 * 0.38 / (2635.535307517084 * 3.109))
    assert (opened_closed, opened_kept) == (1, 0.01)
    assert 0 < cpu_kept < cpu_closed
    markdown = comparison_markdown(close, kept, list(rows.values()))
    assert "What a request cost the servers at saturation" in markdown and "| php/innodb/single |" in markdown
    assert all(None in row["costs"] or min(row["costs"][0][:2]) > 0 for row in rows.values())


def test_a_run_from_before_the_softirq_figures_has_no_cost_table():
    assert "softirq_cpu1_s" not in FULL6.steps[next(iter(FULL6.steps))][0].figures
    assert "What a request cost" not in comparison_markdown(FULL6, FULL6, comparison_rows(FULL6, FULL6))
    assert "What a request cost" in comparison_markdown(ROUNDS2, ROUNDS2, comparison_rows(ROUNDS2, ROUNDS2))


@pytest.mark.parametrize("kept", ["turns-fit-xeon-20261129", "turns-fifth-xeon-20261130"])
def test_a_run_the_repository_keeps_is_found_when_the_results_folder_lacks_it(tmp_path, kept):
    """reference-runs/ holds default runs of the Intel Xeon kind without their raw outputs, to set a run
    of another machine beside: make compare finds each there, every pair of its turns intact."""
    assert run_directory(tmp_path, kept) == REFERENCE_RUNS / kept
    (tmp_path / kept).mkdir()
    assert run_directory(tmp_path, kept) == tmp_path / kept, "a run of that name under results/ comes first"
    assert run_directory(tmp_path, "no-such-run") == tmp_path / "no-such-run"
    reference = load_run(REFERENCE_RUNS / kept)
    assert len(reference.saturation) == len(reference.steps) and len(reference.turns) == 146
    assert len([ratio for ratio in turns.pair_ratios(reference).values() if ratio and ratio.low is not None]) == 25
