"""The speed canary's judgement, on known answers: which figures are readings, a CPU's reference speed
over the run, a step's speed and when the machine counts as slower; the history a resumed run keeps."""
import pytest

from harness.judge import speed
from harness.measure import canary
from harness.results import speed as speed_records
from harness.results.calibration import calibration
from harness.results.records import CellKey, CellSummary
from harness.results.speed import SpeedHistory


def test_readings_are_the_canarys_times_per_cpu_here_or_on_a_host():
    figures = {"canary_cpu1_before_ms": 3.1, "canary_cpu1_after_ms": 3.4, "canary_cpu0_before_ms": 2.9,
               "web_canary_cpu1_after_ms": 3.0, "canary_busy": 1, "apache_cpu_s": 1.5, "canary_cpu2_after_ms": None}
    assert speed_records.readings(figures) == {"CPU1": [3.1, 3.4], "CPU0": [2.9], "web CPU1": [3.0]}


def test_a_cpus_reference_is_a_high_quantile_of_its_speed_once_it_has_enough_readings():
    times = [3.0, 3.1, 2.9, 3.2, 3.0, 3.05, 2.95, 3.3, 6.0, 3.1, 2.98]
    # Eleven readings: the tenth percentile of the times is the second fastest, not the luckiest one.
    assert speed_records.reference_ms(times) == 2.95
    assert speed_records.references({"CPU1": times, "CPU0": [3.0, 3.1, 3.2, 3.0]}) == {"CPU1": 2.95}


def test_a_step_is_slower_when_any_cpu_ran_under_the_threshold_of_its_reference():
    reference = {"CPU0": 3.0, "CPU1": 2.8}
    quick = {"canary_cpu0_before_ms": 3.1, "canary_cpu0_after_ms": 3.2, "canary_cpu1_before_ms": 2.9}
    assert speed.speeds(quick, reference) == {"CPU0": pytest.approx(0.952, abs=1e-3), "CPU1": pytest.approx(0.966, abs=1e-3)}
    assert speed.slowdown(speed.speeds(quick, reference), 0.85) is None
    # A blip in one reading (4.0 ms on a quiet host) is averaged with the other: 0.84, near the threshold.
    blip = {**quick, "canary_cpu1_after_ms": 3.75}
    assert speed.speeds(blip, reference)["CPU1"] == pytest.approx(0.842, abs=1e-3)
    # The round-1 PHP cell of issue 32: 51 against 32 ms of CPU per request, a CPU at 0.63 of its speed all along.
    slow = {**quick, "canary_cpu1_before_ms": 4.45, "canary_cpu1_after_ms": 4.45}
    assert speed.slowdown(speed.speeds(slow, reference), 0.85) == "machine slower: CPU1 at 0.63 of its reference (< 0.85)"
    assert speed.slowdown(speed.speeds(slow, reference), 0) is None, "0 records the speed without judging it"
    assert speed.speeds(slow, {}) == {}, "no reference yet: nothing to judge"


def test_the_runs_readings_are_kept_and_read_back_by_a_resumed_run(tmp_path):
    history = SpeedHistory(tmp_path / "canary.json")
    for number in range(5):
        history.add({"canary_cpu1_before_ms": 3.0 + number / 10, "web_canary_cpu1_after_ms": 2.0})
    resumed = SpeedHistory(tmp_path / "canary.json")
    assert resumed.references() == {"CPU1": 3.0, "web CPU1": 2.0} and resumed.calibrated()
    assert speed.speeds({"canary_cpu1_before_ms": 3.0, "canary_cpu1_after_ms": 9.0}, resumed.references()) == {"CPU1": 0.5}


def test_the_canarys_output_and_the_runnable_count_are_read_as_printed():
    output = "5913 3059 2995\n2911 3050 2990\n"  # wall times, then the canary's own CPU times (us)
    assert canary.rep_times_ms(output, throttled=False) == [2.911, 3.05, 2.99]
    assert canary.rep_times_ms(output, throttled=True) == [5.913, 3.059, 2.995], "a quota's wait is slowness"
    stat = "cpu  1 2 3 4\ncpu0 1 2 3 4\nctxt 884211\nprocs_running 3\nprocs_blocked 0\n"
    assert canary.runnable(stat) == 3
    assert canary.reading_name(1, "after") == "canary_cpu1_after_ms"


def test_the_calibration_pools_cells_by_their_own_median_cost_and_correlates_it_with_slowness():
    php, servlet = CellKey("php", "innodb", "rows"), CellKey("servlet", "myisam", "single")

    def row(key, round_, speed, cost):
        return CellSummary(key.app, key.engine, key.workload, "located", saturation_rps=20.0, round=round_,
                           machine_speed_saturation=speed, server_cpu_ms_per_reply_saturation=cost)
    # Issue 32's PHP cell: 51 ms a request in round 1, 32 in round 3; the servlet's cost is a tenth of it.
    rows = [row(php, 1, 0.63, 51.0), row(php, 2, 0.9, 36.0), row(php, 3, 1.0, 32.0),
            row(servlet, 1, 1.0, 0.5), row(servlet, 2, 0.8, 0.6), row(servlet, 3, 0.95, 0.52),
            row(CellKey("soap", "myisam", "single"), 1, 0.7, 3.0)]  # one round: no cell median to go by
    found = calibration(rows)
    assert found.cells == 2 and len(found.points) == 6
    assert found.points[0] == (php, 1, pytest.approx(1 / 0.63), pytest.approx(51 / 36))
    assert found.r == pytest.approx(0.99, abs=0.01)
    flat = calibration([row(php, number, 1.0, cost) for number, cost in ((1, 50.0), (2, 30.0), (3, 40.0))])
    assert flat.r is None, "a canary that never moved predicts nothing"
