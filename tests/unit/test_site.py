"""A run as a person browses it and a script reads it (harness/report/site.py): results.json, valid
against its schema (docs/results.schema.json) for every recorded run, the front page's table and
warnings, a cell's steps linked to their raw outputs, and the index of runs. On the recorded runs of
tests/fixtures/results."""
import json
import shutil
import statistics

import jsonschema
import pytest

from harness.report import compare, html, site
from harness.report.tables import study_figures, summary_rows
from harness.report.view import View
from harness.results.store import RunFiles, load_run
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "results"
RUNS = sorted(path.name for path in FIXTURES.iterdir() if (path / "manifest.json").exists())
SCHEMA = json.loads((ROOT / "docs" / "results.schema.json").read_text())


def view_and_rows(name):
    view = View(load_run(FIXTURES / name))
    return view, summary_rows(view, study_figures())


@pytest.mark.parametrize("name", RUNS)
def test_every_recorded_run_s_results_json_validates_against_its_schema(name):
    view, rows = view_and_rows(name)
    document = json.loads(json.dumps(site.results_document(view, rows)))
    jsonschema.validate(document, SCHEMA, cls=jsonschema.Draft202012Validator)
    assert len(document["cells"]) == len(rows) and document["run_id"] == view.manifest.run_id


def test_results_json_holds_each_cell_s_figure_interval_rounds_and_verdicts():
    view, rows = view_and_rows("cost-b")
    document = site.results_document(view, rows)
    row = rows[0]
    cell = next(cell for cell in document["cells"] if (cell["app"], cell["engine"], cell["workload"])
                == (row["app"], row["engine"], row["workload"]))
    assert cell["saturation_rps"] == float(row["saturation_rps"]) and cell["rounds"] == int(row["rounds"]) > 1
    assert cell["interval"]["low"] <= cell["saturation_rps"] <= cell["interval"]["high"]
    key = next(key for key in view.cells if key.app == row["app"] and key.workload == row["workload"]
               and key.engine == row["engine"])
    steps = [step for _, found in view.measurements(key) for step in found]
    assert sum(cell["verdicts"].values()) == len(steps) and cell["verdicts"]["pass"] >= cell["rounds"]


def test_a_broken_document_is_refused_by_the_schema():
    view, rows = view_and_rows("full6")
    document = json.loads(json.dumps(site.results_document(view, rows)))
    document["cells"][0]["saturation_rps"] = "fast"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(document, SCHEMA, cls=jsonschema.Draft202012Validator)


def test_the_front_page_lists_every_cell_with_its_page_and_the_run_s_warnings():
    view, rows = view_and_rows("cost-b")
    page = site.front_page(view, rows)
    assert [cell["page"] for cell in page["cells"]] == [f"cell-{site.cell_name(row)}.html" for row in rows]
    assert any(warning.startswith("disturbance:") for warning in page["warnings"])
    assert any(warning.startswith("speed canary:") for warning in page["warnings"])
    assert any("machine:" in line for line in page["about"])


def test_a_cell_s_steps_link_to_their_raw_outputs_from_the_report_folder():
    view, rows = view_and_rows("cost-b")
    files = RunFiles(FIXTURES / "cost-b")
    page = site.cell_page(view, rows[0], files, "cell.svg")
    assert len(page["measurements"]) == int(rows[0]["rounds"])
    links = [step["raw"] for measurement in page["measurements"] for step in measurement["steps"]]
    assert links and all((files.directory / "report" / link).resolve().exists() for link in links)
    assert all((files.directory / "report" / source["href"]).resolve().exists() for source in page["sources"])


