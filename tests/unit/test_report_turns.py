"""A sweep's turns in its report (harness/report/turns.py): summary.md leads with what a request cost
each app and every pair's ratio, the saturation tables follow, then the capacity each cost predicts;
results.json keeps the pairs, the index counts them and `make compare` sets two runs' side by side. On
run turns-trial (Intel Xeon, a sweep of PHP and the pooled servlet with TURN_CYCLES=2: 6 cycles with
PHP's A/A twin)."""
from harness.report import site, turns
from harness.report.compare import comparison_markdown, comparison_rows
from harness.report.tables import study_figures, summary_markdown, summary_rows
from harness.report.view import View
from harness.results import interleave
from harness.results.store import load_run
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "results"
PHP, POOLED, TWIN = "php/myisam/single", "pooled-servlet/myisam/single", "php/myisam/single (A/A)"


def run_with_turns():
    return load_run(FIXTURES / "turns-trial")


def test_the_turns_group_by_workload_and_engine_in_the_runs_order_of_apps_the_twin_last():
    assert turns.groups(run_with_turns()) == {("single", "myisam"): [PHP, POOLED, TWIN]}, "the run's order of apps"


def test_summary_md_leads_with_the_turns_then_the_saturation_tables_then_the_capacity_lines():
    view = View(run_with_turns())
    text = summary_markdown(view, summary_rows(view, study_figures()))
    costs, figures = text.index("## What a request costs each app"), text.index("## The saturation figures")
    table, capacity = text.index("| PHP (Apache + mod_php) |"), text.index("## The cost by turns against the saturation figure")
    assert costs < figures < table < capacity
    rows = view.run.turns
    ratio = interleave.interleaved_ratio(rows, PHP, POOLED)
    assert f"| {PHP} | {POOLED} | {ratio.estimate:.2f} | [{ratio.low:.2f}, {ratio.high:.2f}] | " in text
    twin = interleave.interleaved_ratio(rows, PHP, TWIN)
    assert f"The A/A control reads {twin.estimate:.2f} [{twin.low:.2f}, {twin.high:.2f}]" in text
    php = interleave.cost(rows, PHP)[0]
    figure = view.cells[next(key for key in view.cells if str(key) == PHP)].median.estimate
    assert (f"- {PHP}: 1 CPU over {php:.3f} ms a reply predicts {1000 / php:,.0f} req/s; the run's figure is "
            f"{figure:,.0f}, {figure * php / 1000:.2f}× that") in text
    assert TWIN + ":" not in text[capacity:], "the twin is a control, not a cell with a figure"
    assert "open loop as under wrk's closed loop" in text[capacity:], "the cost's arrival pattern beside the figure"


def test_a_run_without_turns_has_none_of_it():
    view = View(load_run(FIXTURES / "cost-b"))
    text = summary_markdown(view, summary_rows(view, study_figures()))
    assert "What a request costs" not in text and "## The saturation figures" not in text
    assert turns.capacity_section(view) == [] and site.results_document(view, summary_rows(view, study_figures()))["pairs"] == []


def test_results_json_keeps_every_pair_and_the_index_counts_the_decided_ones():
    view = View(run_with_turns())
    document = site.results_document(view, summary_rows(view, study_figures()))
    pairs = {(pair["a"], pair["b"]): pair for pair in document["pairs"]}
    assert set(pairs) == {(PHP, POOLED), (PHP, TWIN)}
    ratio = interleave.interleaved_ratio(view.run.turns, PHP, POOLED)
    assert (pairs[(PHP, POOLED)]["ratio"], pairs[(PHP, POOLED)]["low"]) == (ratio.estimate, ratio.low)
    assert pairs[(PHP, POOLED)]["cycles"] == 6 and pairs[(PHP, POOLED)]["decided"] == ratio.excludes(1)
    assert site.decided_text(document["pairs"]) == f"1/1 decided, ±{ratio.half_width:.0%}", "the twin apart"
    assert site.decided_text([]) == ""
    entry = site.run_entry("turns-trial", view.manifest.data, document, True)
    assert entry["turns"] == site.decided_text(document["pairs"])
    assert entry["pairs"][f"{POOLED} / {PHP}"] == {"ratio": ratio.estimate, "low": ratio.low, "high": ratio.high}


def test_make_compare_sets_two_runs_pair_ratios_side_by_side():
    run = run_with_turns()
    lines = turns.side_by_side_lines(run, run)
    ratio = interleave.interleaved_ratio(run.turns, PHP, POOLED)
    shown = f"{ratio.estimate:.2f} [{ratio.low:.2f}, {ratio.high:.2f}]"
    assert f"| {PHP} | {POOLED} | {shown} | {shown} | 1.00 | yes |" in lines
    assert "## Every pair's cost ratio by turns" in comparison_markdown(run, run, comparison_rows(run, run))
    assert turns.side_by_side_lines(run, load_run(FIXTURES / "cost-b")) == [], "the other run took no turns"
