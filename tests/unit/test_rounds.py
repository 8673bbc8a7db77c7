"""What a run's rounds add up to, on a real recorded two-round run (tests/fixtures/results/rounds2:
PHP and the plain servlet, MyISAM single rows, seed 42, PHP also the A/A control) and on that run
cut short after its first round, as an interrupted run is."""
import dataclasses
import math

import pytest

from harness.report import tables, trust
from harness.report.view import View
from harness.results.records import BASELINE, DISTURBED, PASS, TOO_DISTURBED, CellKey, Step, Visit
from harness.results.rounds import cell_figures, control_noise, pair_ratios, round_spread
from harness.results.store import RunFiles, load_run
from harness.run.cell import Cell
from harness.run.context import RunContext
from harness.run.runner import Runner
from harness.run.schedule import schedule
from stack.settings import ROOT

RUN = load_run(ROOT / "tests" / "fixtures" / "results" / "rounds2")
PHP, SERVLET = CellKey("php", "myisam", "single"), CellKey("servlet", "myisam", "single")


def test_the_recorded_run_followed_its_seeds_schedule():
    options = RUN.manifest.options
    assert [row.visit for row in RUN.saturation] == schedule([PHP, SERVLET], 2, options["seed"], PHP)
    assert all(steps and all(step.round == visit.round for step in steps) for visit, steps in RUN.steps.items())


def test_a_cells_figure_is_the_median_of_its_rounds_and_its_representative_the_median_round():
    cells = cell_figures(RUN)
    php = cells[PHP]
    assert php.figures == {1: 1403.62, 2: 1465.5}
    assert php.median.estimate == pytest.approx((1403.62 + 1465.5) / 2)
    assert (php.median.low, php.median.high, php.median.confidence) == (1403.62, 1465.5, 0.5)
    assert php.geometric.estimate == pytest.approx(math.sqrt(1403.62 * 1465.5))
    assert php.representative.round == 1 and php.representative.replica == 1
    assert cells[SERVLET].representative.saturation_rps == 901.48


def test_a_median_is_a_lower_bound_only_when_a_bounded_round_could_raise_it():
    # A third round of PHP's cell above the other two, client-bound (httperf ran out first).
    php_rounds = [row for row in RUN.saturation if row.key == PHP and row.replica == 1]
    third = dataclasses.replace(php_rounds[1], round=3, saturation_rps=1500.0, status="client-bound")

    def php_figures(rows):
        return cell_figures(dataclasses.replace(RUN, saturation=rows))[PHP]

    above = php_figures(php_rounds + [third])
    assert above.median.estimate == 1465.5 and not above.lower_bound, "a bound above the median cannot move it"
    lowest_bounded = [dataclasses.replace(php_rounds[0], status="client-bound"), php_rounds[1], third]
    assert php_figures(lowest_bounded).lower_bound, "the lowest round's true figure may lie above 1,465.5"
    upper_middle_bounded = [php_rounds[0], dataclasses.replace(php_rounds[1], status="client-bound")]
    assert php_figures(upper_middle_bounded).lower_bound, "with two rounds the median is their mean"
    assert not php_figures(php_rounds).lower_bound


def test_app_pairs_are_ratios_paired_by_round():
    (pair,) = pair_ratios(cell_figures(RUN), ["php", "servlet"])
    assert (pair.app, pair.other, pair.rounds) == ("php", "servlet", 2)
    assert pair.ratio.estimate == pytest.approx(math.sqrt(1403.62 / 1060.52 * 1465.5 / 901.48))
    assert not pair.real, "two rounds cannot make a 1.3x and a 1.6x ratio real: t(0.975, 1) = 12.7"


def test_the_control_gives_the_noise_floor():
    key, ratio = control_noise(RUN)
    assert key == PHP
    assert ratio.estimate == pytest.approx(math.sqrt(1482.0 / 1403.62 * 1590.6 / 1465.5))


def test_the_rounds_spread_is_the_median_cells_interval_and_the_rounds_it_would_need():
    spread = round_spread(cell_figures(RUN))
    # Two rounds: the log-scale interval is t(0.975, 1) = 12.706 times |ln(a / b)| / 2 either side.
    php, servlet = (12.706 * abs(math.log(a / b)) / 2 for a, b in ((1465.5, 1403.62), (1060.52, 901.48)))
    assert spread.cells == 2 and spread.widest == SERVLET
    assert spread.median_half_width == pytest.approx(math.sinh(php), rel=1e-4)
    assert spread.widest_half_width == pytest.approx(math.sinh(servlet), rel=1e-4)
    # PHP's rounds differ by 4.4 %: three rounds give t(0.975, 2) 4.303 x 0.0305 / sqrt(3) = 7.6 % < ln 1.1.
    assert spread.rounds_for_target == 3


