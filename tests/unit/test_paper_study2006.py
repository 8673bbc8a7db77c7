"""The 2006 study's tables (`make reproduce PAPER=study2006`): a sweep figure runs the study's method
at the rates its table lists, or brackets a reference run's figures, and recorded sweeps (SOAP on the
16,000-row page at 1 and 2 req/s, Intel Xeon; the four apps' single rows at 20 req/s, AMD EPYC; 180 s
a step) become points, the paper's rows beside them, words on where each saturated, and PDF pages."""
import json

import pytest

from harness.report import paper_declaration, paper_figures, paper_sweeps
from harness.report.paper_declaration import figure_by_id
from harness.results.chosen import Refused
from harness.run import paper_runs
from stack.settings import ROOT
from tests.recorded_papers import drawn

RECORDED = ROOT / "tests" / "fixtures" / "reproduce-study2006"
# A run of the single rows at 20 req/s on MyISAM and of the 3-minute lesson, AMD EPYC.
EPYC_RUN = ROOT / "tests" / "fixtures" / "reproduce-study2006-epyc"


def study():
    return paper_runs.read_paper("study2006")


def test_a_table_is_a_sweep_of_one_cell_under_the_studys_method_at_its_rates():
    declaration, _ = study()
    args = paper_runs.figure_args(declaration, figure_by_id(declaration, "6.2.1-myisam"))
    assert (args.study, args.apps, args.engines, args.workloads) == (True, ("php",), ("myisam",), ("large",))
    assert args.rates == (1, 2, 3, 4, 5, 6, 7)
    assert paper_runs.own_run(declaration, figure_by_id(declaration, "6.2.4"))
    _, guess = paper_runs.plan(declaration, [figure_by_id(declaration, "6.2.1-myisam")], 1, RECORDED)
    assert guess >= 7 * 180, "seven 3-minute steps"


def test_the_recorded_table_is_not_run_again():
    declaration, _ = study()
    steps, _ = paper_runs.plan(declaration, [figure_by_id(declaration, "6.2.4")], 1, RECORDED)
    assert steps == []


@pytest.mark.parametrize("change, named", [
    (lambda f: f.update(x="items"), "drawn against the offered rate"),
    (lambda f: f["options"].pop("rates"), "lists its rates"),
    (lambda f: f.update(verb="concurrency-sweep"), "drawn against the offered rate"),
])
def test_a_wrong_sweep_figure_is_named(change, named):
    declaration, _ = study()
    declaration = json.loads(json.dumps(declaration))
    change(figure_by_id(declaration, "6.2.1-myisam"))
    with pytest.raises(Refused, match=named):
        paper_declaration.checked(declaration, "study2006.json")


def test_the_study_read_its_saturation_at_the_first_rate_whose_reply_rate_fell_short():
    # §6.2.1, PHP on MyISAM: 1, 2, 3, 4 reached, 3.8 at 5 (lines 249-289).
    assert paper_sweeps.saturation_of([(1, 1), (2, 2), (3, 3), (4, 4), (5, 3.8), (6, 3.5), (7, 3.5)]) == (4, 5)
    assert paper_sweeps.saturation_of([(1, 1), (2, 2)]) == (2, None)
    assert paper_sweeps.saturation_of([(1, 0.83)]) == (None, 1)
    # §6.2.3, the pooled servlet: 150 of 180 replies at 1 req/s (line 367); §6.2.2 on InnoDB gives no row.
    assert paper_sweeps.paper_saturation([(1, 0.83)]).endswith("at 1 req/s already, its lowest (throughput below it)")
    assert paper_sweeps.paper_saturation([]) == "the paper gives no reply rate at these rates"


def recorded_points():
    declaration, values = study()
    return declaration, values, paper_sweeps.rate_points(paper_runs.round_steps(RECORDED, "fig-6.2.4"))


