"""The gate after a step that did not pass: what it compares with, and when it lets the next step run."""
from harness.results.records import BASELINE, FAIL, PASS, Step
from harness.run import context
from harness.run.guard import gate_reference, settled
from harness.run.step import gate_plan


def step(rate, verdict, reply_ms, role=""):
    return Step(step=1, offered_rate=rate, timeout_s=2, num_conns=10, verdict=verdict, reason="", raw="", role=role,
                figures={"response_time_ms": reply_ms, "transfer_time_ms": 0.0})


def test_the_gate_compares_with_the_baseline_step_else_the_lowest_passing_one():
    assert gate_reference([step(1300, PASS, 6.5), step(150, PASS, 1.6, BASELINE), step(1600, FAIL, 216.8)]) == (150, 1.6)
    assert gate_reference([step(400, PASS, 3.0), step(200, PASS, 2.0), step(800, FAIL, 90.0)]) == (200, 2.0)
    assert gate_reference([step(100, FAIL, 900.0)]) is None


def test_a_check_is_settled_within_the_factor_of_the_baseline_but_never_below_the_floor():
    assert settled(4.8, baseline_ms=1.6, factor=3, floor_ms=5)          # 3 x 1.6 = 4.8
    assert settled(5.0, baseline_ms=0.4, factor=3, floor_ms=5)          # the floor, not 1.2 ms
    assert not settled(5.1, baseline_ms=0.4, factor=3, floor_ms=5)
    assert not settled(224.6, baseline_ms=67.8, factor=3, floor_ms=5)
    assert not settled(None, baseline_ms=1.6, factor=3, floor_ms=5)     # no reply at all


def test_a_check_sends_the_gates_own_minimum_of_requests_with_the_workloads_timeout():
    plan = context.Plan(duration_s=5, min_requests_per_step=10, step_timeout_s=60)
    gate = gate_plan(plan, context.Gate(gate_min_requests=3))
    assert plan.step_load(0.5, 1) == (10, 1)        # a step's minimum: 20 s at 0.5 req/s
    assert gate.step_load(0.5, 1) == (3, 1)         # the gate's: 6 s
    assert gate.step_load(150, 1) == (150, 1)       # a fast cell's check is its second at the rate
    assert gate.step_timeout_s == 0 and gate.duration_s == plan.duration_s
