"""The verdict on each recorded case, and the thresholds at their edges."""
from harness.judge.verdict import CLIENT_LIMITED, FAIL, PASS, Thresholds, failed_requests, issue_rate, judge
from harness.measure.httperf_output import parse
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "httperf"


def judged(name, timeout_s):
    figures = parse((FIXTURES / f"{name}.txt").read_text())
    return judge(figures, figures["offered_rate"], timeout_s, figures["connections"])


def test_a_served_run_passes():
    assert judged("php-single-normal", 2)[0] == PASS
    assert judged("soap-single-wsesslog", 2)[0] == PASS


def test_a_short_run_with_zero_samples_passes_on_replies_over_duration():
    assert judged("php-single-short-0-samples", 2)[0] == PASS


def test_client_timeouts_fail():
    verdict, reason = judged("php-large-client-timeouts", 1)
    assert verdict == FAIL and "client-timo" in reason


def test_5xx_fails_even_though_every_request_got_a_reply():
    verdict, reason = judged("pooled-single-db-down-5xx", 8)
    assert verdict == FAIL and "not 2xx" in reason and "5xx 300" in reason


def test_fd_unavail_is_client_bound_not_server_saturation():
    verdict, reason = judged("php-large-fd-unavail", 5)
    assert verdict == CLIENT_LIMITED and "fd_unavail" in reason and "CLIENT_CPUS" in reason


def test_a_killed_httperf_is_invalid():
    assert judge(None, 100, 2, 1000, killed=True)[0] == CLIENT_LIMITED


def test_issue_rate_discounts_the_wait_for_slow_replies():
    # Recorded: 300 requests offered at 50/s against a server taking 5-6 s; httperf reports 25 req/s.
    figures = parse((FIXTURES / "pooled-single-db-down-5xx.txt").read_text())
    assert figures["request_rate"] == 25.0
    assert issue_rate(figures, 8) >= 0.98 * 50


def base(**changes):
    figures = {"connections": 1000, "requests": 1000, "replies": 1000, "test_duration_s": 10.0,
               "request_rate": 100.0, "reply_rate": 100.0, "errors_total": 0, "status_2xx": 1000,
               "conn_time_max_ms": 5.0}
    figures.update(changes)
    return figures


def test_thresholds_at_their_edges():
    assert judge(base(reply_rate=95.0), 100, 1, 1000)[0] == PASS
    assert judge(base(reply_rate=94.9), 100, 1, 1000)[0] == FAIL
    assert judge(base(errors_total=10), 100, 1, 1000)[0] == PASS
    assert judge(base(errors_total=11), 100, 1, 1000)[0] == FAIL
    assert judge(base(status_2xx=990), 100, 1, 1000)[0] == PASS
    assert judge(base(status_2xx=989), 100, 1, 1000)[0] == FAIL
    slow_client = base(requests=970, connections=970, replies=970, status_2xx=970, request_rate=97.0)
    assert judge(slow_client, 100, 1, 1000)[0] == CLIENT_LIMITED


def test_connections_never_opened_count_as_errors():
    assert judge(base(connections=980, requests=980, replies=980, status_2xx=980), 98, 1, 1000)[0] == FAIL


def test_thresholds_are_configurable():
    lenient = Thresholds(min_reply_ratio=0.5)
    assert judge(base(reply_rate=60.0), 100, 1, 1000, thresholds=lenient)[0] == PASS


def test_failed_requests_are_httperfs_errors_and_the_connections_it_never_opened():
    assert failed_requests({"errors_total": 3, "connections": 990}, 1000) == 13
    assert failed_requests({"errors_total": 3, "connections": 1000}, 1000) == 3
