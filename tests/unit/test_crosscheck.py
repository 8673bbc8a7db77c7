"""make crosscheck's pure parts: when the wrk ladder stops, and how well a run agrees with wrk."""
from harness.crosscheck import agreement, ladder_done


def test_the_ladder_goes_on_while_it_climbs_and_stops_after_two_levels_well_below_the_best():
    assert not ladder_done({1: 400.0, 2: 800.0}, drop=0.1)
    assert not ladder_done({1: 400.0, 2: 800.0, 4: 1500.0, 8: 1450.0}, drop=0.1)
    assert not ladder_done({1: 400.0, 2: 800.0, 4: 1500.0, 8: 1300.0, 16: 1460.0}, drop=0.1)
    assert ladder_done({1: 400.0, 2: 800.0, 4: 1500.0, 8: 1300.0, 16: 1200.0}, drop=0.1)


def test_agreement_is_the_median_and_the_lowest_ratio():
    rows = [{"sweep_over_wrk": 0.81}, {"sweep_over_wrk": 1.02}, {"sweep_over_wrk": 0.88}, {"sweep_over_wrk": None}]
    assert agreement(rows) == (0.88, 0.81)
    assert agreement([]) == (None, None)
