"""The size sweep's report: throughput and reply time against the payload's row count, per app and
engine, and each app's ratio to the set's first app."""
from harness.report import series, sizes


def row(app, count, figure, lower_bound=0, reply_ms_low="", p50="", engine="innodb"):
    return {"workload": f"rows-{count}", "engine": engine, "app": app, "saturation_rps": figure,
            "lower_bound": lower_bound, "reply_ms_low": reply_ms_low, "p50_ms_saturation": p50}


def test_sized_rows_group_by_engine_and_app_in_order_of_count_and_skip_other_workloads():
    rows = [row("soap", 1000, "50"), row("soap", 1, "900"), row("soap-php", 1, "2000"),
            {**row("soap", 1, "1"), "workload": "single"}, row("soap", 10, "800", engine="myisam")]
    grouped = sizes.sized_rows(rows)
    assert list(grouped) == ["innodb", "myisam"]
    assert [(count, r["saturation_rps"]) for count, r in grouped["innodb"]["soap"]] == [(1, "900"), (1000, "50")]
    assert sizes.counts_of(grouped["innodb"]) == [1, 1000]


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
