"""What the report shows, computed from a real recorded sweep run (tests/fixtures/results/full6)."""
import dataclasses
import json

import pytest

from harness.report import comparisons, series, tables
from harness.report.view import View
from harness.results.records import CellKey, Step
from harness.results.store import ResultsError, latest_run, load_run
from stack import registry
from stack.settings import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "results" / "full6"


@pytest.fixture(scope="module")
def view():
    return View(load_run(FIXTURE))


@pytest.fixture(scope="module")
def rows(view):
    return tables.summary_rows(view, tables.study_figures())


def test_the_run_holds_every_cell_of_the_matrix(view):
    assert view.apps == ["php", "servlet", "pooled-servlet", "soap"]
    assert view.present("engines") == ["myisam", "innodb"] and view.present("workloads") == ["single", "large"]
    assert len(view.run.steps) == 16 and all(view.run.steps.values())
    assert view.manifest.format_version == 1


def step(offered, reply, verdict, response=None, transfer=None, raw=""):
    figures = {name: value for name, value in (("reply_rate", reply), ("response_time_ms", response),
                                               ("transfer_time_ms", transfer)) if value is not None}
    return Step(step=1, offered_rate=offered, timeout_s=2, num_conns=10, verdict=verdict, reason="", raw=raw,
                figures=figures)


def test_points_split_client_bound_steps_from_judged_ones_in_order_of_offered_rate():
    steps = [step(300, 250, "fail", 40, 1, "raw/step-02-rate-300.txt"),
             step(100, 100, "pass", 2, 0.5, "raw/step-01-rate-100.txt"),
             step(900, 700, "invalid", 9, 0, "raw/step-03-rate-900.txt"),
             step(950, None, "invalid", raw="raw/step-04-rate-950.txt")]
    judged, client_bound = series.points(steps)
    assert [point[:4] for point in judged] == [(100, 100, 2.5, "pass"), (300, 250, 41, "fail")]
    assert [point[0] for point in client_bound] == [900]


def test_each_plotted_point_names_the_raw_httperf_output_it_comes_from(view):
    for visit, steps in view.run.steps.items():
        key = visit.key
        blocks = series.series_text(view.summaries[key], steps).split("\n\n\n")
        assert len(blocks) == 3
        named = [line.split("\t")[4] for line in "\n".join(blocks).splitlines()
                 if not line.startswith("#") and not line.startswith("NaN")]
        assert len(named) >= len(steps) - 1
        for raw in named:
            assert (FIXTURE / "cells" / key.name / raw).is_file()


def test_the_saturation_point_is_the_passing_step_the_sweep_reported(view):
    for summary in view.run.saturation:
        point = series.saturation_point(summary, view.run.steps[summary.visit])
        assert point[3] == "pass" and point[1] == pytest.approx(summary.saturation_rps, abs=0.01)


def test_summary_rows_carry_the_sweep_figures_the_2006_figures_and_the_ratio_to_the_fastest(view, rows):
    assert len(rows) == 16
    assert [(row["workload"], row["engine"]) for row in rows[::4]] == [
        ("single", "myisam"), ("single", "innodb"), ("large", "myisam"), ("large", "innodb")]
    for row in rows:
        source = view.summaries[CellKey(row["app"], row["engine"], row["workload"])]
        assert float(row["saturation_rps"]) == source.saturation_rps and row["status"] == source.status
        assert row["lower_bound"] == 0
    for group in (rows[index:index + 4] for index in range(0, 16, 4)):
        fastest = max(group, key=lambda row: float(row["saturation_rps"]))
        assert fastest["ratio_to_fastest"] == 1.0
        for row in group:
            assert row["ratio_to_fastest"] == round(float(row["saturation_rps"]) / float(fastest["saturation_rps"]), 2)
    php_single_myisam = rows[0]
    assert (php_single_myisam["app"], php_single_myisam["saturation_rps"]) == ("php", "1566.0")
    assert (php_single_myisam["study_2006_rps"], php_single_myisam["study_2006_response_ms_low"]) == ("480", "10.3")
    assert rows[-1]["study_2006_rps"] == "-"


def test_server_cpu_is_a_share_of_one_core_over_the_step(rows):
    # php/myisam/single: 5.14 CPU seconds over a 6 s step.
    assert rows[0]["server_cpu_pct_saturation"] == 86


