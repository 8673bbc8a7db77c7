"""A short real sweep on the live stack: results files with sane values, resume, forced client-bound,
and a wrong answer caught before any load."""
import json
import os
import statistics
import subprocess
from pathlib import Path

import pytest

from harness.hosts import servers
from harness.judge.verdict import Thresholds
from harness.measure.prices import PRICES
from harness.results.manifest import FORMAT_VERSION, Manifest, problems
from harness.results.records import BASELINE, CLIENT_LIMITED, DISTURBED, NO_PASS, PASS, VERDICTS, WRONG_ANSWER, CellKey, Visit
from harness.report import turns as report_turns
from harness.report.view import View
from harness.results.store import RunFiles, load_run, read_cell_state, read_steps, read_summaries, read_tsv, write_steps
from harness.results import interleave
from harness.run import verify
from harness.run.cell import Cell
from harness.run.context import RunContext
from harness.run.runner import Runner
from stack import lifecycle
from stack.settings import ROOT
from tests import margins
from tests.integration.conftest import measured_rate


def short(**changes):
    """A few short steps. Disturbance is not these tests' subject (the fault suite's CPU hog is), so
    a host that steals CPU (this VM's did: 6-10 % in one step) does not stop their cells; nor is the
    price list (about 5 s a round), but for the first test's, nor the quiet check (half a second)."""
    options = dict(apps=("php", "soap"), engines=("myisam",), workloads=("single",), duration_s=2,
                   precision=0.5, warmup_cap_s=6, jit_warmup_cap_s=6, jvm_warmup_cap_s=0, max_steps=3, recovery_wait_s=20,
                   client_cpus="none", server_cpus="none", rounds=1, aa_control="",
                   max_steal_pct=100, max_other_pct=100, price_list=False,
                   quiet_check_s=0.5)
    options.update(changes)
    return RunContext.of(**options)


def sweep(tmp_path, run_id, options):
    Runner(options, run_id, tmp_path, say=lambda text: None).run()
    return RunFiles(tmp_path / run_id)


