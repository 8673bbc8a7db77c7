"""The database's work per reply, judged against what each workload declares, and shown in a run's
summary, results.json, HTML pages and make compare. The counters themselves are read from recorded
readings in test_mariadb_status.py."""
import pytest

from harness.judge.database_work import (FLAG, VERSIONS_RAISED, extra_work, missing_work, owed_work, settled,
                                         write_problem)
from harness.judge.verdict import Thresholds
from harness.report import compare, site
from harness.report.series import throughput_text
from harness.report.tables import study_figures, summary_markdown, summary_rows
from harness.report.trust import database_work_line, rounds_sentence
from harness.report.view import View
from harness.results.records import DATABASE_COMMANDS, WORK_MISSING, database_work_per_reply
from harness.results.store import RunFiles, load_run
from stack import registry
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "results"

MARGIN = Thresholds().max_missing_work_ratio


def figures(replies, selects, rows, connections=0, status_2xx=None):
    return {"replies": replies, "status_2xx": replies if status_2xx is None else status_2xx,
            "db_selects": selects, "db_rows_read": rows, "db_connections": connections}


NONE_SENT = dict.fromkeys(DATABASE_COMMANDS, 0)
NO_WRITES = {"updates": 0, "rows_changed": 0}


def test_each_workload_declares_its_work_each_app_its_commands_and_a_reply_without_a_database_none():
    assert registry.database_work("php", "single") == {"selects": 1, "rows": 1, **NO_WRITES, **NONE_SENT, "connections": 1}
    assert registry.database_work("soap", "large") == {"selects": 1, "rows": 16000, **NO_WRITES, **NONE_SENT,
                                                       "connections": 1, "session_sets": 1}
    assert registry.database_work("pooled-servlet", "rows-250") == {"selects": 1, "rows": 250, **NO_WRITES, **NONE_SENT}
    # The UPDATE by key reads its row before the SELECT reads it again (MariaDB 10.11's Rows_read, measured).
    assert registry.database_work("pooled-servlet", "update") == {"selects": 1, "rows": 2, "updates": 1,
                                                                  "rows_changed": 1, **NONE_SENT}
    # A variant sends what its original does unless it declares its own.
    assert registry.database_work("php-fpm-jit", "single")["pings"] == 1
    assert registry.database_work("go-interpolate", "single") == {"selects": 1, "rows": 1, **NO_WRITES, **NONE_SENT}
    assert registry.database_work("soap", "echo-10") is None and registry.database_work("soap", "quote") is None
    assert registry.database_work("constant-php", "single") is None


UPDATE = {"selects": 1, "rows": 2, "updates": 1, "rows_changed": 1}


def writes(status_2xx, requests, raised):
    return {"replies": requests, "status_2xx": status_2xx, "requests": requests, VERSIONS_RAISED: raised}


def test_versions_that_rose_by_what_the_replies_owe_pass_and_less_or_more_is_flagged():
    assert write_problem(writes(3000, 3000, 3000), UPDATE) is None
    assert write_problem(writes(3000, 3000, 2999), UPDATE) == (
        f"{FLAG}: writes lost: the versions rose by 2999, the 3000 2xx replies owe at least 3000 (SUM(ver) before and "
        "after the step)")
    assert write_problem(writes(3000, 3000, 6000), UPDATE) == (
        f"{FLAG}: writes done twice: the versions rose by 6000, the step's requests could owe at most 3000 "
        "(SUM(ver) before and after the step)")
    assert write_problem(writes(10, 10, 200), {**UPDATE, "updates": 20}) is None  # update-N owes N a reply


def test_the_versions_are_read_once_the_writes_have_stopped():
    # A quick updates-20 sweep before the readings settled (AMD EPYC, 2026-12-04): each cell's first
    # step rose by 55, 34 and 65 versions more than its requests could owe, the last writes of the
    # previous cell's failing step, queued at its app. Its backlog rising, then still:
    assert settled(iter([1000, 1020, 1055, 1055, 1300])) == 1055
    assert settled(iter([1000, 1000])) == 1000
    assert settled(iter([1000, 1020, 1040])) == 1040, "still rising at the deadline: the last reading"
    assert settled(iter([1000, None, 1000])) is None, "a failed reading: no rise is judged"
    assert settled(iter([])) is None