def test_lower_bounds_read_as_lower_bounds_everywhere(view):
    # The recorded run located every cell; mark one client-bound, as a faster server would be.
    key = CellKey("pooled-servlet", "myisam", "single")
    saturation = [dataclasses.replace(row, status="client-bound", overload_offered=None) if row.key == key
                  else row for row in view.run.saturation]
    bounded = View(dataclasses.replace(view.run, saturation=saturation))
    rows = tables.summary_rows(bounded, {})
    bound = next(row for row in rows if (row["app"], row["engine"], row["workload"]) == (key.app, key.engine, key.workload))
    assert bound["lower_bound"] == 1 and series.throughput_text(bound) == ">= 4,688.1"
    markdown = tables.summary_markdown(bounded, rows)
    assert f"| {series.throughput_text(bound)} |" in markdown
    assert markdown.count("\n## ") == 4
    assert f"precision {bounded.manifest.options['precision']:.0%}.\n" in markdown and "DB_SCHEMA" not in markdown, \
        "the default tables need no word"
    located, bounds, _ = series.bars_text(bounded, rows, bound["workload"]).split("\n\n\n")
    assert [line.split("\t")[3] for line in bounds.splitlines()] == [series.throughput_text(bound)]
    assert series.throughput_text(bound) not in located


def test_reply_times_show_httperfs_response_and_transfer_and_the_study_s_response_beside_ours(view):
    # full6's saturation.tsv predates the parts: summarize its recorded steps again, as a sweep does now.
    from harness.results.saturation import summarize
    saturation = [summarize(row.key, view.run.steps[row.visit], row.restarts) for row in view.run.saturation]
    resummarized = View(dataclasses.replace(view.run, saturation=saturation))
    rows = tables.summary_rows(resummarized, tables.study_figures())
    php = next(row for row in rows if (row["app"], row["engine"], row["workload"]) == ("php", "myisam", "single"))
    php_steps = view.run.steps[next(row.visit for row in saturation if row.key == CellKey("php", "myisam", "single"))]
    lowest = min((step for step in php_steps if step.verdict == "pass"), key=lambda step: step.offered_rate)
    assert (php["response_ms_low"], php["transfer_ms_low"]) == (str(lowest.response_ms), str(lowest.transfer_ms))
    large = next(row for row in rows if (row["app"], row["engine"], row["workload"]) == ("php", "myisam", "large"))
    assert float(large["transfer_ms_low"]) > 0, "a 16,000-row page takes time to transfer"
    markdown = tables.summary_markdown(resummarized, rows)
    assert (f"| {php['response_ms_low']} / 10.3 | {php['reply_ms_low']} ({php['response_ms_low']} + "
            f"{php['transfer_ms_low']}) |") in markdown
    assert tables.reply_parts_text({**php, "response_ms_low": "", "transfer_ms_low": ""}, "low") == php["reply_ms_low"]
    text = series.series_text(next(row for row in saturation if row.key == CellKey("php", "myisam", "single")), php_steps)
    plotted = [line.split("\t") for line in text.splitlines()[1:] if not line.startswith("NaN") and line]
    assert all(float(columns[7]) <= float(columns[2]) for columns in plotted), "the response is part of the reply time"


def test_bars_group_the_apps_by_engine_in_registry_order(view, rows):
    located, bounds, groups = series.bars_text(view, rows, "single").split("\n\n\n")
    xs = sorted(float(line.split("\t")[0]) for line in (located + "\n" + bounds).splitlines()
                if not line.startswith("NaN"))
    assert xs == [0, 1, 2, 3, 5, 6, 7, 8]
    assert groups.splitlines() == ["1.5\tMyISAM", "6.5\tInnoDB"]
    colours = {int(line.split("\t")[0]): int(line.split("\t")[2]) for line in (located + "\n" + bounds).splitlines()
               if not line.startswith("NaN")}
    assert colours[0] == colours[5] == int(view.colour("php")[1:], 16)
    assert len({colours[x] for x in (0, 1, 2, 3)}) == 4


def test_log_scales_only_where_a_range_spans_decades():
    assert series.spans_decades([2, 30]) and not series.spans_decades([500, 4000])
    assert not series.spans_decades([None, 0])