@pytest.mark.timing
def test_a_short_sweep_writes_manifest_steps_and_saturation(stack, tmp_path):
    files = sweep(tmp_path, "short", short(price_list=True))
    manifest = Manifest.read(files.manifest)
    assert problems(manifest.data) == [] and manifest.format_version == FORMAT_VERSION
    assert manifest.finished >= manifest.started
    assert "Apache/2.4" in manifest.data["versions"]["httpd"] and "httperf" in manifest.data["versions"]["httperf"]
    apache = manifest.data["servers"]["apache"]
    assert (apache["address"], apache["port"]) == ("127.0.0.1", stack["apache"].port)
    assert apache["started_with"]["APACHE_WORKERS"] == manifest.data["settings"]["APACHE_WORKERS"]
    assert manifest.pinning == {"client_cpus": "none", "server_cpus": "none", "db_cpus": "none"}
    assert (manifest.data["settings"]["CLIENT_CPUS"], manifest.data["settings"]["SERVER_CPUS"]) == ("none", "none")
    saturation = read_summaries(files.saturation)
    assert sorted((row.app, row.workload, row.round) for row in saturation) == [("php", "single", 1),
                                                                               ("soap", "single", 1)]
    for row in saturation:
        # Both serve hundreds of single rows/s on either host kind: 20 says the step measured the app.
        margins.at_least("a 3-step sweep's single rows/s (php, soap)", measured_rate(files, row), 20)
        assert row.reply_ms_low > 0
        cell = files.cell(row.key)
        steps = read_steps(cell / "steps.tsv")
        state = read_cell_state(cell / "cell.json")
        assert state.verification == "1 rows equal to the database"
        windows = state.warmup["windows"]
        assert 1 <= len(windows) <= 3 and state.warmup["window_s"] == 2 and min(windows) > 0
        assert state.probe["replies_per_s"] == round(statistics.median(windows[-3:]), 2)
        baseline, plan = steps[0], steps[1:]
        assert baseline.role == BASELINE and 1 <= len(plan) <= 3
        assert baseline.offered_rate < 0.2 * state.probe["replies_per_s"] and baseline.verdict == PASS
        for step in steps:
            assert (cell / step.raw).read_text().startswith("$ httperf --server 127.0.0.1")
            assert step.verdict in VERDICTS and step.offered_rate > 0 and step.reason and step.round == 1
            assert step.figures["mariadb_cpu_s"] >= 0
            # The cost split: user and system time add up to the CPU time (each rounded to 0.01 s),
            # the servers switched context under load, and httperf's own rusage is in its output.
            for server in ("apache", "tomcat", "mariadb"):
                parts = step.figures[f"{server}_user_s"] + step.figures[f"{server}_system_s"]
                assert parts == pytest.approx(step.figures[f"{server}_cpu_s"], abs=0.021)
            assert step.figures["mariadb_vcsw"] > 0 and step.figures["client_minflt"] > 0
        assert set(row.costs()) >= {"server_user_ms_per_reply", "server_system_ms_per_reply", "client_cpu_ms_per_reply"}
    # The host's price list at the round's start, on every lab CPU (all of them, unpinned).
    prices = read_tsv(files.prices)
    assert {row["round"] for row in prices} == {"1"}
    assert {(row["cpu"], row["price"]) for row in prices} == {(str(cpu), price.name) for cpu in os.sched_getaffinity(0)
                                                              for price in PRICES}
    assert all(0 < float(row["low"]) <= float(row["median"]) <= float(row["high"]) for row in prices)
    soap_cell = files.cell(CellKey("soap", "myisam", "single"))
    soap_steps = read_steps(soap_cell / "steps.tsv")
    assert "--wsesslog" in (soap_cell / soap_steps[0].raw).read_text()
    # Tomcat's JVM is watched over every step: young collections at least every few seconds under load.
    assert all(step.figures["tomcat_gc_full_n"] >= 0 and step.figures["tomcat_compile_s"] >= 0 for step in soap_steps)
    assert sum(step.figures["tomcat_gc_young_n"] for step in soap_steps) >= 1
    # Memory: every server's PSS at each step's end; Apache's prefork workers share pages, so their PSS
    # is below their summed RSS; Tomcat's heap after a collection is known once the steps collected,
    # and its requests allocated (an Axis 1.4 reply takes tens of kB and more).
    for step in soap_steps:
        assert all(step.figures[f"{name}_pss_mb"] > 0 and step.figures[f"{name}_processes"] >= 1
                   for name in ("apache", "tomcat", "mariadb"))
        assert step.figures["apache_pss_mb"] < step.figures["apache_rss_peak_mb"]
    collected = [step for step in soap_steps if "tomcat_heap_after_gc_mb" in step.figures]
    assert collected and all(0 < step.figures["tomcat_heap_after_gc_mb"] < 2048 for step in collected)
    assert all(step.figures["tomcat_alloc_mb"] * 1024 / step.figures["replies"] > 10
               for step in soap_steps if step.figures.get("replies"))


@pytest.mark.timing
def test_a_kept_alive_sweep_carries_its_calls_on_each_connection_and_judges_per_request(stack, tmp_path):
    files = sweep(tmp_path, "kept-alive", short(connection="keepalive", calls=10))
    assert {key: Manifest.read(files.manifest).options[key] for key in ("connection", "calls")} == {
        "connection": "keepalive", "calls": 10}
    for row in read_summaries(files.saturation):
        margins.at_least("a kept-alive 3-step sweep's single rows/s (php, soap)", measured_rate(files, row), 20)
        cell = files.cell(row.key)
        assert "Connection: close" not in read_cell_state(cell / "cell.json").warmup["command"]
        for step in read_steps(cell / "steps.tsv"):
            calls = int(step.figures["calls_per_connection"])
            assert 1 <= calls <= 10 and step.num_conns % calls == 0 and "p50_ms" not in step.figures
            if step.verdict == PASS:  # its connections opened and their calls answered, but for the 1 % a pass allows
                assert 0.99 * step.num_conns // calls <= step.figures["connections"] <= step.num_conns // calls
                assert 0.99 * step.num_conns <= step.figures["replies"] <= step.figures["requests"] <= step.num_conns
        assert any(int(step.figures["calls_per_connection"]) == 10 for step in read_steps(cell / "steps.tsv"))


