"""A sweep's turns in its report (harness/report/turns.py): summary.md leads with what a request cost
each app and every pair's ratio, the saturation tables follow, then the capacity each cost predicts;
results.json keeps the pairs, the index counts them and `make compare` sets two runs' side by side. On
run turns-trial (Intel Xeon, a sweep of PHP and the pooled servlet with TURN_CYCLES=2: 6 cycles with
PHP's A/A twin)."""
import csv
from dataclasses import replace

import pytest

from harness.report import compare, site, turns
from harness.report.compare import comparison_markdown, comparison_rows
from harness.report.costs import price_moves
from harness.report.tables import study_figures, summary_markdown, summary_rows
from harness.report.view import View
from harness.results import interleave
from harness.results.manifest import Manifest
from harness.results.prices import run_prices
from harness.results.store import load_run
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "results"
PHP, POOLED, TWIN = "php/myisam/single", "pooled-servlet/myisam/single", "php/myisam/single (A/A)"


def run_with_turns():
    return load_run(FIXTURES / "turns-trial")


def test_the_turns_group_by_workload_and_engine_in_the_runs_order_of_apps_the_twin_last():
    assert turns.groups(run_with_turns()) == {("apps", "single", "myisam"): [PHP, POOLED, TWIN]}, "the run's order of apps"


def engines_by_turns():
    """turns-trial's rows as if its pooled servlet's cell were PHP's on InnoDB, taken in an engines
    group (TURN_PAIRS=engines), beside the same rows in their apps' group: a cell of both groups."""
    run = run_with_turns()
    relabeled = [{**row, "cell": row["cell"].replace(POOLED, "php/innodb/single"), "group": "engines:single/php"}
                 for row in run.turns]
    return replace(run, turns=[{**row, "group": "apps:single/myisam"} for row in run.turns] + relabeled)


def test_an_apps_engines_by_turns_are_a_group_of_their_own_headed_by_the_app_and_its_engines():
    run = engines_by_turns()
    assert turns.groups(run) == {("apps", "single", "myisam"): [PHP, POOLED, TWIN],
                                 ("engines", "single", "php"): [PHP, "php/innodb/single", TWIN]}
    text = "\n".join(turns.turn_lines(View(run)))
    assert "### single row by primary key, MyISAM: 6 cycles" in text
    assert "### single row by primary key, php: MyISAM against InnoDB: 6 cycles" in text
    ratios = turns.pair_ratios(run)
    # Each group's pair reads its own rows: the same steps, so the same ratio, and PHP's twin in each.
    assert ratios[(PHP, "php/innodb/single")].estimate == ratios[(PHP, POOLED)].estimate
    assert "All 2 groups together" in text
    # The capacity lines are the apps' groups' alone: each cell once.
    capacity = "\n".join(turns.capacity_section(View(run)))
    assert "MyISAM against InnoDB" not in capacity and "single row by primary key, MyISAM:" in capacity


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


def test_a_pair_is_decided_after_holms_correction_over_its_family_of_tables():
    """The kept run writes-study4-epyc-20261204 (AMD EPYC; TURN_PAIRS=both): 24 pairs of the ways of
    serving, 8 of the engines. docs/results.md published the engines' Holm's p computed apart from the
    report (scipy's paired t on the cycles' log ratios); the report now gives them itself. The servlet's
    engines on mixed-10 read 1.18 [1.02, 1.37]: decided alone, not among 8."""
    run = load_run(ROOT / "reference-runs" / "writes-study4-epyc-20261204")
    judged = turns.judged_ratios(run)
    engines = [pair for pair in judged if pair[0].split("/")[0] == pair[1].split("/")[0]]
    assert len(judged) == 32 and len(engines) == 8
    servlet = judged[("servlet/myisam/mixed-10", "servlet/innodb/mixed-10")]
    assert servlet.ratio.excludes(1) and not servlet.decided
    assert servlet.p == pytest.approx(0.0998, abs=5e-4), "published as p 0.10"
    assert servlet.p == pytest.approx(min(1, 3 * servlet.ratio.p_value)), "third smallest of the 8"
    php = judged[("php/myisam/update", "php/innodb/update")]
    assert php.decided and php.p == pytest.approx(0.0143, abs=5e-4), "published as p 0.014"
    soap = judged[("servlet/innodb/mixed-10", "soap/innodb/mixed-10")]
    assert not soap.decided and soap.p == pytest.approx(0.1019, abs=5e-4), "the largest of the 24: its own p"
    text = "\n".join(turns.turn_lines(View(run)))
    assert "| no, p 0.100 |" in text and "Holm's correction" in text
    document = {(pair["a"], pair["b"]): pair for pair in site.results_document(View(run), [])["pairs"]}
    assert document[("servlet/myisam/mixed-10", "servlet/innodb/mixed-10")]["decided"] is False
    assert sum(pair["decided"] for pair in document.values()) == 28, "4 of the 32 not resolved"