def test_requests_without_a_2xx_may_or_may_not_have_written():
    # A step past saturation (recorded here, pooled-servlet/myisam/update at 3574 req/s): 3162 2xx,
    # 7467 sent, and every one of them wrote before its client gave up.
    assert write_problem(writes(3162, 7467, 7467), UPDATE) is None
    assert write_problem(writes(3162, 7467, 3162), UPDATE) is None
    assert write_problem(writes(3162, 7467, 3161), UPDATE).startswith(f"{FLAG}: writes lost")
    assert write_problem(writes(3162, 7467, 7468), UPDATE).startswith(f"{FLAG}: writes done twice")


def test_a_mixs_step_owes_exactly_what_its_own_requests_owe_and_less_only_for_those_unanswered():
    mixed = {"selects": 1, "rows": 1.1, "updates": 0.1, "rows_changed": 0.1}
    owed = {**writes(3000, 3000, 300), "updates_owed": 300, "updates_most_per_request": 1}
    assert write_problem(owed, mixed, planned=3000) is None
    assert write_problem({**owed, VERSIONS_RAISED: 299}, mixed, 3000).startswith(f"{FLAG}: writes lost")
    assert write_problem({**owed, VERSIONS_RAISED: 301}, mixed, 3000).startswith(f"{FLAG}: writes done twice")
    # 40 requests without a 2xx: up to 40 of the 300 writes may not have been done.
    unanswered = {**owed, "status_2xx": 2960, "replies": 2960}
    assert write_problem({**unanswered, VERSIONS_RAISED: 260}, mixed, 3000) is None
    assert write_problem({**unanswered, VERSIONS_RAISED: 259}, mixed, 3000).startswith(f"{FLAG}: writes lost")
    # update-N's request owes N: each one unanswered leaves N open.
    many = {**writes(9, 10, 180), "updates_owed": 200, "updates_most_per_request": 20}
    assert write_problem(many, {**UPDATE, "updates": 20}, 10) is None
    assert write_problem({**many, VERSIONS_RAISED: 179}, {**UPDATE, "updates": 20}, 10).startswith(f"{FLAG}: writes lost")


def test_the_requests_oha_issued_bound_the_writes_as_httperfs_sent_ones_do():
    issued = {"replies": 900, "status_2xx": 900, "connections": 1000, VERSIONS_RAISED: 1000}
    assert write_problem(issued, UPDATE) is None
    assert write_problem({**issued, VERSIONS_RAISED: 1001}, UPDATE).startswith(f"{FLAG}: writes done twice")


def test_a_step_without_the_versions_read_or_a_workload_without_updates_is_not_judged_on_writes():
    assert write_problem({"status_2xx": 10, "requests": 10}, UPDATE) is None
    assert write_problem(writes(10, 10, 0), {"selects": 1, "rows": 1, **NO_WRITES}) is None
    assert write_problem(writes(10, 10, 0), None) is None


def test_work_is_counted_per_2xx_reply_since_a_refusal_may_stop_before_its_select():
    counted = database_work_per_reply(figures(1000, 900, 900, 1000, status_2xx=900))
    assert counted == {"selects": 1.0, "rows": 1.0, "connections": 1.1111}
    assert database_work_per_reply(figures(0, 0, 0)) == {}
    assert database_work_per_reply({"replies": 10.0}) == {}


def test_replies_that_did_their_work_or_more_are_not_flagged():
    single = {"selects": 1, "rows": 1}
    assert missing_work(figures(3000, 3000, 3000), single, MARGIN) is None
    # Two SELECTs a reply, or requests that timed out after their SELECT ran: more is never missing.
    assert missing_work(figures(3000, 6000, 6000), single, MARGIN) is None
    assert missing_work(figures(10, 160010, 160010), {"selects": 1, "rows": 16000}, MARGIN) is None