def test_a_baseline_runs_once_without_an_engine_and_is_checked_like_an_app(stack, tmp_path):
    files = sweep(tmp_path, "baseline", short(apps=("constant-php-fpm",), engines=("myisam", "innodb"),
                                              workloads=("single", "large")))
    saturation = read_summaries(files.saturation)
    assert [(row.app, row.engine, row.workload) for row in saturation] == [("constant-php-fpm", "none", "single")]
    margins.at_least("a 3-step sweep's single rows/s (constant-php-fpm)", measured_rate(files, saturation[0]), 20)
    state = read_cell_state(files.cell(saturation[0].key) / "cell.json")
    assert state.verification == "1 rows equal to the database"


def test_rerunning_a_run_id_resumes_without_redoing_steps(stack, tmp_path):
    options = short(apps=("php",), max_steps=2)
    files = sweep(tmp_path, "resume", options)
    cell = files.cell(CellKey("php", "myisam", "single"))
    first = (cell / "steps.tsv").read_text()
    sweep(tmp_path, "resume", options)
    assert (cell / "steps.tsv").read_text() == first
    # An interrupted cell (not marked done) continues after its finished steps.
    state = json.loads((cell / "cell.json").read_text())
    del state["done"]
    (cell / "cell.json").write_text(json.dumps(state))
    sweep(tmp_path, "resume", short(apps=("php",), max_steps=3))
    assert (cell / "steps.tsv").read_text().startswith(first)
    # A step that other work disturbed is redone (its row kept): the judged ones are the plan's.
    judged = [step.role for step in read_steps(cell / "steps.tsv") if step.verdict != DISTURBED]
    assert judged == [BASELINE, "", "", ""]


def test_the_first_stage_done_the_cells_are_taken_by_turns_each_at_its_share_and_a_resume_keeps_them(stack, tmp_path):
    options = short(turn_cycles=2, turn_share=0.1, turn_step_s=1, seed=11, max_steps=8)
    files = sweep(tmp_path, "turns", options)
    figures = {str(row.key): row.saturation_rps for row in read_summaries(files.saturation)}
    rows = read_tsv(files.turns)
    php, soap = "php/myisam/single", "soap/myisam/single"
    # Two members: the Williams design's two cycles, shuffled by the run's seed, each at 0.1 of its figure.
    assert [(row["restart"], row["cell"]) for row in rows] == [
        (str(cycle), (php, soap)[member]) for cycle, order in enumerate(interleave.cycle_orders(2, 1, 11), start=1)
        for member in order]
    assert {row["cell"]: float(row["rate"]) for row in rows} == {cell: round(0.1 * figures[cell], 1) for cell in figures}
    assert all(row["verdict"] in VERDICTS for row in rows) and files.turn_files.cell(CellKey("php", "myisam", "single")).exists()
    # Each turn 1 s long (turn_step_s), where the rounds' steps are 2 s.
    for key in (CellKey("php", "myisam", "single"), CellKey("soap", "myisam", "single")):
        turn_steps = read_steps(files.turn_files.cell(key) / "steps.tsv")
        assert len(turn_steps) >= 2 and all(step.figures["test_duration_s"] < 1.5 for step in turn_steps), turn_steps
    sweep(tmp_path, "turns", options)
    assert read_tsv(files.turns) == rows, "a resumed run keeps the turns it took"


def test_turns_across_engines_set_an_apps_myisam_cell_against_its_innodb_one(stack, tmp_path):
    options = short(apps=("php",), engines=("myisam", "innodb"), turn_cycles=2, turn_share=0.1, turn_step_s=1,
                    seed=3, max_steps=8, turn_pairs="engines")
    files = sweep(tmp_path, "engine-turns", options)
    rows = read_tsv(files.turns)
    cells = ("php/myisam/single", "php/innodb/single")
    assert [(row["restart"], row["cell"], row["group"]) for row in rows] == [
        (str(cycle), cells[member], "engines:single/php")
        for cycle, order in enumerate(interleave.cycle_orders(2, 1, 3), start=1) for member in order]
    lines = report_turns.turn_lines(View(load_run(files.directory)))
    assert "### single row by primary key, php: MyISAM against InnoDB: 2 cycles" in lines, lines


