"""The database's work per reply, judged against what each workload declares. The counters
themselves are read from recorded readings in test_mariadb_status.py."""
from harness.judge.database_work import FLAG, missing_work
from harness.judge.verdict import Thresholds
from harness.results.records import database_work_per_reply
from stack import registry

MARGIN = Thresholds().max_missing_work_ratio


def figures(replies, selects, rows, connections=0, status_2xx=None):
    return {"replies": replies, "status_2xx": replies if status_2xx is None else status_2xx,
            "db_selects": selects, "db_rows_read": rows, "db_connections": connections}


def test_each_workload_declares_its_work_and_a_reply_without_a_database_none():
    assert registry.database_work("php", "single") == {"selects": 1, "rows": 1}
    assert registry.database_work("soap", "large") == {"selects": 1, "rows": 16000}
    assert registry.database_work("pooled-servlet", "rows-250") == {"selects": 1, "rows": 250}
    assert registry.database_work("soap", "echo-10") is None and registry.database_work("soap", "quote") is None
    assert registry.database_work("constant-php", "single") is None


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