def test_a_point_is_the_steps_reply_rate_and_response_time_beside_the_papers_row():
    declaration, values, points = recorded_points()
    ((key, series),) = points.items()
    assert key == ("soap", "myisam") and [rate for rate, _ in series] == [1.0, 2.0], "the baseline step is not a row"
    steps = [row for _, found in paper_runs.round_steps(RECORDED, "fig-6.2.4") for row in found["steps"] if row["role"] == ""]
    first = series[0][1]
    assert first["value"] == float(steps[0]["reply_rate"]) and first["response_ms"] == float(steps[0]["response_time_ms"])
    assert (first["low"], first["high"]) == (float(steps[0]["reply_rate_min"]), float(steps[0]["reply_rate_max"]))
    assert paper_sweeps.paper_rows(figure_by_id(declaration, "6.2.4"), values) == {
        "soap": {1.0: {"replies/s": 1.0, "ms": 693.2, "ms_high": 693.2},
                 2.0: {"replies/s": 0.1, "ms": 19832.3, "ms_high": 19832.3}}}
    words, _ = paper_sweeps.verdict(figure_by_id(declaration, "6.2.4"), values, points,
                                    paper_runs.recorded_registry(RECORDED, "fig-6.2.4"))
    assert words.startswith("SOAP (Axis 1.4) on myisam: "), "the app as the recorded run's registry titles it"
    assert "fell short of the rate at 2 req/s (throughput 1)" in words and "ours passed every rate up to 2 req/s" in words


def test_a_single_row_time_the_paper_gives_at_no_rate_or_as_a_range_stands_at_20_req_s_with_its_source():
    declaration, values = study()
    figure = figure_by_id(declaration, "6.1-20-myisam")
    args = paper_runs.figure_args(declaration, figure)
    assert (args.study, args.workloads, args.rates) == (True, ("single",), (20,))
    assert set(args.apps) == set(figure["series"].values()), "every app of the study on one page"
    rows = paper_sweeps.paper_rows(figure, values)
    assert rows["php"] == {20.0: {"ms": 10.3, "ms_high": 10.3}}
    assert paper_sweeps.paper_ms(rows["soap"][20.0]) == "25–150"
    sources = dict(paper_sweeps.sources(figure, values))
    assert len(sources) == 4 and sources['text: §6.1.1, MyISAM "when the rate was 20 requests/s"'] == "line 153"


def test_a_lesson_changes_one_knob_of_the_studys_method_on_one_cell():
    declaration, _ = study()
    three, five, short = (paper_runs.figure_args(declaration, figure_by_id(declaration, name))
                          for name in ("lesson-3min", "lesson-5min", "lesson-timeout-5s"))
    assert (three.duration_s, three.step_timeout_s) == (None, None), "the study's own 180 s and 60 s"
    assert five.duration_s == 300 and short.step_timeout_s == 5
    assert three.rates == five.rates == short.rates and three.apps == five.apps == short.apps == ("servlet",)
    plan = paper_runs.options.from_args(short)[0].plan
    assert (plan.step_timeout_s, plan.duration_s) == (5, 180)


def test_a_saturation_table_runs_its_reference_by_the_default_method_first_then_brackets_it(tmp_path):
    declaration, _ = study()
    figure = figure_by_id(declaration, "6.1.5-myisam")
    steps, guess = paper_runs.plan(declaration, [figure], 1, tmp_path)
    assert [what for _, _, what in steps] == [paper_runs.REFERENCE, None], "the reference, then the study's sweep"
    assert guess >= 4 * 5 * 180, "four cells, five 3-minute steps each at most"
    reference = paper_runs.reference_experiment(declaration, figure).args
    assert (reference.study, reference.rounds, reference.apps) == (False, 1, tuple(figure["series"].values()))
    assert paper_runs.bracket_args(declaration, figure, tmp_path) == [
        "--reference", str(tmp_path / "fig-6.1.5-myisam-reference")]
    assert paper_runs.bracket_args(declaration, figure_by_id(declaration, "6.2.4"), tmp_path) == [], "rates listed"