def test_the_latest_run_is_the_one_started_last(tmp_path):
    for name, started in (("b", "2026-01-02"), ("a", "2026-01-03")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "manifest.json").write_text(json.dumps({"started": started}))
    assert latest_run(tmp_path).name == "a"
    with pytest.raises(ResultsError, match="make saturation-sweep"):
        latest_run(tmp_path / "b")


def summary_row(app, engine, figure, lower_bound=0, workload="single"):
    return {"workload": workload, "engine": engine, "app": app, "saturation_rps": figure, "lower_bound": lower_bound}


def test_an_app_s_figure_is_set_against_its_own_server_s_baselines():
    references = {("php", "baselines"): {"constant": "constant-php", "static": "static-apache"},
                  ("servlet", "baselines"): {"constant": "constant-servlet", "static": "static-tomcat"},
                  ("soap-php", "soap_baselines"): {"constant": "canned-quote-php", "static": "static-quote-apache"}}
    rows = [summary_row("php", "myisam", "1500"), summary_row("servlet", "innodb", "1200"),
            summary_row("php", "myisam", "20", workload="large"),
            summary_row("constant-php", "none", "3000"), summary_row("static-apache", "none", "10000", lower_bound=1),
            summary_row("constant-servlet", "none", "8000"),
            summary_row("soap-php", "none", "3000", workload="quote"), summary_row("soap-php", "none", "600", workload="echo-100"),
            summary_row("canned-quote-php", "none", "4000", workload="quote"),
            summary_row("static-quote-apache", "none", "12000", workload="quote")]
    fractions = {(row["workload"], row["app"]): (row["constant_baseline_fraction"], row["static_baseline_fraction"])
                 for row in tables.with_baseline_fractions(
                     rows, lambda app, family="baselines": references.get((app, family), {}))}
    assert fractions[("single", "php")] == ("0.50", "<= 0.15")  # the static file outran the client
    assert fractions[("single", "servlet")] == ("0.15", "")  # no static Tomcat cell in this run
    assert fractions[("large", "php")] == ("", "")  # baselines serve the single-row page only
    assert fractions[("single", "constant-php")] == ("", "")
    # A SOAP engine's echo and quote cells against its server's engine-less getQuote.
    assert fractions[("quote", "soap-php")] == ("0.75", "0.25")
    assert fractions[("echo-100", "soap-php")] == ("0.15", "0.05")
    assert fractions[("quote", "canned-quote-php")] == ("", "")


def test_a_fraction_of_two_lower_bounds_says_it_is_only_approximate():
    def fraction(row, reference):
        return series.ratio_text(row, reference, suffix="", missing="")
    assert fraction(summary_row("a", "myisam", "900", 1), summary_row("b", "none", "1800", 1)) == "~0.50"
    assert fraction(summary_row("a", "myisam", "900", 1), summary_row("b", "none", "1800")) == ">= 0.50"
    assert fraction(summary_row("a", "myisam", ""), summary_row("b", "none", "1800")) == ""


def test_the_pooling_table_answers_the_study_s_question_from_a_recorded_run():
    # Run pool3: SET=pooling WORKLOADS=single ROUNDS=3 (its raw httperf outputs left out of the fixture).
    pooled = View(load_run(ROOT / "tests" / "fixtures" / "results" / "pool3"))
    declared = registry.comparisons()["pooling"]
    lines = comparisons.comparison_lines(pooled, tables.summary_rows(pooled, tables.study_figures()), "pooling", declared)
    assert lines[0] == "## Does pooling close PHP's gap?"
    header, _, *table = [line for line in lines if line.startswith("|")]
    assert header.startswith("| app | single row, MyISAM | single row, InnoDB | single row: of its server's")
    assert [line.split(" | ")[0][2:] for line in table] == [
        "PHP (Apache + mod_php)", "PHP, persistent PDO (Apache + mod_php)",
        "PHP-FPM, persistent PDO (Apache event + FastCGI)", "Pooled servlet (HikariCP)"]
    assert "| 1,569.8 [1,302-1,941 75%] | 1,445.4 [1,394-1,787 75%] |" in table[0]
    assert "| 2,085.6 [1,754-2,199 75%], 1.33x | 1,933.0 [1,868-2,202 75%], 1.34x |" in table[2]
    assert table[3].endswith("| - / - |")  # the run measured no baselines


def test_a_run_without_the_pooling_set_has_no_pooling_table(view, rows):
    assert comparisons.comparison_lines(view, rows, "pooling", registry.comparisons()["pooling"]) == []
