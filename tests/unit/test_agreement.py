"""The large-body driver's agreement with Debian's httperf (harness/run/agreement.py): pure parts."""
from harness.results.records import CellKey, Step
from harness.run.agreement import agreement_row


def step(verdict, reply_rate, response_ms, transfer_ms=0.0, request_b=506.0):
    return Step(step=1, offered_rate=100, timeout_s=2, num_conns=500, verdict=verdict, reason="", raw="raw",
                figures={"reply_rate": reply_rate, "response_time_ms": response_ms, "transfer_time_ms": transfer_ms,
                         "request_size_b": request_b})


def test_each_driver_gets_its_medians_and_the_large_body_build_its_ratio_over_debians():
    steps = [("debian", step("pass", 100, 2.0)), ("large-body", step("pass", 99, 2.2)),
             ("debian", step("pass", 100, 4.0)), ("large-body", step("pass", 100, 2.4)),
             ("debian", step("fail", 90, 3.0, 1.0)), ("large-body", step("pass", 101, 2.0, 0.6))]
    row = agreement_row(CellKey("soap-gsoap", "none", "echo-10"), 100, steps)
    assert (row["debian_reply_rps"], row["large_reply_rps"], row["reply_rps_ratio"]) == (100, 100, 1.0)
    assert (row["debian_reply_ms"], row["large_reply_ms"], row["reply_ms_ratio"]) == (4.0, 2.4, 0.6)
    assert (row["debian_verdicts"], row["large_verdicts"]) == ("pass pass fail", "pass pass pass")
    assert (row["debian_request_b"], row["large_request_b"]) == ("506", "506")
    lonely = agreement_row(CellKey("soap-gsoap", "none", "echo-10"), 100, steps[:1])
    assert (lonely["large_reply_rps"], lonely["reply_rps_ratio"], lonely["reply_ms_ratio"]) == (None, None, None)
    assert lonely["paired_rps_ratio"] is None


def test_the_paired_ratio_sets_each_large_body_step_over_the_debian_step_just_before_it():
    # Rounds drift (100, 200, 400) but each pair's ratio is 1.1: the paired interval is 1.1 exactly,
    # where the ratio of the two drivers' medians is too (the drift is the same in both).
    steps = [(driver, step("fail", rate * factor, 9.0)) for rate in (100, 200, 400)
             for driver, factor in (("debian", 1.0), ("large-body", 1.1))]
    row = agreement_row(CellKey("soap-php", "none", "echo-1"), 120, steps)
    assert (row["paired_rps_ratio"], row["paired_rps_low"], row["paired_rps_high"]) == (1.1, 1.1, 1.1)
    # Spread pairs (0.9, 1.0, 1.2): geometric mean 1.026, and a 95 % t-interval on 2 degrees of freedom.
    spread = [(driver, step("fail", 100 * factor, 9.0)) for ratio in (0.9, 1.0, 1.2)
              for driver, factor in (("debian", 1.0), ("large-body", ratio))]
    row = agreement_row(CellKey("soap-php", "none", "echo-1"), 120, spread)
    assert row["paired_rps_ratio"] == 1.026 and row["paired_rps_low"] < 0.75 and row["paired_rps_high"] > 1.4
    # A Debian step without its large-body partner makes no pair.
    assert agreement_row(CellKey("soap-php", "none", "echo-1"), 120, spread[:1] + spread[2:])["paired_rps_ratio"] == 1.095


def test_a_disturbed_or_client_limited_step_is_listed_but_counts_in_no_median_and_no_pair():
    steps = [("debian", step("fail", 100, 9.0)), ("large-body", step("fail", 100, 9.0)),
             ("debian", step("fail", 100, 9.0)), ("large-body", step("disturbed", 40, 90.0)),
             ("debian", step("invalid", 10, 90.0)), ("large-body", step("fail", 120, 9.0))]
    row = agreement_row(CellKey("soap-gsoap", "none", "echo-1"), 8533, steps)
    assert (row["debian_reply_rps"], row["large_reply_rps"]) == (100, 110)
    assert (row["debian_verdicts"], row["large_verdicts"]) == ("fail fail invalid", "fail disturbed fail")
    assert (row["paired_rps_ratio"], row["paired_rps_low"], row["paired_rps_high"]) == (1.0, None, None)