def test_rounds_restart_the_servers_measure_the_control_twice_and_resume(stack, tmp_path):
    php = CellKey("php", "myisam", "single")
    # A 2 s warm-up cap: rounds, not warm-ups, are this test's subject (four visits and a resume).
    options = short(apps=("php",), max_steps=2, rounds=2, aa_control="php/myisam/single", seed=5, warmup_cap_s=2)
    apache = lifecycle.lab_servers()["apache"]
    before = apache.pid()
    files = sweep(tmp_path, "rounds", options)
    after = apache.pid()
    assert after != before, "the servers restart between rounds"
    rows = read_summaries(files.saturation)
    assert sorted(row.visit for row in rows) == [row.visit for row in rows] == [
        Visit(php, 1, 1), Visit(php, 1, 2), Visit(php, 2, 1), Visit(php, 2, 2)]
    assert files.cell(php, 2, 2) == files.cell(php) / "round-2-measurement-2"
    for row in rows:
        steps = read_steps(files.cell_steps(php, row.round, row.replica))
        assert steps and all(step.round == row.round for step in steps)
        assert measured_rate(files, row) > 0
    round_two = read_cell_state(files.cell_state(php, 2, 1))
    assert any("round 2 begins: restarted apache" in event for event in round_two.events)
    assert Manifest.read(files.manifest).options["seed"] == 5
    # Interrupted in round 2 before its last step: resuming keeps the run's seed, takes that step
    # after the saved ones, redoes nothing else and does not restart the servers of a begun round.
    interrupted = files.cell_steps(php, 2, 2)
    kept = {visit: files.cell_steps(php, visit.round, visit.replica).read_text() for visit in
            (Visit(php, 1, 1), Visit(php, 1, 2), Visit(php, 2, 1))}
    finished = read_steps(interrupted)
    write_steps(interrupted, finished[:-1])
    saved = interrupted.read_text()
    state = json.loads(files.cell_state(php, 2, 2).read_text())
    del state["done"]
    files.cell_state(php, 2, 2).write_text(json.dumps(state))
    sweep(tmp_path, "rounds", short(apps=("php",), max_steps=2, rounds=2, aa_control="php/myisam/single", seed=99,
                                    warmup_cap_s=2))
    assert apache.pid() == after
    assert Manifest.read(files.manifest).options["seed"] == 5
    assert interrupted.read_text().startswith(saved) and len(read_steps(interrupted)) == len(finished)
    for visit, text in kept.items():
        assert files.cell_steps(php, visit.round, visit.replica).read_text() == text


@pytest.mark.skipif(os.cpu_count() < 2, reason="widening needs a client CPU apart from the servers'")
@pytest.mark.timing
def test_a_round_warms_the_jvm_once_for_all_its_cells_on_both_cpus_then_pins_it_back(stack, tmp_path):
    pid = stack["tomcat"].pid()
    before = os.sched_getaffinity(pid)
    runner = Runner(short(apps=("servlet", "soap"), jvm_warmup_cap_s=14, client_cpus="0", server_cpus="1"), "jvm",
                    tmp_path, say=lambda text: None)
    cell = Cell(runner.files, CellKey("servlet", "myisam", "single"))
    try:
        runner.warm_jvms(1, cell)
        records = json.loads(runner.files.jvm_warmups.read_text())
        assert [(record["round"], record["server"], record["pid"]) for record in records] == [(1, "tomcat", pid)]
        warmed = records[0]
        assert {name for name, _ in warmed["windows"]} == {"servlet-myisam-single", "soap-myisam-single"}
        assert all(replies > 0 for _, replies in warmed["windows"]) and warmed["cpus_while_warming"] == "1,0"
        assert len(warmed["compile_s"]) == len(warmed["windows"]) + 1
        # The warm-up stops before a rotation that would pass its cap: the 5 s over it are for wrk's starts
        # and the compile-time reads between windows.
        margins.at_most("a JVM warm-up capped at 14 s (s)", warmed["seconds"], 14 + 5)
        threads = [int(task.name) for task in Path(f"/proc/{pid}/task").iterdir()]
        assert {cpu for thread in threads for cpu in os.sched_getaffinity(thread)} == {1}, "pinned back"
        assert any("tomcat warmed for" in event for event in cell.state.events)
        runner.warm_jvms(1, cell)  # the same round, the same JVM: not again
        assert json.loads(runner.files.jvm_warmups.read_text()) == records
    finally:
        subprocess.run(["taskset", "-a", "-p", "-c", ",".join(map(str, sorted(before))), str(pid)], capture_output=True)


