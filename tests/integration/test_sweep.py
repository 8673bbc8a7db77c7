"""A short real sweep on the live stack: results files with sane values, resume, forced client-bound."""
import csv
import json

import pytest

import sweep
from harness.verdict import INVALID, Thresholds


def short(**changes):
    options = dict(apps=("php", "soap"), engines=("myisam",), workloads=("single",), duration_s=2,
                   precision=0.5, probe_s=1, warmup_s=1, max_steps=3, cooldown_s=20,
                   client_cpus="", server_cpus="")
    options.update(changes)
    return sweep.Options(**options)


def rows(path):
    with open(path, newline="") as source:
        return list(csv.DictReader(source, delimiter="\t"))


@pytest.fixture()
def results(monkeypatch, tmp_path):
    monkeypatch.setattr(sweep, "RESULTS", tmp_path)
    return tmp_path


def test_a_short_sweep_writes_manifest_steps_and_saturation(stack, results):
    sweep.Sweep(short(), "short").run()
    run = results / "short"
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["finished"] >= manifest["started"]
    assert "Apache/2.4" in manifest["versions"]["httpd"] and "httperf" in manifest["versions"]["httperf"]
    assert manifest["settings"]["POOL_SIZE"] and manifest["git"]["commit"]
    assert manifest["host"]["cores"] >= 1
    saturation = rows(run / "saturation.tsv")
    assert [(row["app"], row["workload"]) for row in saturation] == [("php", "single"), ("soap", "single")]
    for row in saturation:
        assert row["status"] in ("located", "plan-limit", "client-bound"), row
        assert float(row["saturation_rps"]) > 20, row
        assert float(row["reply_ms_low"]) > 0
        cell = run / "cells" / f"{row['app']}-myisam-single"
        steps = rows(cell / "steps.tsv")
        probe = json.loads((cell / "cell.json").read_text())["probe"]["replies_per_s"]
        baseline, plan = steps[0], steps[1:]
        assert baseline["role"] == "baseline" and 1 <= len(plan) <= 3
        assert float(baseline["offered_rate"]) < 0.2 * probe and baseline["verdict"] == "pass"
        for step in steps:
            assert (cell / step["raw"]).read_text().startswith("$ httperf --server 127.0.0.1")
            assert step["verdict"] in ("pass", "fail", "invalid")
            assert float(step["offered_rate"]) > 0 and step["reason"]
        assert json.loads((cell / "cell.json").read_text())["probe"]["replies_per_s"] > 0
    soap_raw = (run / "cells" / "soap-myisam-single" / rows(
        run / "cells" / "soap-myisam-single" / "steps.tsv")[0]["raw"]).read_text()
    assert "--wsesslog" in soap_raw and "SOAPAction" in soap_raw


def test_rerunning_a_run_id_resumes_without_redoing_steps(stack, results):
    options = short(apps=("php",), max_steps=2)
    sweep.Sweep(options, "resume").run()
    cell = results / "resume" / "cells" / "php-myisam-single"
    first = (cell / "steps.tsv").read_text()
    sweep.Sweep(options, "resume").run()
    assert (cell / "steps.tsv").read_text() == first
    # An interrupted cell (not marked done) continues after its finished steps.
    state = json.loads((cell / "cell.json").read_text())
    del state["done"]
    (cell / "cell.json").write_text(json.dumps(state))
    sweep.Sweep(short(apps=("php",), max_steps=3), "resume").run()
    assert (cell / "steps.tsv").read_text().startswith(first)
    assert [step["role"] for step in rows(cell / "steps.tsv")] == ["baseline", "", "", ""]


def test_a_step_the_client_cannot_drive_is_invalid_not_saturation(stack, results):
    impossible = Thresholds(min_issue_ratio=2.0)  # no client issues twice the offered rate
    sweep.Sweep(short(apps=("php",), max_steps=1, thresholds=impossible), "clientbound").run()
    step = rows(results / "clientbound" / "cells" / "php-myisam-single" / "steps.tsv")[0]
    assert step["verdict"] == INVALID and "client issued only" in step["reason"]
    row = rows(results / "clientbound" / "saturation.tsv")[0]
    assert row["status"] == "no-pass" and not row["saturation_rps"]
