"""The results format: the summary a cell's steps imply, and records that survive their files."""
import dataclasses
import json

import pytest

from harness.results import kinds, manifest, store
from harness.results.records import (CLIENT_BOUND, CLIENT_LIMITED, FAIL, LOCATED, NO_PASS, PASS, PLAN_LIMIT,
                                     WORK_MISSING, WRONG_ANSWER, CellKey, CellState, Step)
from harness.results.saturation import summarize
from stack.settings import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "results" / "full6"
KEY = CellKey("php", "myisam", "single")


def step(number, rate, verdict, reply, response=5.0, **extra):
    return Step(step=number, offered_rate=rate, timeout_s=2, num_conns=int(rate * 6), verdict=verdict,
                reason="r", raw=f"raw/step-{number:02d}-rate-{rate:g}.txt",
                figures={"reply_rate": reply, "response_time_ms": response, "transfer_time_ms": 0.5,
                         "apache_cpu_s": 1.5, "mariadb_cpu_s": 0.5, "apache_rss_peak_mb": 100.0,
                         "mariadb_rss_peak_mb": 50.0, "other_cpu_s": 0.25, "kernel_threads_cpu_s": 0.125, **extra})


def test_the_recorded_run_summarizes_to_the_saturation_table_it_wrote():
    recorded = store.read_summaries(FIXTURE / "saturation.tsv")
    assert len(recorded) == 16
    for row in recorded:
        steps = store.read_steps(FIXTURE / "cells" / row.key.name / "steps.tsv")
        summary = summarize(row.key, steps, row.restarts)
        # Recorded before the summary kept a reply's CPU cost; that run had no speed canary.
        if summary.saturation_rps:
            best = next(step for step in steps if step.offered_rate == summary.saturation_offered
                        and step.reply_rate == summary.saturation_rps)
            assert summary.server_cpu_ms_per_reply_saturation == round(
                1000 * best.server_total("_cpu_s") / best.figures["replies"], 3)
        assert summary.machine_speed_saturation is None
        # The reply time is httperf's two parts, which that run's summary did not keep apart.
        for reply, response, transfer in ((summary.reply_ms_low, summary.response_ms_low, summary.transfer_ms_low),
                                          (summary.reply_ms_saturation, summary.response_ms_saturation,
                                           summary.transfer_ms_saturation)):
            assert reply is None or reply == round(response + transfer, 1)
        # Nor did it keep the costs per reply apart; httperf's own CPU time it had.
        if summary.saturation_rps:
            assert summary.client_cpu_ms_per_reply_saturation == pytest.approx(1000 * (
                best.figures["client_cpu_user_s"] + best.figures["client_cpu_system_s"]) / best.figures["replies"],
                abs=1e-4)
        assert dataclasses.replace(summary, server_cpu_ms_per_reply_saturation=None, response_ms_low=None,
                                   transfer_ms_low=None, response_ms_saturation=None, transfer_ms_saturation=None,
                                   client_cpu_ms_per_reply_saturation=None) == row


def test_saturation_is_the_best_passing_reply_rate_and_overload_the_lowest_failure_above():
    steps = [step(1, 100, PASS, 99.8, 2.0), step(2, 200, PASS, 199.5, 3.0), step(3, 400, FAIL, 250.0),
             step(4, 283, FAIL, 260.0), step(5, 238, PASS, 237.1, 9.0), step(6, 260, FAIL, 255.0)]
    row = summarize(KEY, steps, restarts=1)
    assert row.status == LOCATED
    assert (row.saturation_rps, row.saturation_offered, row.overload_offered) == (237.1, 238, 260)
    assert (row.reply_ms_low, row.reply_ms_saturation) == (2.5, 9.5)
    assert (row.response_ms_low, row.transfer_ms_low, row.response_ms_saturation) == (2.0, 0.5, 9.0)
    # The servers' own figures only: other processes' and kernel threads' CPU are not theirs.
    assert (row.server_cpu_s_saturation, row.server_rss_mb_saturation, row.restarts) == (2.0, 150.0, 1)


def test_a_client_bound_ceiling_is_a_lower_bound_never_a_saturation_point():
    row = summarize(KEY, [step(1, 2000, PASS, 1999.0), step(2, 3000, CLIENT_LIMITED, 0)], restarts=0)
    assert row.status == CLIENT_BOUND and row.overload_offered is None and row.lower_bound
    assert row.note.startswith(">= 1999.0 req/s, client-bound")


