"""The speed-dependent bounds' bookkeeping (tests/margins.py): what passes, the headroom, the summary."""
import pytest

from tests import margins
from tests.margins import Margin, check, summary


def test_a_ceiling_holds_up_to_its_bound_and_says_how_far_the_figure_could_grow():
    assert Margin("reply s", 2.5, 10, at_most=True).holds and Margin("reply s", 10, 10, at_most=True).holds
    assert not Margin("reply s", 10.5, 10, at_most=True).holds
    assert Margin("reply s", 2.5, 10, at_most=True).headroom == 4


def test_a_floor_holds_down_to_its_bound_and_says_how_far_the_figure_could_shrink():
    assert Margin("rate", 30, 20, at_most=False).holds and not Margin("rate", 19, 20, at_most=False).holds
    assert Margin("rate", 30, 20, at_most=False).headroom == 1.5


def test_a_failed_bound_names_its_figure_bound_and_cpu_and_is_kept_for_the_summary(monkeypatch):
    monkeypatch.setattr(margins, "MEASURED", [])
    with pytest.raises(AssertionError, match=r"rate: 19 \(bound >= 20, headroom 0.9x\), on .+"):
        check(Margin("rate", 19, 20, at_most=False))
    assert margins.MEASURED == [Margin("rate", 19, 20, at_most=False)]


def test_the_summary_gives_each_bound_once_tightest_first_with_its_range():
    lines = summary([Margin("fault s", 0.5, 10, True), Margin("fault s", 2.0, 10, True),
                     Margin("rate", 30, 20, False), Margin("late s", 11, 10, True)])
    assert lines == ["!! late s: 11 (bound <= 10, headroom 0.9x)",
                     "   rate: 30 (bound >= 20, headroom 1.5x)",
                     "   fault s: 2 figures from 0.5 to 2, tightest 2 (bound <= 10, headroom 5.0x)"]