def test_replies_that_did_more_keep_their_figure_and_say_what_it_cost_the_database():
    single = {"selects": 1, "rows": 1}
    why = extra_work(figures(3000, 6000, 3000), single, MARGIN, database_cpu_s=1.5)
    assert why == "more database work than declared: 2.00 selects per reply, not 1; the database's CPU 0.500 ms a reply"
    assert extra_work(figures(3000, 3000, 3000), single, MARGIN, 1.5) is None
    assert extra_work(figures(3000, 3000, 3000), None, MARGIN) is None
    assert "CPU" not in extra_work(figures(10, 10, 320000), {"selects": 1, "rows": 16000}, MARGIN)


def test_a_command_the_app_does_not_declare_is_named_and_one_it_declares_is_not():
    declared = {"selects": 1, "rows": 1, **NONE_SENT, "executes": 1}
    sent = {**figures(2000, 2000, 2000), "db_executes": 2000, "db_pings": 4000, "db_prepares": 10}
    assert extra_work(sent, declared, MARGIN) == "more database work than declared: 2.00 pings per reply, not 0"
    # A few prepares over a step (a pool's connections each preparing once) are within the margin of one.
    assert extra_work({**sent, "db_pings": 0}, declared, MARGIN) is None
    assert "0.02 prepares" in extra_work({**sent, "db_pings": 0, "db_prepares": 40}, declared, MARGIN)
    # Commands can only be more than declared: one an app skips is no missing work.
    assert missing_work({**sent, "db_executes": 0}, declared, MARGIN) is None


def test_replies_served_from_a_cache_are_flagged_with_their_figures():
    why = missing_work(figures(3000, 1, 1), {"selects": 1, "rows": 1}, MARGIN)
    assert why.startswith(FLAG) and "0.00 selects per reply, not 1" in why and "3000 2xx replies" in why


def test_a_select_that_reads_no_rows_is_flagged_on_its_rows():
    why = missing_work(figures(50, 50, 50), {"selects": 1, "rows": 16000}, MARGIN)
    assert "rows per reply, not 16,000" in why and "selects" not in why.split(":")[1]


def test_the_margin_is_a_share_of_the_declared_work():
    single = {"selects": 1, "rows": 1}
    assert missing_work(figures(1000, 991, 991), single, MARGIN) is None
    assert missing_work(figures(1000, 989, 989), single, MARGIN) is not None


def test_a_step_without_the_databases_count_or_declared_work_is_not_judged():
    assert missing_work({"replies": 3000.0, "status_2xx": 3000.0}, {"selects": 1, "rows": 1}, MARGIN) is None
    assert missing_work(figures(3000, 0, 0), None, MARGIN) is None


# Two recorded runs (Intel Xeon, QUICK=1, raw outputs left out): work-quick, the study's four on both
# engines and workloads; work-cached, the caching test app beside php on single rows.
def recorded(name):
    view = View(load_run(FIXTURES / name))
    return view, summary_rows(view, study_figures())


def test_every_cell_of_the_study_shows_one_select_and_its_rows_per_reply_at_saturation():
    view, rows = recorded("work-quick")
    assert len(rows) == 16
    for row in rows:
        assert (row["db_selects_per_reply"], row["db_rows_per_reply"]) == (
            "1.0", "1.0" if row["workload"] == "single" else "16000.0"), row["app"]
        # A connection per reply, but from the pool.
        assert row["db_connections_per_reply"] == ("0.0" if row["app"] == "pooled-servlet" else "1.0")
        assert row["work_missing_steps"] == 0
    # Every step, not only the saturation's: never less than the work declared.
    for key in view.cells:
        for _, steps in view.measurements(key):
            assert all(step.database_work()["selects"] >= 1 and not step.work_missing for step in steps)
    markdown = summary_markdown(view, rows)
    assert "database per reply: SELECTs / rows / connections" in markdown
    assert "| 1.00 / 16,000 / 0.00 |" in markdown and "| 1.00 / 1.00 / 1.00 |" in markdown