def test_a_plan_that_runs_out_before_a_failure_is_a_lower_bound():
    row = summarize(KEY, [step(1, 100, PASS, 100.0), step(2, 200, PASS, 199.0)], restarts=0)
    assert row.status == PLAN_LIMIT and row.saturation_rps == 199.0 and row.lower_bound


def test_no_passing_step_reports_no_saturation():
    row = summarize(KEY, [step(1, 2, FAIL, 0.5)], restarts=0)
    assert row.status == NO_PASS and row.saturation_rps is None


def test_a_cell_that_was_not_measured_says_why():
    row = summarize(KEY, [], restarts=0, unmeasured=(WRONG_ANSWER, "row 1 differs"))
    assert (row.status, row.note, row.steps) == (WRONG_ANSWER, "row 1 differs", 0)


def test_steps_come_back_from_their_file_as_they_were_written(tmp_path):
    steps = [step(1, 187.0, PASS, 187.3), dataclasses.replace(
        step(2, 250.0, CLIENT_LIMITED, 0), killed=True, role="baseline", issue_rate=None, figures={})]
    steps[0].round = 2
    store.write_steps(tmp_path / "steps.tsv", steps)
    assert store.read_steps(tmp_path / "steps.tsv") == steps
    text = (tmp_path / "steps.tsv").read_text()
    header = text.splitlines()[0].split("\t")
    assert header[:4] == ["step", "round", "role", "offered_rate"] and len(header) == len(set(header))
    store.write_steps(tmp_path / "steps.tsv", store.read_steps(tmp_path / "steps.tsv"))
    assert (tmp_path / "steps.tsv").read_text() == text, "a rewrite changed finished rows"


def test_a_figure_first_given_by_a_later_step_joins_the_header_and_leaves_earlier_cells_alone(tmp_path):
    first = step(1, 187.0, PASS, 187.3)
    store.write_steps(tmp_path / "steps.tsv", [first])
    before = store.read_tsv(tmp_path / "steps.tsv")[0]
    queued = dataclasses.replace(step(2, 250.0, PASS, 249.0), figures={**first.figures, "pool_waiting_max": 7.0})
    store.write_steps(tmp_path / "steps.tsv", [first, queued])
    earlier, later = store.read_tsv(tmp_path / "steps.tsv")
    assert list(earlier)[-1] == "pool_waiting_max" and earlier == {**before, "pool_waiting_max": ""}
    assert later["pool_waiting_max"] == "7.0"


def test_a_run_written_before_the_format_had_an_owner_reads_as_round_one():
    steps = store.read_steps(FIXTURE / "cells" / "php-myisam-single" / "steps.tsv")
    first = steps[0]
    assert (first.step, first.round, first.role, first.offered_rate, first.killed) == (1, 1, "baseline", 187.0, False)
    assert first.figures["apache_cpu_s"] > 0 and first.reply_time_ms == 0.9
    state = store.read_cell_state(FIXTURE / "cells" / "php-myisam-single" / "cell.json")
    assert state.done and state.round == 1 and state.probe["replies_per_s"] == 1865.34
    assert manifest.Manifest.read(FIXTURE / "manifest.json").format_version == 1


def test_cell_state_and_summaries_survive_their_files(tmp_path):
    state = CellState("soap", "innodb", "large", round=3, events=["x"], restarts=2, done=True,
                      verification="16000 rows equal to the database", probe={"replies_per_s": 9.5, "non2xx": 0})
    store.write_cell_state(tmp_path / "cell.json", state)
    assert store.read_cell_state(tmp_path / "cell.json") == state
    assert "warmup" not in json.loads((tmp_path / "cell.json").read_text())
    rows = [summarize(KEY, [step(1, 100, PASS, 99.0), step(2, 120, FAIL, 90.0)], restarts=0, round_=2)]
    store.write_summaries(tmp_path / "saturation.tsv", rows)
    assert store.read_summaries(tmp_path / "saturation.tsv") == rows


def test_a_manifest_missing_part_of_its_schema_is_named():
    complete = {key: {} for key in manifest.SCHEMA}
    assert manifest.problems(complete) == []
    del complete["servers"]
    assert manifest.problems(complete) == ["manifest lacks servers"]


