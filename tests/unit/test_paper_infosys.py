"""The Infosys paper under its own procedure (`make reproduce PAPER=infosys`): a soap-phases figure's
declaration is checked, its run is shared by the figures of one experiment, and a recorded run of
phase 1 (three warm-up calls and three recorded per size, 1,000-5,000 Employee records, every SOAP
engine, Intel Xeon) becomes points (each the mean of its three calls), the paper's ratios beside
ours, and a PDF page per figure."""
import json
import shutil

import pytest

from harness.report import paper_declaration, paper_figures, paper_markdown, paper_phases
from harness.report.paper_declaration import figure_by_id
from harness.results.chosen import Refused
from harness.results.store import read_tsv
from harness.run import paper_runs
from stack.settings import ROOT
from tests.recorded_papers import drawn

RECORDED = ROOT / "tests" / "fixtures" / "reproduce-infosys"


def infosys():
    return paper_runs.read_paper("infosys")


def test_phase_1_runs_the_papers_procedure_and_its_figures_share_one_run():
    declaration, _ = infosys()
    args = paper_runs.figure_args(declaration, figure_by_id(declaration, "2"))
    assert (args.kinds, args.sizes, args.count, args.warmup_calls, args.jvm_warmup) == (
        "employees", "1000,2000,3000,4000,5000", 3, 3, 0.0)
    folders = {each["id"]: paper_declaration.shared_folder(declaration, each)
               for each in declaration["figures"] if paper_runs.is_phases(declaration, each)}
    assert folders == {"2": "fig-2", "3": "fig-2", "4": "fig-2", "4z": "fig-4z", "4s": "fig-4s"}
    steady = paper_runs.figure_args(declaration, figure_by_id(declaration, "4s"))
    assert (steady.count, steady.warmup_calls, steady.jvm_warmup) == (20, None, 60.0)
    stock = paper_runs.figure_args(declaration, figure_by_id(declaration, "4z"))
    assert (stock.client, args.client) == ("zeep", "raw"), "Fig. 4z's calls are a stock client's, phase 1's raw"
    assert (stock.count, stock.warmup_calls, stock.sizes) == (args.count, args.warmup_calls, args.sizes)


def test_a_recorded_run_is_not_run_again(tmp_path):
    declaration, _ = infosys()
    shutil.copytree(RECORDED, tmp_path / "run")
    steps, _ = paper_runs.plan(declaration, declaration["figures"], 1, tmp_path / "run")
    assert [(each["id"], apps) for _, each, apps in steps] == [
        ("4z", None), ("4s", None), ("phase-2", ["soap", "soap-php", "soap-php-lighttpd", "soap-cxf", "soap-axis2", "soap-gsoap"])]


@pytest.mark.parametrize("change, named", [
    (lambda f: f.pop("measure"), "its measure one of"),
    (lambda f: f.update(x="app"), "drawn against items"),
    (lambda f: f.update(verb="profile"), "verb: 'profile' is none of"),
    (lambda f: f.update(verb="concurrency-sweep"), "only a soap-phases figure names them"),
    (lambda f: f.update(kind="ints"), "kind: 'ints' is not among the kinds its experiment runs"),
])
def test_a_wrong_phases_figure_is_named(change, named):
    declaration, _ = infosys()
    declaration = json.loads(json.dumps(declaration))
    change(declaration["figures"][0])
    with pytest.raises(Refused, match=named):
        paper_declaration.checked(declaration, "infosys.json")


def recorded_points(figure_id):
    declaration, values = infosys()
    calls = read_tsv(RECORDED / "round-1" / "fig-2" / "soap-phases-calls.tsv")
    return declaration, values, paper_phases.phase_points(figure_by_id(declaration, figure_id), [(1, calls)])


