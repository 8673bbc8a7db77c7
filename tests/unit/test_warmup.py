"""When a cell counts as warmed up: windows that agree, on a curve recorded here."""
from harness.probe import steady

# The plain servlet after a Tomcat restart, wrk at 16 connections, consecutive 2 s windows (req/s).
AFTER_RESTART = [232.47, 260.69, 360.94, 329.61, 426.57, 487.42, 702.16, 938.38, 1081.87, 920.85, 1040.77,
                 1103.66, 1149.81, 1053.28, 1037.37, 1052.95]


def first_steady(windows, count=3, tolerance=0.1):
    return next(index for index in range(1, len(windows) + 1) if steady(windows[:index], count, tolerance))


def test_a_jvm_warming_up_is_steady_only_once_its_windows_level_off():
    assert first_steady(AFTER_RESTART) == 14  # 1,104, 1,150, 1,053: 28 s in
    assert first_steady(AFTER_RESTART, tolerance=0.05) == 16  # 1,053, 1,037, 1,053


def test_fewer_windows_than_asked_or_a_zero_window_are_never_steady():
    assert not steady([1000, 1000], 3, 0.1)
    assert not steady([0, 0, 0], 3, 0.1)
    assert steady([100, 105, 109.9], 3, 0.1) and not steady([100, 105, 110.1], 3, 0.1)