def test_a_cell_that_passed_every_rate_is_a_lower_bound_on_a_saturation_table():
    """The recorded single-row sweep at 20 req/s (AMD EPYC) read as a saturation table would be: every
    app's bar at 20 replies/s, flagged as the plan's limit, not a saturation."""
    points = paper_sweeps.saturation_points(paper_runs.round_summaries(EPYC_RUN, "fig-6.1-20-myisam"))
    assert sorted(points) == [(app, "single") for app in ("php", "pooled-servlet", "servlet", "soap")]
    for (_, point), in points.values():
        assert (point["value"], point["low"], point["high"], point["flags"]) == (20.0, 20.0, 20.0, ["plan-limit"])
    assert paper_figures.interval_about(points).endswith(paper_sweeps.SATURATION_BRACKET + ", not of rounds")


def test_a_cell_whose_client_ran_out_first_is_flagged_not_read_as_the_servers_saturation():
    """The recorded lesson: the servlet's 16,000 rows passed 38 req/s and, at 42, httperf ran out of
    descriptors (the 60 s timeout cut to fit them) while the server fell behind: a lower bound."""
    ((key, ((_, point),)),) = paper_sweeps.saturation_points(paper_runs.round_summaries(EPYC_RUN, "fig-lesson-3min")).items()
    assert key == ("servlet", "large")
    assert (point["value"], point["high"], point["flags"]) == (37.49, 37.49, ["client-bound"])


def test_reproduce_draws_the_table_from_a_recorded_sweep(tmp_path):
    pages, markdown = drawn("study2006", RECORDED, tmp_path)
    assert pages == 1, "the one table recorded"
    assert "| 0.1 | 19832.3 | pass |" in markdown
    assert "The paper's rows: text: §6.2.4's table (SOAP), lines 381–389 of its text." in markdown
    assert "Intel" in markdown.split("\n")[2]


def test_reproduce_draws_the_single_rows_at_20_req_s_each_papers_time_with_its_source_and_a_lesson(tmp_path):
    pages, markdown = drawn("study2006", EPYC_RUN, tmp_path)
    assert pages == 2, "the single rows at 20 req/s on MyISAM, the 3-minute lesson"
    assert "ran out of descriptors" in markdown, "the lesson's step at 42 req/s, with its reason"
    assert "| 20 | 20.0 | " in markdown and "| 25–150 | pass |" in markdown, "SOAP's range at 20 req/s"
    assert '- text: §6.1.1, MyISAM "when the rate was 20 requests/s", line 153 of its text.' in markdown
    assert "AMD EPYC" in markdown.split("\n")[2]


def test_a_step_that_did_not_pass_is_flagged_and_named_with_its_reason():
    declaration, values = study()
    steps = [{"role": "baseline", "offered_rate": "0.5", "reply_rate": "0.5", "response_time_ms": "600", "verdict": "pass",
              "reason": ""},
             {"role": "", "offered_rate": "1", "reply_rate": "1.0", "response_time_ms": "700", "verdict": "pass", "reason": ""},
             {"role": "", "offered_rate": "2", "reply_rate": "1.4", "response_time_ms": "9000", "verdict": "fail",
              "reason": "reply rate 1.4 < 95% of 2"}]
    points = paper_sweeps.rate_points([(1, {"cell": {"app": "soap", "engine": "myisam"}, "steps": steps})])
    (series,) = points.values()
    assert [(rate, point["flags"]) for rate, point in series] == [(1.0, []), (2.0, ["fail"])]
    assert series[1][1]["low"] == series[1][1]["high"] == 1.4, "no 5-s samples recorded: the step's own rate"
    words, sides = paper_sweeps.verdict(figure_by_id(declaration, "6.2.4"), values, points,
                                        paper_runs.recorded_registry(RECORDED, "fig-6.2.4"))
    assert words.endswith("ours first failed at 2 req/s (reply rate 1.4 < 95% of 2) (like for like).")
    assert sides.startswith("Like for like: measure, the reply rate and httperf's response time")
