"""A paper's figures beside ours (harness/report/paper_figures.py, `make reproduce`): the declarations in
experiments/papers/ hold together, and two recorded rounds of ICWS'08's load (Apache Bench, 100 kept-alive
connections, every SOAP engine, getQuote and echoStruct(10), Intel Xeon) become points, ratios and
verdicts, and a PDF page per figure."""
import json

import pytest

from harness.report import paper_declaration, paper_figures, paper_pages
from harness.report.paper_declaration import figure_by_id
from harness.results.chosen import Refused
from harness.run import paper_runs
from stack.settings import ROOT
from tests.recorded_papers import drawn

FIXTURES = ROOT / "tests" / "fixtures" / "reproduce"


def recorded_rounds():
    return [(number, json.loads((FIXTURES / f"round-{number}" / "fig-3" / "concurrency.json").read_text()))
            for number in (1, 2)]


def icws08():
    return paper_runs.read_paper("icws08")


@pytest.mark.parametrize("paper", paper_runs.papers())
def test_every_declared_paper_and_its_values_pass_their_checks(paper):
    declaration, values = paper_runs.read_paper(paper)
    assert values and all(row["line"].isdigit() for row in values)
    for each in declaration["figures"]:
        if paper_runs.is_phases(declaration, each):
            args = paper_runs.figure_args(declaration, each)
            apps, workloads, levels = args.apps.split(","), args.kinds.split(","), args.sizes.split(",")
        elif paper_runs.own_run(declaration, each):  # a sweep at the rates it lists, or bracketing a reference
            args = paper_runs.figure_args(declaration, each)
            apps, workloads, levels = args.apps, args.workloads, args.rates or paper_runs.bracketed(args)
        else:
            apps, workloads, levels = paper_runs.figure_cells(declaration, each)
        assert set(filter(None, each["series"].values())) <= set(apps), each["id"]
        assert each["reference"] in apps and workloads and levels


def test_icws08_s_figures_run_under_ab_with_100_kept_alive_connections():
    declaration, _ = icws08()
    args = paper_runs.figure_args(declaration, figure_by_id(declaration, "3"))
    assert (args.driver, args.conn, args.levels, args.app_set) == ("ab", "keepalive", ("100",), "soap")
    fig7 = paper_runs.figure_args(declaration, figure_by_id(declaration, "7"))
    assert fig7.levels == tuple(str(2 ** x) for x in range(1, 11))


def test_a_figure_narrowed_to_some_apps_drops_its_set():
    declaration, _ = icws08()
    narrowed = paper_declaration.experiment_of(declaration, figure_by_id(declaration, "3"), ["soap-gsoap"])
    assert narrowed["options"]["apps"] == ["soap-gsoap"] and "set" not in narrowed["options"]
    assert narrowed["options"]["driver"] == "ab"


@pytest.mark.parametrize("change, named", [
    (lambda d: d.update(colour="red"), "colour: no such field"),
    (lambda d: d["figures"][0].update(x="speed"), "x: 'speed' is none of"),
    (lambda d: d["load"].update(verb="profile"), "load.verb"),
    (lambda d: d["figures"].append(dict(d["figures"][0])), "an id twice"),
    (lambda d: d["figures"][0].pop("reference"), "reference missing"),
    (lambda d: d["sides"]["ours"].pop("client"), "sides ours.client missing"),
    (lambda d: d["figures"][2]["sides"]["paper"].pop("message"), "figure 3: .* sides paper.message missing"),
])
def test_a_wrong_declaration_is_named(change, named):
    declaration = json.loads((paper_runs.PAPERS / "icws08.json").read_text())
    change(declaration)
    with pytest.raises(Refused, match=named):
        paper_declaration.checked(declaration, "icws08.json")


@pytest.mark.parametrize("change, named", [
    (lambda row: row.update(series="Axis3"), "'Axis3' is not one of figure 3's series"),
    (lambda row: row.update(line=""), "each value names its line"),
    (lambda row: row.update(figure="99"), "figure '99' is not declared"),
    (lambda row: row.update(measure="MB"), "a figure against app draws no MB"),
    (lambda row: row.update(measure="watts"), "measure 'watts' is none of"),
])
def test_a_wrong_value_row_is_named(change, named):
    declaration, values = icws08()
    row = dict(next(row for row in values if row["figure"] == "3"))
    change(row)
    with pytest.raises(Refused, match=named):
        paper_declaration.checked_values([row], declaration, "icws08-values.tsv")


def test_two_recorded_rounds_give_the_median_and_the_rounds_range():
    declaration, _ = icws08()
    measured = paper_figures.measured_levels(recorded_rounds())
    fig3 = figure_by_id(declaration, "3")
    points = paper_figures.figure_points(fig3, *paper_runs.figure_cells(declaration, fig3), measured)
    assert len(points) == 6
    (x, php), = points[("soap-php", "quote")]
    assert x is None and (php["low"], php["high"], php["rounds"]) == (3806.0, 6396.0, 2)
    assert php["value"] == pytest.approx((3806.0 + 6396.0) / 2)
    assert php["keepalive_share"] == 1.0 and not php["flags"]
    (_, gsoap), = points[("soap-gsoap", "quote")]
    assert any("GSOAP_THREADS" in flag for flag in gsoap["flags"])
    assert ("soap-gsoap", "quote", 0.0) in paper_figures.closing_connections(points)


