"""The rate plans converge within their precision and never repeat a rate."""
from collections import Counter

import pytest

from harness.judge.verdict import CLIENT_LIMITED, FAIL, PASS
from harness.run import procedure
from harness.run.context import Plan
from harness.run.planner import AdaptivePlan, LinearPlan, expected_capacity, round_rate, walk
from harness.run.procedure import plan_for


def run(plan, capacity, client_limit=float("inf"), noise=None):
    """Drive a plan against a model server that passes every rate up to `capacity`; `noise` maps
    (rate, try) to a verdict that overrides the model's, as one noisy or hysteretic step would."""
    tries = Counter()

    def take(rate):
        tries[rate] += 1
        assert tries[rate] <= 2, f"rate {rate} run a third time"
        assert sum(tries.values()) < 40
        verdict = CLIENT_LIMITED if rate > client_limit else PASS if rate <= capacity else FAIL
        return (noise or {}).get((rate, tries[rate]), verdict)
    return walk(plan, take)


def repeated(history):
    return sorted({rate for rate, _ in history if sum(1 for seen, _ in history if seen == rate) == 2})


@pytest.mark.parametrize("capacity,start", [(480, 100), (3.7, 2), (4900, 100), (30, 100), (1.2, 2),
                                            (1000, 1000), (2600, 2000)])
def test_adaptive_converges_within_precision(capacity, start):
    plan = AdaptivePlan(start=start, precision=0.05)
    history = run(plan, capacity)
    low, high = AdaptivePlan.bracket(history)
    assert low <= capacity < high
    assert high <= round_rate(low * 1.05) or round_rate((low * high) ** 0.5) in (low, high)
    assert repeated(history) == [low, high], "both ends of the bracket are confirmed by a second try"
    assert len(history) <= 16


def test_adaptive_seeded_near_capacity_takes_few_steps():
    history = run(AdaptivePlan(start=0.85 * 2000, factor=1.25), 2000)
    assert len(history) <= 9


def test_an_early_spurious_failure_is_repeated_and_the_search_goes_on_above_it():
    # Capacity 2,000; the first try at 1,700 fails (a noisy step): alone it would cap the cell at 1,653.
    history = run(AdaptivePlan(start=1700, factor=1.25, max_confirm_steps=10), 2000, noise={(1700, 1): FAIL})
    assert history == [(1700, FAIL), (1360, PASS), (1521, PASS), (1608, PASS), (1653, PASS),
                       (1700, PASS),  # the repeat of the bound from above disagrees: search on
                       (2125, FAIL), (1901, PASS), (2010, FAIL), (1955, PASS), (2010, FAIL), (1955, PASS)]
    assert AdaptivePlan.bracket(history) == (1955, 2010)


def test_a_lucky_pass_is_repeated_and_the_bracket_moves_down():
    # Capacity 1,000, but the first try at 1,006 passes (a lucky step).
    history = run(AdaptivePlan(start=900, factor=1.25, max_confirm_steps=10), 1000, noise={(1006, 1): PASS})
    assert history == [(900, PASS), (1125, FAIL), (1006, PASS), (1064, FAIL), (1035, FAIL), (1035, FAIL),
                       (1006, FAIL),  # the repeat of the saturation step disagrees: search below
                       (952, PASS), (979, PASS), (979, PASS)]
    assert AdaptivePlan.bracket(history) == (979, 1006)


def test_the_repeats_after_the_bracket_first_closed_are_capped():
    # As above, with the default cap of 4: the search reopened by the repeat repeats nothing after
    # 4 more steps, only closes its bracket.
    history = run(AdaptivePlan(start=1700, factor=1.25), 2000, noise={(1700, 1): FAIL})
    assert history[5:] == [(1700, PASS), (2125, FAIL), (1901, PASS), (2010, FAIL), (1955, PASS)]
    assert AdaptivePlan.bracket(history) == (1955, 2010)