def test_a_step_the_client_cannot_drive_is_invalid_not_saturation(stack, tmp_path):
    impossible = Thresholds(min_issue_ratio=2.0)  # no client issues twice the offered rate
    files = sweep(tmp_path, "clientbound", short(apps=("php",), max_steps=1, thresholds=impossible))
    step = read_steps(files.cell(CellKey("php", "myisam", "single")) / "steps.tsv")[0]
    assert step.verdict == CLIENT_LIMITED and "client issued only" in step.reason
    row = read_summaries(files.saturation)[0]
    assert row.status == NO_PASS and row.saturation_rps is None


def test_an_app_whose_answer_differs_from_the_database_is_not_measured(stack, tmp_path, monkeypatch):
    other_row = verify.expected_rows(servers.server("mariadb"), "myisam", "single")[0][:1] + ["someone else"] * 10
    monkeypatch.setattr(verify, "expected_rows", lambda db, engine, workload: [other_row])
    files = sweep(tmp_path, "wrong", short(apps=("php",)))
    row = read_summaries(files.saturation)[0]
    assert row.status == WRONG_ANSWER and "row 1 is ['100', 'adamswi02'" in row.note and row.steps == 0
    assert not (files.cell(row.key) / "steps.tsv").exists() or not read_steps(files.cell(row.key) / "steps.tsv")


def test_a_size_sweep_measures_rows_and_echoes_at_each_n_and_plots_them_side_by_side(stack, tmp_path):
    # One engine and one baseline: a cell costs ~12 s, and each engine's echo is checked on its own
    # (test_soap_echoes.py); the sweep's verification is the same function for every app. A 2 s
    # warm-up cap (one window, no JVM among them): sizes, not warm-ups, are this test's subject.
    files = sweep(tmp_path, "sizes", short(apps=("soap-php", "static-quote-gsoap"), engines=("innodb",),
                                           workloads=("rows-1", "rows-1000", "echo-1000", "quote"), max_steps=2,
                                           warmup_cap_s=2))
    saturation = read_summaries(files.saturation)
    assert sorted((row.app, row.engine, row.workload) for row in saturation) == [
        ("soap-php", "innodb", "rows-1"), ("soap-php", "innodb", "rows-1000"), ("soap-php", "none", "echo-1000"),
        ("soap-php", "none", "quote"), ("static-quote-gsoap", "none", "quote")]
    verified = {(row.app, row.workload): read_cell_state(files.cell(row.key) / "cell.json").verification
                for row in saturation}
    assert verified[("soap-php", "rows-1000")] == "1000 rows equal to the database"
    assert verified[("soap-php", "echo-1000")] == "1,000 items echoed unchanged"
    assert verified[("soap-php", "quote")] == verified[("static-quote-gsoap", "quote")] == "1 item echoed unchanged"
    assert all(measured_rate(files, row) > 0 for row in saturation)
    # 1,000 rows (and 1,000 structs) are driven with the 16,000-row workload's profile: its longer timeout.
    steps = {(row.app, row.workload): read_steps(files.cell(row.key) / "steps.tsv") for row in saturation}
    assert steps[("soap-php", "rows-1000")][0].timeout_s > steps[("soap-php", "rows-1")][0].timeout_s
    # A 128 KB envelope is past Debian's httperf: the lab's large-body build sends it, and its replies pass.
    echo = next(row.key for row in saturation if (row.app, row.workload) == ("soap-php", "echo-1000"))
    echo_raw = files.cell(echo) / steps[("soap-php", "echo-1000")][0].raw
    assert echo_raw.read_text().startswith(f"$ {ROOT}/target/httperf/httperf --server")
    completed = subprocess.run(["make", "--no-print-directory", "plots", "RUN=sizes", f"RESULTS_DIR={tmp_path}"],
                               cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    assert (files.directory / "plots" / "sizes.pdf").stat().st_size > 1000
    summary = (files.directory / "summary.md").read_text()
    assert "## Throughput and reply time against payload size" in summary and "| N = 1 | N = 1,000 |" in summary
    assert "### echoStructs of N structs, no database" in summary and "| N = 1,000 | getQuote |" in summary
    assert ("The engine-less SOAP baselines (getQuote's canned answer, no engine; the figure's dashed lines): "
            "Static SOAP answer (gSOAP's server) ") in summary