def test_the_cache_shows_as_database_work_missing_in_every_output_and_the_honest_app_does_not():
    view, rows = recorded("work-cached")
    cached = [row for row in rows if row["app"] == "cached-php"]
    assert {row["engine"] for row in cached} == {"myisam", "innodb"}
    for row in cached:
        assert row["status"] == WORK_MISSING and row["saturation_rps"] == "" and row["work_missing_steps"] > 0
        assert float(row["db_selects_per_reply"]) < 0.01 and throughput_text(row) == "database work missing"
    document = site.results_document(view, rows)
    work = {(cell["app"], cell["engine"]): cell["database_work"] for cell in document["cells"]}
    key = next(key for key in view.cells if (key.app, key.engine) == ("cached-php", "innodb"))
    assert work[("cached-php", "innodb")]["steps_short"] == sum(len(steps) for _, steps in view.measurements(key))
    assert work[("php", "myisam")] == {"selects_per_reply": 1.0, "rows_per_reply": 1.0,
                                       "connections_per_reply": 1.0, "steps_short": 0}
    row = next(row for row in cached if row["engine"] == "myisam")
    page = site.cell_page(view, row, RunFiles(FIXTURES / "work-cached"), "figure.svg")
    assert all(step["work_missing"].startswith(FLAG) for step in page["measurements"][0]["steps"])
    assert page["summary"]["database"].endswith("step(s) short")


def test_make_compare_sets_two_runs_counts_side_by_side_and_an_older_runs_as_missing():
    (first, _), (second, _) = recorded("work-quick"), recorded("work-cached")
    lines = compare.database_work_lines(first.run, second.run)
    assert lines[1] == "## What the database did per reply at saturation"
    assert "| php/myisam/single | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 1.00 | 0 | 0 |" in lines
    older = View(load_run(FIXTURES / "mem-quick"))
    rows = compare.database_work_rows(first.run, older.run)
    assert rows and all(row["second"] is None and row["first"]["selects"] == 1.0 for row in rows)


def test_the_report_says_whether_every_step_did_its_work_and_names_the_cells_that_did_not():
    honest, _ = recorded("work-quick")
    assert database_work_line(honest) == ("database work: every step's replies ran the SELECTs and read the rows "
                                          "their workload declares (MariaDB's own count, 16 cell visits)")
    cheat, _ = recorded("work-cached")
    assert database_work_line(cheat).startswith("database work: MISSING in 2 cell visit(s), no figure: cached-php/")
    assert "doing less than their workload declares" in rounds_sentence(cheat)
    assert "database work missing" not in rounds_sentence(honest)
    older = View(load_run(FIXTURES / "mem-quick"))
    assert database_work_line(older).startswith("database work: not counted")


def test_a_mixs_step_owes_the_updates_its_own_requests_owe_not_its_share():
    # mixed-10's 417 requests from the first place hold 41 writes, not 41.7 (run mixed-try's first
    # step on the pooled servlet, 417 2xx replies): 41 UPDATEs counted are all it owes.
    mixed = {"selects": 1, "rows": 1.1, "updates": 0.1, "rows_changed": 0.1}
    counted = {"replies": 417, "status_2xx": 417, "db_selects": 417, "db_rows_read": 458, "db_updates": 41,
               "db_rows_changed": 41, "updates_owed": 41, "updates_most_per_request": 1}
    assert missing_work(counted, mixed, 0.01).startswith(f"{FLAG}: 0.098 updates per reply, not 0.100")
    owed = owed_work(mixed, counted, 417)
    assert owed["updates"] == owed["rows_changed"] == pytest.approx(41 / 417) and owed["rows"] == 1.1
    assert missing_work(counted, owed, 0.01) is None
    assert missing_work({**counted, "db_updates": 40}, owed, 0.01).startswith(f"{FLAG}: 0.096 updates per reply, not 0.098")
    assert owed_work(mixed, {"replies": 417}, 417) == mixed and owed_work(UPDATE, counted, None) == UPDATE