def test_a_bracket_a_capped_repeat_left_open_is_still_closed():
    # Run full14, servlet MyISAM single-row: the repeat of the failure at 1,004 passed, the ramp's
    # 1,255 passed, and the cap of 2 ended the cell there with nothing above it (wrk: 1,626).
    recorded = [(803, PASS), (1004, FAIL), (898, PASS), (950, PASS), (977, PASS), (1004, PASS), (1255, PASS)]
    plan = AdaptivePlan(start=803, factor=1.25, max_confirm_steps=2)
    assert plan.next(recorded) == 1569
    history = run(plan, 1400, noise={(1004, 1): FAIL})
    assert history[:7] == recorded
    low, high = AdaptivePlan.bracket(history)
    assert low <= 1400 < high <= low * 1.05
    assert repeated(history) == [1004], "past the cap nothing more is repeated"


def test_adaptive_stops_at_a_client_bound_ceiling_without_a_failure():
    history = run(AdaptivePlan(start=500), capacity=10_000, client_limit=2500)
    low, high = AdaptivePlan.bracket(history)
    assert dict(history)[high] == CLIENT_LIMITED
    assert FAIL not in dict(history).values()
    assert repeated(history) == [low], "a client-bound ceiling is not repeated, the pass below it is"


def test_adaptive_ramps_down_when_the_first_step_fails():
    history = run(AdaptivePlan(start=100), capacity=7)
    assert history[0] == (100, FAIL) and history[1] == (50, FAIL)
    low, _ = AdaptivePlan.bracket(history)
    assert low <= 7


def test_adaptive_gives_up_when_nothing_passes():
    history = run(AdaptivePlan(start=2, minimum=0.5), capacity=0.1)
    assert all(verdict == FAIL for _, verdict in history)
    assert history[-1][0] == 0.5


def test_linear_is_the_studys_plan():
    history = run(LinearPlan(start=1, step=1, maximum=10, stop_after_failures=2), capacity=4)
    assert [rate for rate, _ in history] == [1, 2, 3, 4, 5, 6]


def test_linear_stops_at_its_maximum():
    assert [rate for rate, _ in run(LinearPlan(10, 10, 30), capacity=1000)] == [10, 20, 30]


@pytest.mark.parametrize("capacity", [900, 1000, 1100])
def test_a_later_round_finds_its_own_pass_and_fail_near_the_earlier_figure_in_few_steps(capacity):
    plan = Plan(rounds=3)
    history = run(plan_for(plan, "single", estimate=1600, earlier=[(1000, 1600)]), capacity)
    low, high = AdaptivePlan.bracket(history)
    assert low <= capacity < high <= round_rate(low * (1 + plan.precision))
    assert len(history) <= 3 and repeated(history) == [], "the rounds are the repeats"


def test_a_later_round_scales_the_earlier_figures_by_its_own_warm_up():
    # Run rounds1, pooled servlet MyISAM single rows: round 1 found 4,146 after a probe of 4,507;
    # round 2's probe said 6,304, and its steps found 5,242 (0.95 x 4,146 = 3,939 took four ramps).
    assert expected_capacity([(4146.4, 4507.3)], 6303.52) == pytest.approx(5798.8, abs=0.1)
    assert expected_capacity([(1000, 1600), (1200, 1500), (900, None)], 1500) == pytest.approx(1068.75)
    assert expected_capacity([(1000, None), (1200, None)]) == 1100


def test_a_warm_up_far_off_the_earlier_ones_scales_by_no_more_than_the_limit():
    # Run rounds2, SOAP MyISAM single rows: round 1 found 953 after a probe of 1,185; round 2's first
    # cell after the restart plateaued at 324 (a JVM still compiling), and passed 740 thirteen ramps later.
    assert expected_capacity([(953.0, 1184.75)], 323.77, max_scale=1.4) == pytest.approx(953.0 / 1.4)
    assert expected_capacity([(10.0, 5.0)], 50.0, max_scale=1.4) == pytest.approx(14.0)


def test_only_a_single_round_run_confirms_its_brackets():
    single = plan_for(Plan(rounds=1), "single", estimate=1000)
    several = plan_for(Plan(rounds=3), "single", estimate=1000)
    assert single.max_confirm_steps == Plan().max_confirm_steps > 0
    assert several.max_confirm_steps == 0


def test_a_several_round_runs_confirmations_are_sweep_jsons_round_confirm_steps(monkeypatch):
    monkeypatch.setitem(procedure.plan_factors(), "round_confirm_steps", 2)
    assert plan_for(Plan(rounds=3), "single", estimate=1000).max_confirm_steps == 2
