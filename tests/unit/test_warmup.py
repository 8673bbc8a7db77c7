"""When a cell counts as warmed up: windows that agree, and on a JIT server a quiet compiler, on
curves recorded here; what a JVM's warm-up for all its cells drives, and on which CPUs."""
from pathlib import Path

from harness.measure.jit import compiler_quiet, compiler_seconds_of, perf_counters, step_figures
from harness.results.records import CellKey
from harness.run.jvm_warmup import rotation, servers_of, widened
from harness.run.context import Warmup
from harness.run.probe import steady, warm_enough

FIXTURES = Path(__file__).parent.parent / "fixtures" / "jvm"

# The plain servlet after a Tomcat restart, wrk at 16 connections, consecutive 2 s windows (req/s).
AFTER_RESTART = [232.47, 260.69, 360.94, 329.61, 426.57, 487.42, 702.16, 938.38, 1081.87, 920.85, 1040.77,
                 1103.66, 1149.81, 1053.28, 1037.37, 1052.95]

# The same after another restart, 5 s windows, and the JVM's cumulative compile seconds (jstat -compiler)
# read after each window; the first window is left out, so that a reading precedes every window.
SERVLET_5S = [273, 427, 671, 712, 625, 696, 806, 913, 907, 1015, 1153, 1179, 1210, 1264, 1264, 1336, 1391,
              1454, 1526, 1526, 1695, 1575, 1597, 1494, 1539]
SERVLET_COMPILE_S = [13.16, 23.07, 32.96, 38.75, 43.97, 49.24, 54.74, 60.04, 65.14, 70.10, 75.50, 80.70, 86.21,
                     91.23, 96.46, 101.76, 106.50, 111.62, 112.78, 112.78, 112.96, 112.96, 113.44, 113.44,
                     113.45, 113.51]

# PHP's 16,000-row pages on InnoDB after a round's restart, wrk at 4 connections, 3 s windows (req/s):
# 32 to 52 replies a window (default run turns-default-xeon-20261129, Intel Xeon, canary 3.61 ms).
PHP_LARGE_3S = [10.55, 10.62, 11.98, 10.63, 7.62, 8.95, 10.64, 11.96, 11.96, 10.66, 12.26, 13.33, 11.96, 12.9,
                14.66, 13.32, 12.0, 16.0, 17.28]


def first_steady(windows, count=3, tolerance=0.1, window_s=1, counting_sds=0):
    return next((index for index in range(1, len(windows) + 1)
                 if steady(windows[:index], count, tolerance, window_s, counting_sds)), None)


def first_warm(windows, compile_seconds, warmup, window_s):
    return next(index for index in range(1, len(windows) + 1)
                if warm_enough(windows[:index], compile_seconds and compile_seconds[:index + 1], warmup, window_s))


def test_a_jvm_warming_up_is_steady_only_once_its_windows_level_off():
    assert first_steady(AFTER_RESTART) == 14  # 1,104, 1,150, 1,053: 28 s in
    assert first_steady(AFTER_RESTART, tolerance=0.05) == 16  # 1,053, 1,037, 1,053


def test_a_few_dozen_replies_a_window_are_steady_within_their_counting_noise():
    # Within 10 % they never were, and the warm-up ran to its cap: 57 s.
    assert first_steady(PHP_LARGE_3S, window_s=3) is None
    # 31.7, 31.9 and 35.9 replies: 4.3 apart, within twice the square root of 35.9 (12.0).
    assert first_steady(PHP_LARGE_3S, window_s=3, counting_sds=2) == 3
    # 30 and 42.9 replies: 12.9 apart, within 13.1; 30 and 43.5: 13.5, over 13.2.
    assert steady([10.0, 10.0, 14.3], 3, 0.1, window_s=3, counting_sds=2)
    assert not steady([10.0, 10.0, 14.5], 3, 0.1, window_s=3, counting_sds=2)
    # Thousands of replies a window: their counting noise is under the tolerance, which alone decides.
    assert first_steady(AFTER_RESTART, window_s=2, counting_sds=2) == first_steady(AFTER_RESTART) == 14


def test_fewer_windows_than_asked_or_a_zero_window_are_never_steady():
    assert not steady([1000, 1000], 3, 0.1)
    assert not steady([0, 0, 0], 3, 0.1)
    assert steady([100, 105, 109.9], 3, 0.1) and not steady([100, 105, 110.1], 3, 0.1)


