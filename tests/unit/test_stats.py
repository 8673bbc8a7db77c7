"""The rounds' statistics on fixed inputs with known answers (binomial and t tables)."""
import pytest

from harness.results.stats import (geometric_interval, holm, median_coverage, median_interval, ratio_interval,
                                   rounds_for)


def test_three_rounds_give_min_to_max_at_75_percent():
    interval = median_interval([1818, 1533, 2035])
    assert (interval.estimate, interval.low, interval.high, interval.confidence) == (1818, 1533, 2035, 0.75)


def test_six_rounds_are_the_fewest_for_95_percent():
    assert median_coverage(5, 1) == pytest.approx(1 - 2 / 32)      # 0.9375: five are not enough
    interval = median_interval([6, 1, 5, 2, 4, 3])
    assert (interval.estimate, interval.low, interval.high) == (3.5, 1, 6)
    assert interval.confidence == pytest.approx(1 - 2 / 64, abs=1e-4)


def test_ten_rounds_drop_the_outermost_value_on_each_side():
    # P(Binomial(10, 1/2) <= 1) = 11/1024: [x(2), x(9)] covers with 97.85 %; [x(3), x(8)] only 89.06 %.
    interval = median_interval(list(range(1, 11)))
    assert (interval.low, interval.high) == (2, 9)
    assert interval.confidence == pytest.approx(1 - 2 * 11 / 1024, abs=1e-4)


def test_one_round_has_no_interval():
    for interval in (median_interval([42]), geometric_interval([42])):
        assert interval.estimate == pytest.approx(42) and interval.low is interval.half_width is None
        assert not interval.excludes(1)


def test_geometric_interval_is_a_t_interval_on_the_log_scale():
    # logs 0, ln 10, ln 100: mean ln 10, sd ln 10; t(0.975, 2) = 4.302653 -> ln 10 +- 5.71992.
    interval = geometric_interval([1, 10, 100])
    assert interval.estimate == pytest.approx(10)
    assert interval.low == pytest.approx(10 * 2.718281828 ** -5.71992, rel=1e-4)
    assert interval.high == pytest.approx(10 * 2.718281828 ** 5.71992, rel=1e-4)


def test_a_ratio_is_real_only_when_its_interval_excludes_one():
    steady = ratio_interval([(2000, 1000), (2100, 1000), (1900, 1000)])
    assert steady.estimate == pytest.approx(2.0, rel=0.01) and steady.excludes(1)
    noise = ratio_interval([(1100, 1000), (900, 1000), (1050, 1000)])
    assert not noise.excludes(1)


def test_a_ratios_p_value_is_the_t_test_its_interval_inverts():
    # logs 0, ln 10, ln 100: t = ln 10 / (ln 10 / sqrt 3) = 1.7320508 on 2 degrees of freedom, two-sided p 0.2254.
    assert geometric_interval([1, 10, 100]).p_value == pytest.approx(0.22540, abs=1e-4)
    for values in ([1.9, 2.0, 2.1], [0.9, 1.1, 1.05], [1.02, 1.31, 1.18, 0.97], [1.0, 1.0]):
        interval = geometric_interval(values)
        assert (interval.p_value < 0.05) == interval.excludes(1), values


def test_holm_multiplies_the_smallest_by_the_familys_size_and_never_lets_a_larger_p_fall_below_it():
    # Sorted 0.01, 0.02, 0.03, 0.2: times 4, 3, 2, 1 -> 0.04, 0.06, 0.06 (held up by the one before), 0.2.
    assert holm([0.03, 0.01, 0.2, 0.02]) == pytest.approx([0.06, 0.04, 0.2, 0.06])
    assert holm([0.6, 0.9]) == pytest.approx([1.0, 1.0]), "capped at 1"
    assert holm([0.03]) == [0.03], "a family of one is its own"
    assert holm([]) == []


def test_rounds_needed_for_ten_percent_at_a_given_spread():
    # Rounds 1,000 and 1,200: sd of logs 0.12892; n = 3 gives 4.3027 * 0.12892 / 1.732 = 0.320 > ln 1.1,
    # n = 4: 3.1824 * 0.12892 / 2 = 0.205, n = 5: 0.160, n = 6: 0.135, n = 7: 0.119, n = 8: 0.108,
    # n = 9: 0.0991 > 0.0953, n = 10: 0.0922 <= 0.0953.
    assert rounds_for([1000, 1200], 0.10) == 10
    assert rounds_for([1000], 0.10) is None


def test_non_positive_figures_are_refused():
    with pytest.raises(ValueError):
        geometric_interval([0, 10])
