"""When other work shared the CPUs, a step is disturbed: the limits at their edges."""
from harness.judge.disturbance import Limits, disturbance, redone_while_disturbed

LIMITS = Limits(max_steal_pct=2, max_other_pct=5)


def test_a_quiet_step_is_not_disturbed():
    assert disturbance({"other_cpu_s": 0.29, "steal_max_s": 0.11, "kernel_threads_cpu_s": 2.0}, 6, LIMITS) is None


def test_other_processes_over_five_percent_of_a_cpu_disturb_the_step_and_are_named():
    reason = disturbance({"other_cpu_s": 0.31, "steal_max_s": 0.0}, 6, LIMITS, "busiest other process: gcc (0.3 s)")
    assert reason == "other processes used 5.2 % of a CPU (> 5 %); busiest other process: gcc (0.3 s)"


def test_time_stolen_by_the_hypervisor_disturbs_the_step():
    assert disturbance({"other_cpu_s": 0.0, "steal_max_s": 0.13}, 6, LIMITS) == \
        "the hypervisor stole 2.2 % of a lab CPU (> 2 %)"


def test_a_step_recorded_before_the_check_existed_is_not_judged_disturbed():
    assert disturbance({"reply_rate": 100.0}, 6, LIMITS) is None


def test_a_disturbed_try_is_redone_until_quiet_or_out_of_redos():
    def tries(*disturbed):
        left = iter(disturbed)
        return redone_while_disturbed(lambda: next(left), lambda shared: shared, max_redos=2)
    assert tries(False) == (False, 0)
    assert tries(True, False) == (False, 1)
    assert tries(True, True, True) == (True, 2), "the last try is kept, still flagged"