def test_one_round_takes_its_interval_from_the_windows():
    level = recorded_rounds()[0][1][2]["levels"][0]
    windows = [window["replies_per_s"] for window in level["windows_figures"]]
    single = paper_figures.point([level])
    assert (single["low"], single["high"], single["rounds"]) == (min(windows), max(windows), 1)
    assert "one round" in paper_figures.interval_about({("soap-php", "quote"): [(None, single)]})


def test_ratios_are_over_the_reference_and_the_verdicts_say_whether_the_paper_s_direction_holds():
    declaration, values = icws08()
    measured = paper_figures.measured_levels(recorded_rounds())
    fig3 = figure_by_id(declaration, "3")
    points = paper_figures.figure_points(fig3, *paper_runs.figure_cells(declaration, fig3), measured)
    ratios = paper_figures.ratio_series(fig3, points)
    assert ("soap-axis2", "quote") not in ratios
    (_, php), = ratios[("soap-php", "quote")]
    assert php["low"] <= php["value"] <= php["high"] < 1
    verdicts = {row["apps"]: row for row in paper_figures.verdict_rows(fig3, values, points)}
    assert verdicts["soap-php / soap-axis2"]["paper"] == "0.97×"
    assert verdicts["soap-php / soap-axis2"]["verdict"].startswith("the direction holds (both below 1)")
    assert verdicts["soap-gsoap / soap-axis2"]["verdict"].startswith("does not hold: the paper's is above 1")
    assert verdicts["soap-php / soap-axis2"]["verdict"].endswith("(not like for like in message)")
    assert paper_figures.sides_text(fig3["sides"]) == (
        "Not like for like: Message: the paper, StockQuote: a request of one element, 277 bytes; a response of 649 "
        "bytes: symbol, volume, lastTrade (price, date), change (dollar, percent) (lines 770-774, Tables 2-3); ours, "
        "getQuote: a request of one symbol element; a response of 730-790 bytes: a quote of 14 flat fields "
        "(contract/README.md).")


@pytest.mark.parametrize("paper", paper_runs.papers())
def test_every_figure_of_a_paper_declares_both_sides_measure_and_shape(paper):
    declaration, _ = paper_runs.read_paper(paper)
    for figure in declaration["figures"]:
        for side in paper_declaration.SIDES:
            assert set(figure["sides"][side]) >= set(paper_declaration.SIDE_FIELDS), (figure["id"], side)
            assert all(figure["sides"][side][field].strip() for field in paper_declaration.SIDE_FIELDS)


def test_a_verdict_is_like_for_like_only_when_every_field_of_both_sides_reads_the_same():
    same = {"measure": "throughput (requests/s)", "client": "ab", "message": "echoStruct(10)", "load": "100 connections"}
    assert paper_figures.likeness({"paper": same, "ours": dict(same)}) == "like for like"
    other = {**same, "load": "a rate offered", "client": "httperf"}
    assert paper_figures.likeness({"paper": same, "ours": other}) == "not like for like in client and load"
    assert paper_figures.sides_text({"paper": same, "ours": other}) == (
        "Not like for like: Client: the paper, ab; ours, httperf. Load: the paper, 100 connections; ours, a rate offered.")


@pytest.mark.parametrize("paper_low, paper_high, ours, starts", [
    (1.87, 5.97, [0.3, 0.4], "does not hold"),
    (1.87, 5.97, [2.0, 3.0], "the direction holds (both above 1)"),
    (1.87, 5.97, [0.8, 1.2], "in part"),
    (None, None, [0.6, 1.1], "holds: ours is above 1 somewhere"),
    (None, None, [0.6, 0.9], "does not hold: ours is below 1 throughout"),
    (0.86, 0.86, [], "not measured"),
])
def test_verdict_in_words(paper_low, paper_high, ours, starts):
    assert paper_figures.verdict(paper_low, paper_high, [{"value": value} for value in ours]).startswith(starts)


def test_a_ratio_whose_interval_reaches_1_shows_no_direction():
    ours = [{"value": 0.99, "low": 0.73, "high": 1.29}]
    assert paper_figures.verdict(1.25, 1.25, ours).startswith("not shown: at the median the direction does not hold")
    assert paper_figures.verdict(0.86, 0.86, [{"value": 0.44, "low": 0.29, "high": 0.45}]).startswith(
        "the direction holds")


def test_a_cell_another_figure_of_the_round_measured_is_not_run_again():
    done = {("soap-php", "echo-10", 100), ("soap-axis2", "echo-10", 100)}
    assert paper_figures.apps_to_run(["soap-php", "soap-axis2"], ["echo-10"], [100], done) == []
    assert paper_figures.apps_to_run(["soap-php", "soap-gsoap"], ["echo-10", "echo-20"], [100], done) == \
        ["soap-php", "soap-gsoap"]


