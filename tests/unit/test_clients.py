"""Several load clients for one step: the rate's shares, one raw file for all, and the step's figures
combined from theirs, checked on a recorded two-client step with its answers worked out by hand."""
from types import SimpleNamespace

import pytest

from harness.drivers import driver
from harness.results.figures import percentiles
from harness.judge.steps import client_bound
from harness.judge.verdict import Thresholds
from harness.measure import clients
from harness.run import step
from stack import registry
from tests.unit.test_httperf_driver import FIXTURES

HTTPERF = driver("httperf")

TWO_CLIENTS = (FIXTURES / "php-single-two-clients.txt").read_text()


def test_the_clients_split_the_rate_evenly_and_the_requests_as_evenly_as_whole_numbers_allow():
    assert clients.shares(150, 451, 2) == [(75.0, 226), (75.0, 225)]
    assert clients.shares(100, 500, 1) == [(100, 500)]
    assert [conns for _, conns in clients.shares(10, 11, 3)] == [4, 4, 3]
    with pytest.raises(ValueError):
        clients.shares(10, 10, 0)


def test_one_clients_raw_output_is_kept_as_httperf_wrote_it_and_several_each_under_its_marker():
    assert clients.joined_output(["$ httperf a\n"]) == "$ httperf a\n"
    parts = clients.split_output(TWO_CLIENTS)
    assert len(parts) == 2 and all(part.startswith("$ httperf --server") for part in parts)
    assert "--num-conns 226" in parts[0] and "--num-conns 225" in parts[1]
    assert clients.split_output(clients.joined_output(parts)) == parts
    assert clients.split_output(parts[0]) == [parts[0]]


def test_a_recorded_two_client_step_adds_up_its_counts_and_rates():
    per_client = [HTTPERF.figures(part) for part in clients.split_output(TWO_CLIENTS)]
    histogram = clients.merged_histogram(HTTPERF.lifetime_histogram(part) for part in clients.split_output(TWO_CLIENTS))
    combined = clients.merged(per_client, histogram)
    assert (combined["connections"], combined["replies"], combined["status_2xx"]) == (451, 451, 451)
    assert combined["offered_rate"] == 150
    # Each client's replies over the span they arrived in (its duration less its shortest connection), added.
    assert combined["reply_rate"] == pytest.approx(225 / (3.001 - 0.0004) + 224 / (2.987 - 0.0004))
    assert combined["test_duration_s"] == 3.001
    assert (combined["conn_time_min_ms"], combined["conn_time_max_ms"]) == (0.4, 4.8)
    # Times are weighted by what they were measured over: (0.5 x 226 + 0.6 x 225) / 451.
    assert combined["conn_time_avg_ms"] == pytest.approx((0.5 * 226 + 0.6 * 225) / 451)
    assert combined["response_time_ms"] == pytest.approx((0.5 * 226 + 0.6 * 225) / 451)
    assert combined["client_cpu_total_pct"] == 50.2
    assert "reply_rate_max" not in combined


def test_the_histograms_are_merged_bin_by_bin_and_the_percentiles_read_from_the_merge():
    histogram = clients.merged_histogram(HTTPERF.lifetime_histogram(part) for part in clients.split_output(TWO_CLIENTS))
    assert histogram == [(1.0, 445), (2.0, 3), (5.0, 3)]
    # p99 is request 446.5 of 451: past the 445 in the first bin, within the next 3.
    assert percentiles(histogram, failed=0, timeout_ms=2000) == {0.5: 1.0, 0.9: 1.0, 0.99: 2.0}


def test_percentiles_are_never_averaged():
    fast = [(1.0, 100)]
    slow = [(10.0, 60)]
    figures = {"replies": 0, "connections": 0}
    combined = clients.merged([figures, figures], clients.merged_histogram([fast, slow]))
    # The average of the two medians would be 5.5 ms; 100 of the 160 requests took 1 ms.
    assert combined["conn_time_median_ms"] == 1.0


def run(rate, conns, figures, killed=False):
    return rate, conns, "", killed, figures


def test_a_step_is_client_bound_when_any_one_client_is():
    keeping_up = {"connections": 250, "requests": 250, "replies": 250, "test_duration_s": 5.0,
                  "request_rate": 50.0, "errors_total": 0, "reply_rate": 50.0, "conn_time_max_ms": 1.0}
    lagging = {**keeping_up, "connections": 150, "requests": 150, "replies": 150, "request_rate": 30.0,
               "reply_rate": 30.0}
    assert client_bound([run(50, 250, keeping_up), run(50, 250, keeping_up)], 2, Thresholds()) is None
    reason = client_bound([run(50, 250, keeping_up), run(50, 250, lagging)], 2, Thresholds())
    assert reason.startswith("client 2 of 2: client issued only 30.0 of 50 req/s")
    killed = client_bound([run(50, 250, keeping_up, killed=True), run(50, 250, keeping_up)], 2, Thresholds())
    assert killed.startswith("client 1 of 2: httperf killed")
    assert client_bound([run(50, 250, lagging)], 2, Thresholds()) is None  # one client: the step's own verdict


def test_a_step_with_a_client_that_printed_no_summary_has_no_figures():
    assert step.merged_client_runs([run(50, 250, None), run(50, 250, {"connections": 1})]) == (None, [])


def test_each_client_takes_a_drawing_workloads_requests_from_its_own_place_and_a_get_needs_no_session(tmp_path):
    drawn = tuple(registry.request("php", "update", id=number) for number in range(1, 9))
    cell = SimpleNamespace(request=registry.request("php", "update"), drawn=drawn, directory=tmp_path)
    files = step.session_files(cell, step.client_sessions(cell, 1, 2))
    assert [file.name for file in files] == ["session-1.txt", "session-2.txt"]
    firsts = [file.read_text().split(" ", 1)[0] for file in files]
    assert firsts == [drawn[0].path, drawn[4].path]
    assert sorted(files[1].read_text().split()) == sorted(files[0].read_text().split())
    fixed = SimpleNamespace(request=registry.request("soap", "single"), drawn=(), directory=tmp_path)
    sessions = step.client_sessions(fixed, 1, 3)
    assert sessions == [[(fixed.request,)]] * 3
    assert [file.read_text() for file in step.session_files(fixed, sessions)] == [HTTPERF.session_file_text(fixed.request)] * 3
    get = SimpleNamespace(request=registry.request("php", "single"), drawn=(), directory=tmp_path)
    assert step.session_files(get, step.client_sessions(get, 1, 2)) == [None, None]