def test_the_compile_time_read_from_a_jvm_s_counters_is_the_one_jstat_printed():
    # A warm Tomcat's hsperfdata file and `jstat -compiler` of the same idle JVM, recorded together.
    counters = perf_counters((FIXTURES / "hsperfdata-tomcat").read_bytes())
    header, values = (line.split() for line in (FIXTURES / "jstat-compiler-same-jvm.txt").read_text().splitlines()[:2])
    assert round(compiler_seconds_of(counters), 2) == float(values[header.index("Time")])
    assert counters["sun.ci.totalCompiles"] == int(values[header.index("Compiled")])


def test_bytes_that_are_no_jvm_s_counters_give_no_compile_time():
    assert perf_counters(b"") == {} and perf_counters(b"\0" * 64) == {}
    assert compiler_seconds_of({}) is None and compiler_seconds_of({"java.ci.totalTime": 5}) is None


def test_the_compiler_is_quiet_when_it_worked_at_most_its_share_of_the_last_windows():
    assert compiler_quiet([100.0, 100.2, 100.4, 100.7], window_s=5, count=3, share=0.05)  # 0.7 s of 15
    assert not compiler_quiet([100.0, 100.2, 100.4, 100.8], window_s=5, count=3, share=0.05)
    assert not compiler_quiet([100.0, 100.0, 100.0], window_s=5, count=3, share=0.05)  # too few readings
    assert not compiler_quiet([None, 100.0, 100.0, 100.0], window_s=5, count=3, share=0.05)


def test_a_jvm_is_warm_only_once_its_compiler_is_quiet_not_on_a_plateau_of_its_windows():
    warmup = Warmup(warmup_windows=3, warmup_tolerance=0.1, jit_quiet_share=0.05)
    # By its windows alone the servlet was steady 65 s in, at 1,153-1,210 req/s, while its compiler
    # still worked full time; it is warm at 120 s, near 1,600.
    assert first_warm(SERVLET_5S, None, warmup, 5) == 13
    assert first_warm(SERVLET_5S, SERVLET_COMPILE_S, warmup, 5) == 23
    assert SERVLET_5S[22] == 1597 and SERVLET_5S[12] == 1210


def test_a_jvm_warm_up_rotates_one_cell_per_app_and_workload_on_its_own_and_the_client_s_cpus():
    cells = [CellKey(app, engine, workload) for app in ("servlet", "soap") for engine in ("myisam", "innodb")
             for workload in ("single", "large")]
    assert rotation(cells) == [CellKey("servlet", "myisam", "single"), CellKey("servlet", "myisam", "large"),
                               CellKey("soap", "myisam", "single"), CellKey("soap", "myisam", "large")]
    assert widened("0", "1") == "1,0"
    assert widened("none", "1") is None and widened("0", "none") is None and widened("", "") is None


def test_only_the_jit_servers_cells_are_warmed_as_one_jvm():
    cells = [CellKey("php", "myisam", "single"), CellKey("servlet", "myisam", "single"),
             CellKey("static-apache", "none", "single"), CellKey("soap", "innodb", "large")]
    assert servers_of(cells) == {"tomcat": [CellKey("servlet", "myisam", "single"), CellKey("soap", "innodb", "large")]}


def test_what_a_jvm_did_over_a_step_is_read_as_jstat_reads_it():
    # A Tomcat's counters and `jstat -gc` / `jstat -compiler` of the same JVM, recorded before and after
    # 8 s of 16,000-row pages and one forced full collection (jcmd GC.run).
    before, after = (perf_counters((FIXTURES / f"hsperfdata-tomcat-{when}-burst").read_bytes())
                     for when in ("before", "after"))
    jstat = {when: jstat_columns(FIXTURES / f"jstat-gc-{when}-burst.txt") for when in ("before", "after")}
    figures = step_figures(before, after)
    assert figures["gc_young_n"] == jstat["after"]["YGC"] - jstat["before"]["YGC"] == 19
    assert figures["gc_full_n"] == jstat["after"]["FGC"] - jstat["before"]["FGC"] == 1
    assert abs(figures["gc_full_s"] - (jstat["after"]["FGCT"] - jstat["before"]["FGCT"])) < 0.002
    assert abs(figures["gc_young_s"] - (jstat["after"]["YGCT"] - jstat["before"]["YGCT"])) < 0.002
    assert abs(figures["compile_s"] - (jstat["after"]["Time"] - jstat["before"]["Time"])) < 0.02
    assert figures["safepoint_s"] >= figures["gc_full_s"]  # every collection stops the threads at a safepoint
    assert step_figures({}, after) == {} and step_figures(before, {}) == {}


def jstat_columns(path):
    """{column: number} of the jstat tables in a file (a header line, then a values line, each table)."""
    lines = path.read_text().splitlines()
    columns = {}
    for header, values in zip(lines[::2], lines[1::2]):
        for name, value in zip(header.split(), values.split()):
            try:
                columns[name] = float(value)
            except ValueError:
                pass
    return columns