def test_the_manifest_the_runner_writes_is_its_schema_exactly():
    earlier = {"run_id": "r", "started": "2026-11-24T09:00:00+00:00"}
    parts = {key: {} for key in manifest.GIVEN}
    data = manifest.written(earlier, kinds.CONCURRENCY, **parts)
    assert manifest.problems(data) == [] and data["format_version"] == manifest.FORMAT_VERSION
    assert data["started"] == earlier["started"] and manifest.Manifest(data).kind == "concurrency"
    with pytest.raises(ValueError, match=r"not in its schema: \['cooldown'\]; missing: \[\]"):
        manifest.written(earlier, kinds.SWEEP, **parts, cooldown=5)
    with pytest.raises(ValueError, match="no manifest is written for a run of kind 'soap-phases'"):
        manifest.written(earlier, kinds.SOAP_PHASES, **parts)
    del parts["size_sweep"]
    with pytest.raises(ValueError, match=r"missing: \['size_sweep'\]"):
        manifest.written(earlier, kinds.SWEEP, **parts)


FIXTURES = ROOT / "tests" / "fixtures"


@pytest.mark.parametrize("folder, kind", [
    ("results/full6", "sweep"),                            # format 1
    ("results/work-quick", "sweep"),                       # format 2
    ("reproduce/round-1/fig-3", "concurrency"),            # a manifest beside concurrency.json
    ("reproduce-lublin/round-1/fig-5", "soap-phases"),     # soap-phases.json alone
    ("reproduce", "paper"),                                # figures' folders alone
    ("httperf", None),
])
def test_a_run_written_before_its_kind_was_recorded_is_told_by_its_files(folder, kind):
    assert store.run_kind(FIXTURES / folder) == kind


def test_a_run_s_recorded_kind_is_read_and_an_unknown_one_refused(tmp_path):
    (tmp_path / "manifest.json").write_text(json.dumps({"kind": "concurrency"}))
    assert store.run_kind(tmp_path) == "concurrency"  # whatever files lie beside it
    (tmp_path / "manifest.json").write_text(json.dumps({"kind": "ladder"}))
    with pytest.raises(store.ResultsError, match="a run of kind 'ladder': this lab reads sweep, concurrency"):
        store.run_kind(tmp_path)
    (tmp_path / "manifest.json").write_text(json.dumps({"kind": "concurrency"}))
    with pytest.raises(store.ResultsError, match="holds a concurrency sweep, not a sweep"):
        store.load_run(tmp_path)


def test_a_folder_without_a_manifest_is_not_a_run(tmp_path):
    with pytest.raises(store.ResultsError, match="holds no run: no manifest.json"):
        store.load_run(tmp_path)


def test_a_pass_whose_repeat_failed_is_not_the_saturation_point():
    tries = [(900, PASS), (1125, FAIL), (1006, PASS), (1064, FAIL), (1035, FAIL), (1035, FAIL), (1006, FAIL),
             (952, PASS), (979, PASS), (979, PASS)]
    row = summarize(KEY, [step(number, rate, verdict, rate if verdict == PASS else rate * 0.9)
                          for number, (rate, verdict) in enumerate(tries, start=1)], restarts=0)
    assert (row.status, row.saturation_offered, row.saturation_rps, row.overload_offered) == (LOCATED, 979, 979, 1006)


def test_a_disturbed_step_neither_passes_nor_fails_its_rate():
    steps = [step(1, 100, PASS, 100.0), step(2, 200, "disturbed", 150.0), step(3, 200, PASS, 199.0),
             step(4, 400, FAIL, 300.0)]
    row = summarize(KEY, steps, restarts=0)
    assert (row.saturation_offered, row.overload_offered, row.disturbed_steps) == (200, 400, 1)


def test_a_cell_whose_steps_skipped_the_database_gets_no_figure_but_its_counts():
    honest = step(1, 100, PASS, 99.0, replies=600.0, status_2xx=600.0, db_selects=600.0, db_rows_read=600.0,
                  db_connections=600.0)
    row = summarize(KEY, [honest, step(2, 120, FAIL, 90.0)], restarts=0)
    assert row.status == LOCATED and row.work_missing_steps == 0
    assert (row.db_selects_per_reply_saturation, row.db_rows_per_reply_saturation,
            row.db_connections_per_reply_saturation) == (1.0, 1.0, 1.0)
    cached = dataclasses.replace(honest, figures={**honest.figures, "db_selects": 1.0, "db_rows_read": 1.0},
                                 work_missing="database work missing: 0.00 selects per reply, not 1")
    row = summarize(KEY, [cached, step(2, 120, FAIL, 90.0)], restarts=0)
    assert row.status == WORK_MISSING and row.saturation_rps is None and row.work_missing_steps == 1
    assert row.db_selects_per_reply_saturation == 0.0017 and "99.0 req/s, is not the app's" in row.note
