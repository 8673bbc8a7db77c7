"""STUDY=1, the 2006 study's method: its plan around a default run's figure, its timeout, and its
saturation read from the reply rate alone, on a recorded run (tests/fixtures/results/full6)."""
import shutil
from dataclasses import replace

import pytest

from harness.drivers import driver
from harness.judge.verdict import Thresholds, judge
from harness.report import tables
from harness.results.records import FAIL, PASS, CellKey, LOCATED
from harness.results.saturation import summarize
from harness.results.store import read_steps
from harness.run import options
from harness.run.context import Plan, preset, profiles
from harness.run.planner import LinearPlan
from harness.run.procedure import plan_for
from stack.settings import ROOT

HTTPERF = driver("httperf")

FIXTURE = ROOT / "tests" / "fixtures" / "results" / "full6"
SERVLET = FIXTURE / "cells" / "servlet-myisam-single"
STUDY_THRESHOLDS = Thresholds(**preset("study")["options"]["thresholds"])


def rates(plan, capacity=float("inf")):
    history = []
    while (rate := plan.next(history)) is not None:
        history.append((rate, PASS if rate <= capacity else FAIL))
    return [rate for rate, _ in history]


def test_the_study_plan_runs_k_rates_across_the_reference_figure_and_stops_at_the_first_shortfall():
    assert rates(LinearPlan.bracketing(100, 5, 0.7, 1.3)) == [70, 85, 100, 115, 130]
    assert rates(LinearPlan.bracketing(9.6, 5, 0.7, 1.3)) == [6.7, 8.2, 9.6, 11.0, 12.0]
    assert rates(LinearPlan.bracketing(1603.61, 3, 0.7, 1.3)) == [1123, 1604, 2085]
    assert rates(LinearPlan.bracketing(100, 5, 0.7, 1.3, stop_after_failures=1), capacity=105) == [70, 85, 100, 115]
    study = Plan(mode="linear", linear_rates=5, linear_stop_after=1)
    assert rates(plan_for(study, "large", estimate=None, reference=40.0)) == [28, 34, 40, 46, 52]
    ramp = profiles()["large"]
    assert rates(plan_for(study, "large", estimate=None))[:2] == [ramp.linear_step, 2 * ramp.linear_step], \
        "without a reference figure: the study's own ramp from its first rate"


def test_listed_rates_replace_the_plan_in_order_and_stop_at_the_first_shortfall_under_the_study():
    # The study's per-rate tables (its §6.2: 1, 2, 3 ... req/s): RATES= needs no reference run.
    study = Plan(mode="linear", linear_rates=5, linear_stop_after=1, rates=(1, 2, 3, 4, 5, 6, 7))
    assert rates(plan_for(study, "large", estimate=None)) == [1, 2, 3, 4, 5, 6, 7]
    assert rates(plan_for(study, "large", estimate=None), capacity=4) == [1, 2, 3, 4, 5]
    adaptive = Plan(rates=(20,))
    assert rates(plan_for(adaptive, "single", estimate=900.0)) == [20], "whatever the mode, no probe-led ramp"
    parser = options.parser("test")
    assert parser.parse_args(["--rates", "1,2.5"]).rates == (1.0, 2.5)
    with pytest.raises(SystemExit):
        parser.parse_args(["--rates", "1,0"])


def test_the_study_reads_the_reply_rate_alone_on_a_recorded_step():
    # full6, servlet, MyISAM single rows, 1,231 req/s offered: 245 client timeouts of 7,386 requests
    # (3.3 %) with a reply rate of 1,172.5 (95.2 %). The lab's rule fails it for the errors; the study
    # read only whether the reply rate reached the offered rate, and a timed-out request is no reply.
    text = (SERVLET / "raw" / "step-11-rate-1231.txt").read_text()
    figures = HTTPERF.figures(text)
    assert figures["client_timo"] == 245 and figures["reply_rate"] == pytest.approx(1172.5, abs=0.1)
    assert judge(figures, 1231, 0.73, 7386)[0] == FAIL
    assert judge(figures, 1231, 0.73, 7386, thresholds=STUDY_THRESHOLDS)[0] == PASS
    short = HTTPERF.figures((SERVLET / "raw" / "step-12-rate-1164.txt").read_text())
    assert judge(short, 1164, 0.77, 6984, thresholds=STUDY_THRESHOLDS)[0] == FAIL, "1,097.5 of 1,164: 94.3 %"


def test_a_long_steps_error_pages_fail_it_though_the_reply_rate_the_study_read_was_reached():
    # study-epyc (AMD EPYC), pooled servlet, 16,000 MyISAM rows, 38 req/s for 180 s: HikariCP's 5 s
    # wait (POOL_TIMEOUT_MS) for one of its 5 connections ran out 539 times, each answered 503, while
    # the reply rate, 5xx included, reached 37.5 (98.6 %). The study read only that rate; the lab
    # keeps its rule that an error page is not a page served, in STUDY=1 too.
    figures = HTTPERF.figures((ROOT / "tests" / "fixtures" / "httperf" / "pooled-large-180s-pool-waits-5xx.txt").read_text())
    assert (figures["status_5xx"], figures["replies"]) == (539, 6840)
    assert figures["reply_rate"] == pytest.approx(37.5, abs=0.1)
    verdict, reason = judge(figures, 38, 23.68, 6840, thresholds=STUDY_THRESHOLDS)
    assert verdict == FAIL and reason == "539 of 6840 replies not 2xx (4xx 0, 5xx 539)"
    the_letter = replace(STUDY_THRESHOLDS, max_non2xx_ratio=1.0)
    assert judge(figures, 38, 23.68, 6840, thresholds=the_letter)[0] == PASS


