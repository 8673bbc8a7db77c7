"""What the report shows, computed from a real recorded sweep run (tests/fixtures/results)."""
import json

import pytest

import report
from stack.settings import ROOT

FIXTURE = next((ROOT / "tests" / "fixtures" / "results").iterdir())


@pytest.fixture(scope="module")
def run():
    return report.load_run(FIXTURE)


@pytest.fixture(scope="module")
def rows(run):
    return report.summary_rows(run, report.study_figures(report.read_tsv(report.STUDY_FILE)))


def test_the_run_holds_every_cell_of_the_matrix(run):
    assert run.apps == ["php", "servlet", "pooled-servlet", "soap"]
    assert run.present("engines") == ["myisam", "innodb"] and run.present("workloads") == ["single", "large"]
    assert len(run.steps) == 16 and all(run.steps.values())


def test_points_split_client_bound_steps_from_judged_ones_in_order_of_offered_rate():
    steps = [{"offered_rate": "300", "reply_rate": "250", "response_time_ms": "40", "transfer_time_ms": "1",
              "verdict": "fail", "raw": "raw/step-02-rate-300.txt"},
             {"offered_rate": "100", "reply_rate": "100", "response_time_ms": "2", "transfer_time_ms": "0.5",
              "verdict": "pass", "raw": "raw/step-01-rate-100.txt"},
             {"offered_rate": "900", "reply_rate": "700", "response_time_ms": "9", "transfer_time_ms": "0",
              "verdict": "invalid", "raw": "raw/step-03-rate-900.txt"},
             {"offered_rate": "950", "reply_rate": "", "verdict": "invalid", "raw": "raw/step-04-rate-950.txt"}]
    judged, client_bound = report.points(steps)
    assert [point[:4] for point in judged] == [(100, 100, 2.5, "pass"), (300, 250, 41, "fail")]
    assert [point[0] for point in client_bound] == [900]


def test_each_plotted_point_names_the_raw_httperf_output_it_comes_from(run):
    for (app, engine, workload), steps in run.steps.items():
        row = next(row for row in run.saturation if (row["app"], row["engine"], row["workload"]) == (app, engine, workload))
        blocks = report.series_text(row, steps).split("\n\n\n")
        assert len(blocks) == 3
        for line in "\n".join(blocks).splitlines():
            if line.startswith("#") or line.startswith("NaN"):
                continue
            raw = line.split("\t")[4]
            assert (FIXTURE / "cells" / f"{app}-{engine}-{workload}" / raw).is_file()


def test_the_saturation_point_is_the_passing_step_the_sweep_reported(run):
    for row in run.saturation:
        point = report.saturation_point(row, run.steps[(row["app"], row["engine"], row["workload"])])
        if row.get("saturation_rps"):
            assert point[3] == "pass" and point[1] == pytest.approx(float(row["saturation_rps"]), abs=0.01)
        else:
            assert point is None


def test_summary_rows_carry_the_sweep_figures_the_2006_figures_and_the_ratio_to_the_fastest(run, rows):
    assert len(rows) == 16
    assert [(row["workload"], row["engine"]) for row in rows[::4]] == [
        ("single", "myisam"), ("single", "innodb"), ("large", "myisam"), ("large", "innodb")]
    saturation = {(row["app"], row["engine"], row["workload"]): row for row in run.saturation}
    for row in rows:
        source = saturation[(row["app"], row["engine"], row["workload"])]
        assert row["saturation_rps"] == source["saturation_rps"] and row["status"] == source["status"]
        assert row["lower_bound"] == int(source["status"] in ("client-bound", "plan-limit"))
    for group in (rows[index:index + 4] for index in range(0, 16, 4)):
        fastest = max(group, key=lambda row: float(row["saturation_rps"] or 0))
        assert fastest["ratio_to_fastest"] == 1.0
        for row in group:
            assert row["ratio_to_fastest"] == round(float(row["saturation_rps"]) / float(fastest["saturation_rps"]), 2)
    php_single_myisam = rows[0]
    assert (php_single_myisam["app"], php_single_myisam["study_2006_rps"]) == ("php", "480")
    assert php_single_myisam["study_2006_reply_ms_low"] == "10.3"
    assert rows[-1]["study_2006_rps"] == "-"


def test_server_cpu_is_a_share_of_one_core_over_the_step(run, rows):
    duration = json.loads((FIXTURE / "manifest.json").read_text())["options"]["duration_s"]
    source = next(row for row in run.saturation if (row["app"], row["engine"], row["workload"]) == ("php", "myisam", "single"))
    assert rows[0]["server_cpu_pct_saturation"] == round(100 * float(source["server_cpu_s_saturation"]) / duration)


def test_lower_bounds_read_as_lower_bounds_everywhere(run):
    # The recorded run located every cell; mark one client-bound, as a faster server would be.
    saturation = [dict(row) for row in run.saturation]
    key = ("pooled-servlet", "myisam", "single")
    next(row for row in saturation if (row["app"], row["engine"], row["workload"]) == key).update(
        status="client-bound", overload_offered="")
    bounded = report.Run(run.directory, run.manifest, saturation, run.steps)
    rows = report.summary_rows(bounded, {})
    bound = next(row for row in rows if (row["app"], row["engine"], row["workload"]) == key)
    assert bound["lower_bound"] == 1 and report.throughput_text(bound).startswith(">= ")
    markdown = report.summary_markdown(bounded, rows)
    assert f"| {report.throughput_text(bound)} |" in markdown
    assert markdown.count("\n## ") == 4
    located, bounds, _ = report.bars_text(bounded, rows, bound["workload"]).split("\n\n\n")
    assert [line.split("\t")[3] for line in bounds.splitlines()] == [report.throughput_text(bound)]
    assert report.throughput_text(bound) not in located


def test_bars_group_the_apps_by_engine_in_registry_order(run, rows):
    located, bounds, groups = report.bars_text(run, rows, "single").split("\n\n\n")
    xs = sorted(float(line.split("\t")[0]) for line in (located + "\n" + bounds).splitlines()
                if not line.startswith("NaN"))
    assert xs == [0, 1, 2, 3, 5, 6, 7, 8]
    assert groups.splitlines() == ["1.5\tMyISAM", "6.5\tInnoDB"]
    colours = {int(line.split("\t")[0]): int(line.split("\t")[2]) for line in (located + "\n" + bounds).splitlines()
               if not line.startswith("NaN")}
    assert colours[0] == colours[5] == int(run.colour("php")[1:], 16)
    assert len({colours[x] for x in (0, 1, 2, 3)}) == 4


def test_log_scales_only_where_a_range_spans_decades():
    assert report.spans_decades([2, 30]) and not report.spans_decades([500, 4000])
    assert not report.spans_decades([None, 0])


def test_the_latest_run_is_the_one_started_last(tmp_path):
    for name, started in (("b", "2026-01-02"), ("a", "2026-01-03")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "manifest.json").write_text(json.dumps({"started": started}))
    assert report.latest_run(tmp_path).name == "a"
    with pytest.raises(report.ReportError, match="make saturation-sweep"):
        report.latest_run(tmp_path / "b")
