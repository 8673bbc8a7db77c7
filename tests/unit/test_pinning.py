"""The pinned virtual threads of a step, from real `jfr print --json` output (tests/fixtures/jfr/README.md)."""
import json

import pytest

from harness.measure.pinning import epoch_of, pinned_figures, seconds_of
from stack.settings import ROOT

JFR = ROOT / "tests" / "fixtures" / "jfr"


def events(name):
    return json.loads((JFR / name).read_text())["recording"]["events"]


PINNED_AT = epoch_of("2026-11-28T23:53:25.839185683Z")


def test_the_class_initializers_sleep_is_one_pinning_of_about_30_ms():
    figures = pinned_figures(events("pinned-in-class-init.json"), PINNED_AT - 1, PINNED_AT + 1)
    assert figures["vt_pinned"] == 1 and figures["vt_submit_failed"] == 0
    assert figures["vt_pinned_ms"] == pytest.approx(30.325, abs=0.001)


def test_an_event_outside_the_step_is_not_the_steps():
    assert pinned_figures(events("pinned-in-class-init.json"), PINNED_AT + 0.001, PINNED_AT + 10)["vt_pinned"] == 0
    assert pinned_figures(events("pinned-in-class-init.json"), PINNED_AT - 10, PINNED_AT - 0.001)["vt_pinned"] == 0


def test_a_loaded_pooled_servlet_on_virtual_threads_pinned_nothing():
    assert pinned_figures(events("pooled-servlet-java25-step.json"), 0, 2e9) == {
        "vt_pinned": 0, "vt_submit_failed": 0, "vt_pinned_ms": 0.0}


def test_jfr_timestamps_and_durations():
    assert epoch_of("1970-01-01T00:00:01.5Z") == 1.5
    assert seconds_of("PT0.03032504S") == pytest.approx(0.03032504)
    assert seconds_of("PT1H2M3.5S") == 3723.5
    with pytest.raises(ValueError):
        seconds_of("30 ms")