def test_an_interrupted_run_reports_the_rounds_it_finished():
    first_round = dataclasses.replace(RUN, saturation=[row for row in RUN.saturation if row.round == 1])
    view = View(first_round)
    rows = tables.summary_rows(view, {})
    assert [(row["app"], row["saturation_rps"], row["rounds"]) for row in rows] == [
        ("php", "1403.62", 1), ("servlet", "1060.52", 1)]
    markdown = tables.summary_markdown(view, rows)
    assert "With one round no figure has an interval" in markdown and "differences are real" not in markdown
    assert "rounds' spread" not in markdown


def test_the_summary_states_rounds_intervals_and_differences():
    view = View(RUN)
    rows = tables.summary_rows(view, {})
    php = rows[0]
    assert (php["rounds"], php["round_figures"], php["median_low"], php["median_high"]) == (
        2, "1403.62 1465.5", 1403.62, 1465.5)
    markdown = tables.summary_markdown(view, rows)
    assert "2 round(s), seed 42" in markdown and "A/A control: php/myisam/single" in markdown
    assert "±28% at the median cell of 2 and ±123% at the widest (servlet/myisam/single)" in markdown
    assert "| single | myisam | PHP (Apache + mod_php) | Servlet (connection per request) |" in markdown
    assert any(line.startswith("rounds: 2 of 2 done, seed 42") for line in tables.title_lines(view)[1])


def spoiled_by_the_hypervisor(files):
    """The case of a default run on AMD EPYC: PHP's single MyISAM rows in round 1, its baseline passed
    at 139.9 req/s, then its step at 1,192 req/s disturbed three times (stolen time 2.4-5.6 %)."""
    cell = Cell(files, PHP)
    cell.record(Step(1, 139.9, 2, 699, PASS, "reply rate 139.9", "raw/step-01.txt", role=BASELINE,
                     figures={"reply_rate": 139.9, "replies": 699}))
    for number in (2, 3, 4):
        cell.record(Step(number, 1192, 0.76, 5960, DISTURBED, "the hypervisor stole 5.6 % of a lab CPU",
                         f"raw/step-0{number}.txt", figures={"reply_rate": 1190.2, "replies": 5951}))
    cell.stopped_by_disturbance("the step at 1192 was disturbed in all its 3 tries; cell stopped")
    return cell


def test_a_cell_stopped_by_disturbance_is_no_figure_not_even_a_lower_bound(tmp_path):
    cell = spoiled_by_the_hypervisor(RunFiles(tmp_path))
    row = cell.summary()
    assert cell.awaiting_retry and row.status == TOO_DISTURBED and row.saturation_rps is None
    assert not row.lower_bound and row.disturbed_steps == 3
    # Once it replaces round 1's first measurement, the median, the A/A control and the pair use round 2 only.
    rounds = [row if (each.key, each.round, each.replica) == (PHP, 1, 1) else each for each in RUN.saturation]
    run = dataclasses.replace(RUN, saturation=rounds)
    php = cell_figures(run)[PHP]
    assert php.figures == {2: 1465.5} and php.median.estimate == 1465.5 and not php.lower_bound
    key, ratio = control_noise(run)
    assert ratio.estimate == pytest.approx(1590.6 / 1465.5)
    (pair,) = pair_ratios(cell_figures(run), ["php", "servlet"])
    assert pair.rounds == 1
    assert ("Left out of every figure, interval, ratio and the A/A control, because disturbed steps stopped them "
            "on their visit and on their retry later in the round: php/myisam/single round 1.") in trust.rounds_sentence(View(run))


def test_a_stopped_cell_is_retried_once_after_its_rounds_last_cell_then_not_measured(tmp_path):
    runner = Runner(RunContext.of(("php", "servlet"), engines=("myisam",), workloads=("single",), rounds=2),
                    "retries", tmp_path, say=lambda text: None)
    runner.visits = [Visit(PHP, 1), Visit(SERVLET, 1), Visit(SERVLET, 2), Visit(PHP, 2)]
    cell = spoiled_by_the_hypervisor(runner.files)
    runner.retry_later(Visit(PHP, 1), cell)
    assert runner.visits == [Visit(PHP, 1), Visit(SERVLET, 1), Visit(PHP, 1), Visit(SERVLET, 2), Visit(PHP, 2)]
    assert cell.awaiting_retry
    cell.stopped_by_disturbance("stopped again on its retry")
    runner.retry_later(Visit(PHP, 1), cell)
    assert len(runner.visits) == 5 and not cell.awaiting_retry
    row = Cell(runner.files, PHP).summary()  # as saved
    assert row.status == TOO_DISTURBED and row.saturation_rps is None and "on its retry" in row.note