def test_a_lines_figure_has_three_blocks_per_series_and_the_paper_s_span_once_per_app():
    declaration, values = icws08()
    measured = paper_figures.measured_levels(recorded_rounds())
    fig4 = figure_by_id(declaration, "4")
    points = paper_figures.figure_points(fig4, *paper_runs.figure_cells(declaration, fig4), measured)
    assert set(points) == {(app, "echo") for app in fig4["series"].values()}
    # Against items, each app's echo-N make one line, N rising.
    level = measured[("soap-php", "echo-10", 100)]
    two = paper_figures.figure_points(fig4, ["soap-php"], ["echo-10", "echo-1"], [100],
                                      {("soap-php", "echo-10", 100): level, ("soap-php", "echo-1", 100): level})
    assert list(two) == [("soap-php", "echo")] and [x for x, _ in two[("soap-php", "echo")]] == [1, 10]
    text, series = paper_pages.lines_text(fig4, values, points, paper_figures.ratio_series(fig4, points),
                                          paper_runs.recorded_registry(FIXTURES, "fig-3"))
    blocks = text.rstrip("\n").split("\n\n\n")
    assert len(blocks) == 3 * len(series)
    assert "1\t10\t1.87\t5.97" in blocks[2 * len(series):]
    assert series[0][1].startswith("#")


def test_reproduce_draws_a_page_per_figure_from_recorded_rounds(tmp_path):
    pages, markdown = drawn("icws08", FIXTURES, tmp_path, ("--figures", "3,4,7"))
    # Every figure with points is drawn, whichever were asked for: Figs. 3-6 share the recorded cells
    # (getQuote and echo-10 at 100 connections); Fig. 7's ladder and Fig. 8's lists were not recorded.
    # The profiled round adds the breakdown (its bars and its text) and the footprint (its text).
    assert pages == 7
    assert "## Fig. 3: StockQuote" in markdown and "## Fig. 6" in markdown and "## Fig. 7" not in markdown
    assert "## Fig. 9-13" in markdown and "## Fig. 4.5.3" in markdown
    front = (tmp_path / "recorded" / "report" / "index.html").read_text()
    assert "<h1>ICWS'08 reproduced</h1>" in front and 'href="../icws08.pdf"' in front
    # Each page of the PDF drawn on the front page, from the PDF itself.
    assert [f'src="figures/icws08-{page}.svg"' in front for page in range(1, 9)] == [True] * 7 + [False]
    assert (tmp_path / "recorded" / "report" / "figures" / "icws08-7.svg").read_text().startswith("<?xml")
    assert 'href="recorded/report/index.html"' in (tmp_path / "index.html").read_text()
    assert "(line 806)" in markdown and "Intel" in markdown


def test_a_flagged_point_is_drawn_apart():
    declaration, values = icws08()
    measured = paper_figures.measured_levels(recorded_rounds())
    fig3 = figure_by_id(declaration, "3")
    points = paper_figures.figure_points(fig3, *paper_runs.figure_cells(declaration, fig3), measured)
    rows = paper_pages.bars_text(fig3, values, points, paper_figures.ratio_series(fig3, points),
                                 paper_runs.recorded_registry(FIXTURES, "fig-3")).split("\n\n\n")[0]
    by_label = {row.split("\t")[6]: row.split("\t") for row in rows.splitlines()}
    assert by_label["Axis2 C"][7] == by_label["Axis2 C"][1]  # above gSOAP's 16 threads: flagged
    assert by_label["PHP+Apache"][7] == "NaN" and by_label["PHP+Apache"][4] == "1831"


def test_a_ratio_over_rounds_both_measured_is_paired_by_round():
    declaration, _ = icws08()
    measured = paper_figures.measured_levels(recorded_rounds())
    fig3 = figure_by_id(declaration, "3")
    points = paper_figures.figure_points(fig3, *paper_runs.figure_cells(declaration, fig3), measured)
    php, axis2 = points[("soap-php", "quote")][0][1], points[("soap-axis2", "quote")][0][1]
    assert php["by_round"] == {1: 3806.0, 2: 6396.0}
    paired = [php["by_round"][number] / axis2["by_round"][number] for number in (1, 2)]
    (_, quotient), = paper_figures.ratio_series(fig3, points)[("soap-php", "quote")]
    assert (quotient["low"], quotient["high"]) == (min(paired), max(paired))
    assert quotient["value"] == pytest.approx(sum(paired) / 2)
    alone = {**php, "by_round": {1: 3806.0}}  # one round in common: the widest the ranges allow
    assert paper_figures.ratio(alone, axis2)["low"] == pytest.approx(php["low"] / axis2["high"])


def test_a_ratio_below_a_hundredth_keeps_one_significant_digit():
    assert paper_figures.ratio_text(0.0019, 0.0019) == "0.002×", "gSOAP's bytes a packet against a JVM's"
    assert paper_figures.ratio_text(0.0, 0.0) == "0.00×" and paper_figures.ratio_text(0.281, 0.29) == "0.28–0.29×"
