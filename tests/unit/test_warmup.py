"""When a cell counts as warmed up: windows that agree, on a curve recorded here, and for the first
cell of a JVM app, a minimum time."""
from types import SimpleNamespace

from harness.guard import Guard
from harness.options import Options
from harness.probe import steady, warm_enough
from harness.results.records import CellKey
from stack import lifecycle, registry

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


def test_a_jit_server_s_first_cell_warms_on_after_its_windows_agree():
    options = Options(apps=("servlet",), warmup_windows=3, warmup_tolerance=0.1)
    agreeing = AFTER_RESTART[:14]  # steady at 28 s of 2 s windows
    assert warm_enough(agreeing, 28.0, options)
    assert not warm_enough(agreeing, 28.0, options, at_least_s=30)
    assert warm_enough(AFTER_RESTART, 32.0, options, at_least_s=30)
    assert not warm_enough(AFTER_RESTART[:8], 60.0, options, at_least_s=30)  # still climbing


def test_only_the_first_cell_of_a_jvm_app_since_its_server_started_warms_longer(monkeypatch):
    tomcat_pid = [4242]
    monkeypatch.setattr(lifecycle.SERVERS["tomcat"], "pid", lambda: tomcat_pid[0])
    monkeypatch.setattr(lifecycle.SERVERS["apache"], "pid", lambda: 77)
    guard = Guard(Options(apps=("php", "servlet"), jit_warmup_s=30), say=print)

    def cell(app):
        return SimpleNamespace(key=CellKey(app, "myisam", "single"), server=registry.server_of(app))

    assert guard.jit_minimum(cell("servlet")) == 30
    assert guard.jit_minimum(cell("servlet")) == 0
    assert guard.jit_minimum(cell("pooled-servlet")) == 30
    assert guard.jit_minimum(cell("php")) == 0
    tomcat_pid[0] = 5151  # restarted: compiled code is gone
    assert guard.jit_minimum(cell("servlet")) == 30