def test_the_pages_render_with_every_link_inside_the_run(tmp_path):
    shutil.copytree(FIXTURES / "cost-b", tmp_path / "cost-b")
    view, rows = view_and_rows("cost-b")
    view = View(load_run(tmp_path / "cost-b"))
    drawn = []
    front = html.write_run_pages(view, rows, tmp_path / "cost-b",
                                 lambda key, path: (drawn.append(key), path.write_text("<svg/>")))
    text = front.read_text()
    assert "<h1>Saturation sweep cost-b</h1>" in text and len(drawn) == len(rows)
    for row in rows:
        assert f'href="cell-{site.cell_name(row)}.html"' in text
    index = html.write_index(tmp_path)
    assert 'href="cost-b/report/index.html"' in index.read_text()
    readings = json.loads((FIXTURES / "cost-b" / "canary.json").read_text())
    servers = statistics.median(readings["CPU1"])
    assert f"cores, canary {servers:.2f} ms</td>" in index.read_text(), "the canary on the servers' CPU beside the machine"


def test_a_comparison_and_a_run_s_markdown_become_pages_with_their_tables(tmp_path):
    shutil.copytree(FIXTURES / "cost-b", tmp_path / "cost-b")
    (tmp_path / "cost-b" / "summary.md").write_text("# cost-b\n\n| cell | req/s |\n|---|---:|\n| php | 1,575 |\n")
    view, rows = view_and_rows("cost-b")
    front = html.write_run_pages(View(load_run(tmp_path / "cost-b")), rows, tmp_path / "cost-b",
                                 lambda key, path: path.write_text("<svg/>"))
    assert 'href="summary.html"' in front.read_text()
    summary = (tmp_path / "cost-b" / "report" / "summary.html").read_text()
    assert "<td>php</td>" in summary and '<td style="text-align: right;">1,575</td>' in summary
    text = compare.comparison_markdown(load_run(FIXTURES / "cost-a"), load_run(FIXTURES / "cost-b"),
                                       compare.comparison_rows(load_run(FIXTURES / "cost-a"), load_run(FIXTURES / "cost-b")))
    page = html.write_comparison(tmp_path, "cost-a", "cost-b", text).read_text()
    assert "<h1>Run cost-a against run cost-b</h1>" in page and "<table>" in page
    assert 'href="cost-b/report/index.html"' in page and 'href="cost-a/report/index.html"' not in page
    assert 'href="compare-cost-a-cost-b.html"' in html.write_index(tmp_path).read_text()


def test_the_index_of_runs_is_newest_first_with_each_run_s_fastest_cell_per_workload():
    view, rows = view_and_rows("cost-b")
    document = site.results_document(view, rows)
    older = site.run_entry("old", {"started": "2026-01-01T00:00:00+00:00", "host": {}}, None, False)
    newer = site.run_entry("cost-b", view.manifest.data, document, True)
    assert [entry["run_id"] for entry in site.runs_index([older, newer])] == ["cost-b", "old"]
    assert older["report"] is None and newer["report"] == "cost-b/report/index.html"
    assert older["started_text"] == "2026-01-01 00:00 UTC"
    assert older["canary"] == "" and newer["canary"] == "", "no canary.json given: none named"
    fastest = max((cell for cell in document["cells"] if cell["workload"] == "single"),
                  key=lambda cell: cell["saturation_rps"] or 0)
    assert f"single: {fastest['app']} {fastest['saturation_rps']:,.0f} req/s" in newer["headline"]


def test_a_run_s_canary_is_its_median_on_the_servers_cpus_else_on_every_cpu_it_read():
    readings = {"CPU0": [2.0, 2.0, 2.0], "CPU1": [4.0, 5.0, 9.0], "CPU2": [3.0]}
    assert site.canary_text(readings, "1") == "canary 5.00 ms"
    assert site.canary_text(readings, "1-2") == "canary 4.50 ms"
    assert site.canary_text(readings, "none") == "canary 3.00 ms"
    assert site.canary_text({}, "1") == "" and site.canary_text(None, "1") == ""