def test_the_studys_saturation_on_a_recorded_cell_is_the_best_reply_below_the_first_rate_that_fell_short():
    """The cell's recorded outputs in order of rate, judged as the study judged and stopped at the
    first shortfall, as STUDY=1's plan stops: 1,148 req/s fell short (1,083.7), so the figure is the
    best reply rate below it, 1,099.9 at 1,101 offered; the default method's run read the same cell
    from a bracket that 1,231's errors closed at 1,132."""
    key = CellKey("servlet", "myisam", "single")
    steps = sorted((step for step in read_steps(SERVLET / "steps.tsv") if step.role != "baseline"),
                   key=lambda step: step.offered_rate)
    read = []
    for step in steps:
        figures = HTTPERF.figures((SERVLET / step.raw).read_text())
        verdict, reason = judge(figures, step.offered_rate, step.timeout_s, step.num_conns, thresholds=STUDY_THRESHOLDS)
        read.append(replace(step, verdict=verdict, reason=reason))
        if verdict != PASS:
            break
    assert [step.offered_rate for step in read][-3:] == [1101, 1132, 1148]
    row = summarize(key, read, restarts=0)
    assert (row.status, row.saturation_rps, row.saturation_offered, row.overload_offered) == (LOCATED, 1099.9, 1101, 1148)


def test_study_1_is_the_preset_with_its_timeout_thresholds_and_a_reference_run(tmp_path):
    shutil.copytree(FIXTURE, tmp_path / "full6")
    context, run_id, _ = options.from_argv(["--study", "--apps", "servlet", "--engines", "myisam", "--workloads",
                                            "single", "--results", str(tmp_path), "--seed", "3"], "")
    plan = context.plan
    assert (plan.mode, plan.duration_s, plan.step_timeout_s, plan.rounds, plan.auto_rounds) == ("linear", 180, 60, 1, False)
    assert (plan.linear_rates, plan.linear_stop_after, context.thresholds.max_error_ratio) == (5, 1, 1.0)
    assert context.presets == ("study",) and run_id.endswith("-study") and context.selection.control is None
    assert plan.reference_run == "full6" and plan.reference_figures == {"servlet/myisam/single": 1099.9}
    assert plan.timeout_for(profiles()["single"]) == 60 and Plan().timeout_for(profiles()["single"]) == profiles()["single"].timeout_s
    manifest = context.as_manifest()
    assert manifest["reference_figures"] == {"servlet/myisam/single": 1099.9} and manifest["presets"] == ["study"]
    said = " ".join(tables.study_method_lines(manifest))
    assert "180 s steps at 5 rates from 70% to 130% of run full6's figure" in said and "--timeout 60 s" in said
    assert "more than 1% not 2xx" in said, "the one rule the study's reading does not drop"
    assert tables.study_method_lines(options.from_argv(["--results", str(tmp_path)], "")[0].as_manifest()) == []
    ramp, _, _ = options.from_argv(["--study", "--linear-rates", "0", "--results", str(tmp_path / "none")], "")
    assert ramp.plan.reference_figures == {}, "the study's ramp from its first rate needs no reference"


def test_a_reference_named_by_its_path_is_read_wherever_the_run_goes(tmp_path):
    """As `make reproduce` names a saturation table's reference: the run beside the table's own, in
    the round's folder, while the table's sweep writes under that folder."""
    shutil.copytree(FIXTURE, tmp_path / "round-1" / "fig-table-reference")
    context, _, _ = options.from_argv(["--study", "--apps", "servlet", "--engines", "myisam", "--workloads", "single",
                                       "--reference", str(tmp_path / "round-1" / "fig-table-reference"),
                                       "--results", str(tmp_path / "round-1")], "")
    assert context.plan.reference_run == "fig-table-reference"
    assert context.plan.reference_figures == {"servlet/myisam/single": 1099.9}


def test_the_studys_lessons_are_knobs_of_its_method_a_timeout_and_no_warm_up(tmp_path):
    context, _, _ = options.from_argv(["--study", "--rates", "1,2", "--step-timeout", "5", "--no-warmup",
                                       "--results", str(tmp_path)], "")
    assert (context.plan.step_timeout_s, context.plan.duration_s) == (5, 180)
    assert (context.warmup.warmup_cap_s, context.warmup.jvm_warmup_cap_s) == (0, 0)
    plain, _, _ = options.from_argv(["--study", "--rates", "1,2", "--results", str(tmp_path)], "")
    assert plain.plan.step_timeout_s == 60 and plain.warmup.warmup_cap_s > 0 and plain.warmup.jvm_warmup_cap_s > 0


@pytest.mark.parametrize("argv, said", [
    (["--study"], "STUDY=1 brackets each cell's figure from a run of the default method"),
    (["--study", "--reference", "nowhere"], "REFERENCE=nowhere: no such run"),
    (["--study", "--reference", "full6", "--apps", "php-fpm"], "REFERENCE=full6 cannot set the linear rates: it has no figure"),
    (["--study", "--quick"], "QUICK=1 and STUDY=1 are two methods"),
])
def test_study_1_without_a_usable_reference_is_refused_in_words(tmp_path, argv, said):
    if "full6" in argv:
        shutil.copytree(FIXTURE, tmp_path / "full6")
    with pytest.raises(SystemExit, match=said):
        options.from_argv([*argv, "--results", str(tmp_path)], "")


def test_one_linear_rate_is_refused(capsys, tmp_path):
    with pytest.raises(SystemExit):
        options.from_argv(["--study", "--linear-rates", "1", "--results", str(tmp_path)], "")
    assert "1 rate brackets nothing" in capsys.readouterr().err
