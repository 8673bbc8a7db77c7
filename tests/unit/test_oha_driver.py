"""oha's reports judged by the sweep's rules, on real runs against PHP on MyISAM (reports and the
end time of every reply, from oha's --db-url): single row at 1,500 req/s (all answered) and at
2,200 (4,097 timed out); 16,000 rows at 20 req/s (all answered, 10 of them after the first 5 s)
and at 30 (a queue: p50 3.1 s)."""
import json
from pathlib import Path

import pytest

from harness.drivers.oha import figures, sampled_reply_rate
from harness.judge.verdict import issue_rate, judge
from harness.results.records import FAIL, PASS

FIXTURES = Path(__file__).parent.parent / "fixtures" / "oha"


def judged(name, offered, planned, timeout_s):
    recorded = json.loads((FIXTURES / f"{name}.json").read_text())
    measured = figures(recorded["report"], offered, planned, recorded["reply_ends"])
    return measured, judge(measured, offered, timeout_s, planned)


def test_a_run_below_saturation_passes_with_its_percentiles():
    below, (verdict, _) = judged("php-myisam-single-1500", 1500, 7500, 0.6)
    assert (below["replies"], below["status_2xx"], below["errors_total"]) == (7500, 7500, 0)
    assert round(below["reply_rate"], 1) == 1500.5  # 7,499 replies after the first, in 4.998 s
    assert (below["p50_ms"], below["p99_ms"]) == (53.71, 164.74)
    assert verdict == PASS


def test_a_run_above_saturation_fails_on_its_timeouts_not_as_a_slow_client():
    above, (verdict, reason) = judged("php-myisam-single-2200", 2200, 11000, 0.41)
    assert (above["replies"], above["client_timo"], above["connections"]) == (6903, 4097, 11000)
    assert issue_rate(above, 0.41) >= 0.98 * 2200
    assert verdict == FAIL and "4097 errors" in reason


def test_replies_count_over_the_span_they_arrived_in_as_the_sweep_counts_httperfs():
    # Every request answered, 10 of 100 after the first 5 s: httperf's one 5 s sample would have
    # missed them (18 req/s, a failing step); over the span they arrived in, 99 replies in 5.1 s.
    large, (verdict, reason) = judged("php-myisam-large-20", 20, 100, 10)
    assert large["replies"] == 100 and large["errors_total"] == 0
    assert large["reply_rate"] == pytest.approx(99 / (5.152 - 0.052), rel=1e-3)
    assert verdict == PASS and reason.startswith("reply rate 19.4 of 20")
    # A queue: 150 replies spread over 7.6 s at 30 req/s offered.
    queued, (verdict, _) = judged("php-myisam-large-30", 30, 150, 10)
    assert queued["reply_rate"] == pytest.approx(149 / (7.9426 - 0.3184), rel=1e-3) and verdict == FAIL


def test_the_sampled_rate_uses_whole_windows_or_the_whole_run_when_shorter():
    assert sampled_reply_rate([0.5, 4.9, 5.1, 9.9, 10.2], total_s=10.4) == 4 / 10
    assert sampled_reply_rate([0.5, 4.9, 5.1, 9.9, 10.2], total_s=12.0) == 4 / 10
    assert sampled_reply_rate([0.5, 1.0, 2.0], total_s=2.5) == 3 / 2.5
    assert sampled_reply_rate([], total_s=0) == 0.0