def test_a_point_is_the_mean_of_its_three_recorded_calls_its_interval_their_range():
    _, _, points = recorded_points("4")
    assert len(points) == 6 and all(len(series) == 5 for series in points.values())
    calls = [float(row["round_trip_us"]) / 1000 for row in read_tsv(RECORDED / "round-1" / "fig-2" / "soap-phases-calls.tsv")
             if row["app"] == "soap-gsoap" and row["n"] == "5000"]
    assert len(calls) == 3
    n, gsoap = points[("soap-gsoap", "employees")][-1]
    assert n == 5000 and gsoap["value"] == pytest.approx(sum(calls) / 3)
    assert (gsoap["low"], gsoap["high"], gsoap["rounds"]) == (min(calls), max(calls), 1)


def test_a_point_whose_calls_other_work_disturbed_is_flagged():
    declaration, _ = infosys()
    calls = read_tsv(RECORDED / "round-1" / "fig-2" / "soap-phases-calls.tsv")
    assert not any(point["flags"] for series in recorded_points("4")[2].values() for _, point in series)
    for row in calls:
        if row["app"] == "soap-gsoap" and row["n"] == "5000":
            row["disturbed"] = "other processes used 40.0 % of a CPU (> 5 %)"
    points = paper_phases.phase_points(figure_by_id(declaration, "4"), [(1, calls)])
    flagged = {(app, n) for (app, _), series in points.items() for n, point in series if point["flags"]}
    assert flagged == {("soap-gsoap", 5000)}
    assert dict(points[("soap-gsoap", "employees")])[5000]["flags"] == ["disturbed"]


def test_the_papers_ratios_are_set_beside_ours_or_named_as_not_here():
    declaration, values, points = recorded_points("4")
    verdicts = {row["comparison"]: row for row in paper_figures.verdict_rows(figure_by_id(declaration, "4"), values, points)}
    assert verdicts["Axis 1.4 / Axis2 with JibX"]["verdict"] == "cannot be had here: no engine here is Axis2 with JibX"
    derived = verdicts["Axis 1.4 / XFire with JaxB"]
    assert derived["apps"] == "soap / soap-cxf" and derived["paper"] == "1.80×" and "over 5 points" in derived["ours"]
    assert derived["source"] == "derived: 4.37 / 2.43 (line 62)"


def test_a_verdict_on_raw_envelopes_names_the_stock_clients_it_is_set_against():
    declaration, values, points = recorded_points("4")
    derived = next(row for row in paper_figures.verdict_rows(figure_by_id(declaration, "4"), values, points)
                   if row["comparison"] == "Axis 1.4 / XFire with JaxB")
    assert derived["verdict"].endswith("(not like for like in measure and client)")
    sides = paper_figures.sides_text(figure_by_id(declaration, "4")["sides"])
    assert "Measure: the paper, round trip: the client invoking the service" in sides
    assert "Client: the paper, its stock clients" in sides and "ours, raw envelopes" in sides
    through_zeep = paper_declaration.unlike(figure_by_id(declaration, "4z")["sides"])
    assert [field for field, _, _ in through_zeep] == ["client"], "Fig. 4z differs from the paper in its client alone"


def test_reproduce_draws_the_phase_figures_from_a_recorded_run(tmp_path):
    pages, markdown = drawn("infosys", RECORDED, tmp_path)
    assert pages == 3, "Figs. 2, 3 and 4 from the one run; 4s and phase 2 not recorded"
    assert "| series | x | marshalling time (ms) |" in markdown and "## Fig. 4s" not in markdown
    assert "each interval is the range of that round's recorded calls" in markdown and "Intel" in markdown
    # Every block of a page's data holds a line: gnuplot's `index` skips one that holds none.
    data = (tmp_path / "recorded" / "plots" / "data" / "fig-4.tsv").read_text().rstrip("\n").split("\n\n\n")
    assert len(data) == 3 * 6 and all(block.strip() and not block.startswith("#") for block in data)


def test_the_speed_canary_stands_beside_the_machine():
    readings = {"canary_cpu0_before_ms": 3.51, "canary_cpu0_after_ms": 3.6, "canary_busy": 0}
    assert paper_markdown.canary_text(readings) == ", the speed canary (ms) cpu0 before 3.51, cpu0 after 3.6"
    assert paper_markdown.canary_text({"canary_busy": 2}) == "" and paper_markdown.canary_text(None) == ""