def test_the_index_sets_a_run_s_cells_beside_another_s_by_label_with_their_intervals():
    view, rows = view_and_rows("cost-b")
    document = site.results_document(view, rows)
    cells = site.comparable(document)
    measured = [cell for cell in document["cells"] if cell["saturation_rps"] is not None]
    assert len(cells) == len(measured)
    first = measured[0]
    label = f"{first['app']}, {site.engine_title(first['engine'])}, {site.workload_title(first['workload'], short=True)}"
    assert cells[label] == {"figure": first["saturation_rps"], "low": first["interval"]["low"],
                            "high": first["interval"]["high"], "rounds": 3, "lower_bound": False}
    assert site.run_entry("cost-b", view.manifest.data, document, True)["cells"] == cells


def test_a_concurrency_sweep_s_levels_link_their_windows_and_their_profiled_window_s_flame_graph():
    results = json.loads((ROOT / "tests" / "fixtures" / "reproduce" / "round-1" / "fig-9-13" / "concurrency.json").read_text())
    sections = site.concurrency_sections(results)
    assert len(sections) == len(results)
    [level] = sections[0]["levels"]
    result = results[0]
    folder = f"../cells/{result['app']}-{result['engine']}-{result['workload']}"
    assert level["raw"] == [f"{folder}/{raw}" for raw in result["levels"][0]["raw"]]
    assert level["flame"] == f"{folder}/{result['levels'][0]['profile']['folder']}/flame.svg"
    assert level["peak"] == (result["peak"] == level["connections"])
    assert sections[0]["driver"] == "ab" and "kept alive" in sections[0]["title"]


def test_a_folder_is_a_run_by_its_manifest_a_paper_s_first_sweep_or_its_soap_phases(tmp_path):
    (tmp_path / "empty").mkdir()
    assert html.run_manifest(tmp_path / "empty") == (None, None)
    phases = tmp_path / "phases"
    phases.mkdir()
    (phases / "soap-phases.json").write_text(json.dumps({"host": {"cpu_model": "X"}, "started": "2026-11-27T01:00:00+00:00"}))
    assert html.run_manifest(phases) == ("soap-phases", {"host": {"cpu_model": "X"}, "started": "2026-11-27T01:00:00+00:00",
                                                         "finished": "2026-11-27T01:00:00+00:00"})
    paper = tmp_path / "paper" / "round-1" / "fig-3"
    paper.mkdir(parents=True)
    (paper / "manifest.json").write_text(json.dumps({"run_id": "fig-3", "started": "2026-11-26T00:00:00+00:00"}))
    assert html.run_manifest(tmp_path / "paper")[1]["run_id"] == "fig-3"


def test_a_concurrency_sweep_is_listed_and_compared_by_each_cell_s_peak_and_its_windows():
    results = json.loads((ROOT / "tests" / "fixtures" / "reproduce" / "round-1" / "fig-9-13" / "concurrency.json").read_text())
    entry = site.run_entry("fig-9-13", {"started": "2026-11-26T00:00:00+00:00", "host": {}}, None, True, results)
    assert entry["kind"] == "concurrency sweep" and entry["rounds"] == 1
    peaked = [result for result in results if result["peak"]]
    assert len(entry["cells"]) == len(peaked) > 0
    result = peaked[0]
    [level] = [level for level in result["levels"] if level["connections"] == result["peak"]]
    windows = [window["replies_per_s"] for window in level["windows_figures"]]
    label = (f"{result['app']}, {site.engine_title(result['engine'])}, "
             f"{site.workload_title(result['workload'], short=True)}, peak, connections kept alive")
    assert entry["cells"][label] == {"figure": level["replies_per_s"], "low": min(windows), "high": max(windows),
                                     "rounds": 1, "lower_bound": False}
    fastest = max(peaked, key=lambda result: next(level["replies_per_s"] for level in result["levels"]
                                                  if level["connections"] == result["peak"]))
    assert entry["headline"][0].startswith(f"{fastest['workload']}: {fastest['app']} ")
