"""The size sweep's report: throughput and reply time against N, per sized workload (rows-N per
engine, the echoes without one) and app, each app's ratio to the set's first app, and the SOAP
baselines beside the echoes."""
from harness.report import series, sizes
from harness.results.manifest import Manifest


def row(app, count, figure, lower_bound=0, reply_ms_low="", p50="", engine="innodb"):
    return {"workload": f"rows-{count}", "engine": engine, "app": app, "saturation_rps": figure,
            "lower_bound": lower_bound, "reply_ms_low": reply_ms_low, "p50_ms_saturation": p50}


def echo(app, workload, figure, lower_bound=0):
    return {**row(app, 1, figure, lower_bound, reply_ms_low="2", engine="none"), "workload": workload}


def test_sized_rows_group_by_workload_engine_and_app_in_order_of_n_and_skip_other_workloads():
    rows = [row("soap", 1000, "50"), row("soap", 1, "900"), row("soap-php", 1, "2000"),
            {**row("soap", 1, "1"), "workload": "single"}, row("soap", 10, "800", engine="myisam"),
            echo("soap", "echo-10", "300"), echo("soap", "echo-1", "400"), echo("soap", "quote", "500"),
            echo("soap-gsoap", "ints-100", "900")]
    grouped = sizes.sized_rows(rows)
    assert list(grouped) == [("rows", "innodb"), ("rows", "myisam"), ("echo", "none"), ("ints", "none")]
    assert [(count, r["saturation_rps"]) for count, r in grouped[("rows", "innodb")]["soap"]] == [(1, "900"), (1000, "50")]
    assert [count for count, _ in grouped[("echo", "none")]["soap"]] == [1, 10]
    assert sizes.counts_of(grouped[("rows", "innodb")]) == [1, 1000]
    assert sizes.group_title("rows", "innodb", View()) == "the first N rows by id, InnoDB (as recorded)"
    assert sizes.group_title("echo", "none", View()) == "echoStructs of N structs, no database"


class View:
    """What size_lines reads of a run's view: its apps in order, their titles and kinds, its rounds."""
    rounds = 3
    apps = ["soap", "soap-gsoap", "static-quote-gsoap"]
    manifest = type("Manifest", (), {"apps": {"soap": {"kind": "soap"}, "soap-gsoap": {"kind": "soap"},
                                              "static-quote-gsoap": {"kind": "baseline"}}})()

    def title(self, app):
        return app.upper()

    def engine_title(self, engine):
        """As a run's registry titled its engines (one that named InnoDB its own way)."""
        return Manifest.of_registry({"engines": {"innodb": {"title": "InnoDB (as recorded)"}}}).engine_title(engine)


def test_the_echo_table_sets_get_quote_beside_each_n_and_names_the_soap_baselines():
    rows = [echo("soap", "echo-1", "400"), echo("soap", "echo-10", "300"), echo("soap", "quote", "500"),
            echo("soap-gsoap", "echo-1", "1200"), echo("soap-gsoap", "echo-10", "600", lower_bound=1),
            echo("soap-gsoap", "quote", "2000"), echo("static-quote-gsoap", "quote", "4000")]
    lines = sizes.size_lines(View(), rows)
    start = lines.index("### echoStructs of N structs, no database")
    assert lines[start + 2:start + 6] == [
        "| app | N = 1 | N = 10 | getQuote |", "|---|---:|---:|---:|",
        "| SOAP | 400.0 (2 ms) | 300.0 (2 ms) | 500.0 (2 ms) |",
        "| SOAP-GSOAP | 1,200.0 (2 ms) | >= 600.0 (2 ms) | 2,000.0 (2 ms) |"]
    assert "| SOAP-GSOAP | 3.00x | >= 2.00x | 4.00x |" in lines
    assert ("The engine-less SOAP baselines (getQuote's canned answer, no engine; the figure's dashed lines): "
            "STATIC-QUOTE-GSOAP 4,000.0 req/s.") in lines
    assert sizes.reference_levels(View(), rows, "none") == [("static-quote-gsoap", 4000.0)]
    assert sizes.reference_levels(View(), rows, "innodb") == []


def test_a_ratio_is_marked_where_either_figure_is_only_a_lower_bound():
    reference = row("soap", 1, "1000")
    assert series.ratio_text(row("soap-php", 1, "2500"), reference) == "2.50x"
    assert series.ratio_text(row("soap-php", 1, "2500", lower_bound=1), reference) == ">= 2.50x"
    assert series.ratio_text(row("soap-php", 1, "500"), {**reference, "lower_bound": 1}) == "<= 0.50x"
    assert series.ratio_text(row("soap-php", 1, "500", lower_bound=1), {**reference, "lower_bound": 1}) == "~0.50x"
    assert series.ratio_text(row("soap-php", 1, ""), reference) == "-"
    assert series.ratio_text(row("soap-php", 1, "10"), None) == "-"


def test_series_text_holds_a_line_per_measured_count_and_never_an_empty_file():
    points = [(1, row("soap", 1, "900", reply_ms_low="1.5", p50="9")), (10, row("soap", 10, "", reply_ms_low="")),
              (1000, row("soap", 1000, "40.5", lower_bound=1))]
    assert sizes.size_series_text(points).splitlines()[1:] == ["1\t900\t1.5\t9\t0", "1000\t40.5\tNaN\tNaN\t1"]
    assert sizes.size_series_text([]).splitlines()[1:] == ["NaN\tNaN\tNaN\tNaN\t0"]
