"""The parser on real httperf 0.9 outputs recorded on this machine (tests/fixtures/httperf)."""
import pytest

from harness.drivers.httperf import FIGURES, IncompleteOutput, figures, lifetime_histogram
from harness.results.figures import percentiles, reply_time_ms
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "httperf"


def load(name):
    return figures((FIXTURES / f"{name}.txt").read_text())


def test_normal_run_yields_every_figure():
    figures = load("php-single-normal")
    assert figures["offered_rate"] == 200
    assert (figures["connections"], figures["requests"], figures["replies"]) == (1200, 1200, 1200)
    assert figures["reply_rate_samples"] == 1 and figures["reply_rate_avg"] == 200
    # 1,200 replies arriving over 5.996 s less the shortest connection.
    assert figures["reply_rate"] == pytest.approx(1199 / (5.996 - figures["conn_time_min_ms"] / 1000))
    assert figures["reply_rate"] == pytest.approx(200, rel=0.001)
    assert figures["status_2xx"] == 1200 and figures["errors_total"] == 0
    assert figures["response_time_ms"] > 0 and figures["conn_time_median_ms"] > 0
    assert figures["client_cpu_total_pct"] > 0 and figures["net_io_kb_s"] > 0
    assert figures["max_connect_burst"] >= 1
    # Recorded before the harness headed each output with httperf's rusage (client_minflt, ...).
    assert set(figures) >= set(FIGURES) - {"session_rate_min", "session_rate_avg", "session_rate_max",
                                          "session_rate_stddev", "sessions_completed", "sessions_total",
                                          "client_minflt", "client_vcsw", "client_ivcsw"}


def test_a_run_shorter_than_one_sample_still_has_its_reply_rate():
    figures = load("php-single-short-0-samples")
    assert figures["reply_rate_samples"] == 0 and figures["reply_rate_avg"] == 0
    assert figures["reply_rate"] == pytest.approx(100, rel=0.005)


def test_slow_replies_are_counted_over_the_span_they_arrived_in_not_one_5_s_sample():
    figures = load("soap-large-100mbit-one-sample")
    # httperf's one sample saw the 7 replies of its first 5 s; all 10 came, 442-456 ms each.
    assert figures["reply_rate_avg"] == 1.4 and figures["replies"] == 10
    assert figures["reply_rate"] == pytest.approx(9 / (6.443 - 0.442))
    assert figures["reply_rate"] >= 0.95 * figures["offered_rate"]


def test_with_client_timeouts_the_reply_rate_is_httperfs_own():
    figures = load("php-large-client-timeouts")
    assert figures["client_timo"] > 0 and figures["reply_rate"] == figures["reply_rate_avg"] == 19.6


def test_client_timeouts_are_counted():
    figures = load("php-large-client-timeouts")
    assert figures["client_timo"] > 0
    assert figures["errors_total"] >= figures["client_timo"]
    assert figures["replies"] < figures["requests"]


def test_fd_unavail_is_counted():
    assert load("php-large-fd-unavail")["fd_unavail"] > 0


def test_5xx_statuses_are_counted():
    figures = load("pooled-single-db-down-5xx")
    assert figures["status_5xx"] == 300 and figures["status_2xx"] == 0


def test_wsesslog_sessions_are_parsed():
    figures = load("soap-single-wsesslog")
    assert figures["offered_rate"] == 100
    assert figures["sessions_completed"] == figures["sessions_total"] == 600
    assert figures["requests"] == 600 and figures["status_2xx"] == 600


def test_a_killed_run_with_no_summary_is_incomplete():
    text = (FIXTURES / "php-single-normal.txt").read_text().split("Total:")[0]
    with pytest.raises(IncompleteOutput, match="missing connections"):
        figures(text)


def test_reply_time_adds_the_transfer_to_the_time_to_first_byte():
    figures = load("php-large-client-timeouts")
    assert reply_time_ms(figures) == round(figures["response_time_ms"] + figures["transfer_time_ms"], 1)
    assert reply_time_ms({"response_time_ms": "3.0", "transfer_time_ms": "0.5"}) == 3.5
    assert reply_time_ms({"response_time_ms": ""}) is None and reply_time_ms({}) is None


def test_the_verbose_histogram_gives_each_bins_upper_edge_and_count():
    text = (FIXTURES / "php-single-verbose-histogram.txt").read_text()
    bins = lifetime_histogram(text)
    assert bins == [(1.0, 213), (2.0, 178), (3.0, 2), (4.0, 3), (5.0, 2), (6.0, 2)]
    assert sum(count for _, count in bins) == figures(text)["connections"] == 400
    assert lifetime_histogram((FIXTURES / "php-single-normal.txt").read_text()) == []


def test_percentiles_count_failed_requests_as_lasting_the_whole_timeout():
    bins = [(1.0, 213), (2.0, 178), (3.0, 2), (4.0, 3), (5.0, 2), (6.0, 2)]
    assert percentiles(bins, failed=0, timeout_ms=2000) == {0.5: 1.0, 0.9: 2.0, 0.99: 4.0}
    assert percentiles(bins, failed=10, timeout_ms=2000) == {0.5: 1.0, 0.9: 2.0, 0.99: 2000}
    assert percentiles([], failed=0, timeout_ms=2000) == {}
    assert percentiles([], failed=5, timeout_ms=2000) == {0.5: 2000, 0.9: 2000, 0.99: 2000}


def test_a_histogram_with_elided_empty_bins_is_read_whole():
    text = (FIXTURES / "php-large-verbose-elided-histogram.txt").read_text()
    bins = lifetime_histogram(text)
    assert "             :" in text and len(bins) == 93
    assert sum(count for _, count in bins) == figures(text)["connections"] == 108
    assert bins[0] == (40.0, 5) and bins[-1] == (830.0, 1)
    assert percentiles(bins, failed=0, timeout_ms=10000) == {0.5: 259.0, 0.9: 711.0, 0.99: 818.0}