def test_make_compare_sets_two_runs_pair_ratios_side_by_side():
    run = run_with_turns()
    lines = turns.side_by_side_lines(run, run)
    ratio = interleave.interleaved_ratio(run.turns, PHP, POOLED)
    shown = f"{ratio.estimate:.2f} [{ratio.low:.2f}, {ratio.high:.2f}]"
    assert f"| {PHP} | {POOLED} | {shown} | {shown} | 1.00 | yes |" in lines
    assert "## Every pair's cost ratio by turns" in comparison_markdown(run, run, comparison_rows(run, run))
    assert turns.side_by_side_lines(run, load_run(FIXTURES / "cost-b")) == [], "the other run took no turns"


def read_rows(path):
    with open(path, newline="") as tsv:
        return list(csv.DictReader(tsv, delimiter="\t"))


def test_a_pair_that_moved_between_runs_names_the_cell_that_moved_and_the_prices_that_moved_with_it():
    """Two runs on one Intel Xeon VM: PHP over the pooled servlet on InnoDB single rows moved 0.83x,
    the pooled servlet's user time carrying it."""
    recorded = FIXTURES / "pair-moves-xeon"
    first, second = (read_rows(recorded / f"{run}-turns.tsv") for run in ("default", "fit"))
    pair = ("php/innodb/single", "pooled-servlet/innodb/single")
    moved = interleave.interleaved_ratio(second, *pair).estimate / interleave.interleaved_ratio(first, *pair).estimate
    at_turns = price_moves(turns.turn_prices(first), turns.turn_prices(second))
    line = turns.pair_move_line(pair, first, second, at_turns)
    assert f"the ratio moved {moved:.2f}x" in line
    assert "pooled-servlet/innodb/single moved more (offered 1,500 and 1,629 req/s), in its user time" in line
    # At these turns the canary ran 0.90x and the kernel's prices fell too (a TCP connection 0.74x): only
    # the user time's price is named.
    assert dict(at_turns)["a loopback TCP connection"] < 0.9
    assert line.endswith("prices of its user time that moved with it: the speed canary's rep 0.90x")
    # The rounds' lists read memory bandwidth 0.73x as dear: named beside the canary when set against it.
    rounds_first, rounds_second = (run_prices(read_rows(recorded / f"{run}-prices.tsv")) for run in ("default", "fit"))
    assert "memory bandwidth 0.73x" in turns.pair_move_line(pair, first, second, price_moves(rounds_first, rounds_second))
    # A price that moved the other way explains nothing.
    assert turns.pair_move_line(pair, first, second, price_moves(rounds_second, rounds_first)).endswith(
        "no price of its user time moved with it: the move is pooled-servlet/innodb/single's own")


def test_make_compare_says_whether_one_boot_of_one_machine_ran_both_runs():
    run = run_with_turns()
    assert "Intel(R) Xeon(R) Processor, 2 cores, canary" in compare.machines_line(run, run)
    assert compare.machines_line(run, run).endswith("not recorded (a run from before the boot id).")

    def booted(boot_id):
        host = {**run.manifest.host, "boot_id": boot_id, "booted_at": "2026-11-29T15:39:31+00:00"}
        return replace(run, manifest=Manifest({**run.manifest.data, "host": host}))
    this_boot = booted("07552f92-b494-4bea-b37f-8de0beec0e02")
    assert "boot 07552f92 (up since 2026-11-29T15:39:31+00:00)" in compare.machine_text(this_boot)
    assert "one boot of one machine ran both" in compare.machines_line(this_boot, this_boot)
    assert "two boots" in compare.machines_line(this_boot, booted("c0ffee00-0000-4000-8000-000000000000"))
