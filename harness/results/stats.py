"""Intervals for figures measured in several rounds. Pure: numbers in, numbers out.

Two views of one cell's rounds: the median with a distribution-free interval from order statistics
(no assumption about the shape of the rounds' spread, but a wide interval for few rounds: three
rounds give [min, max] at 75 % confidence, 95 % needs six), and the geometric mean with a
t-interval on the log scale (saturation throughputs are positive and spread by ratios, so their
logarithms are the nearer to normal). Two apps are compared by the geometric mean of their
per-round ratios (paired within a round, so that what shifted a whole round cancels out), and a
difference is called real only when that interval excludes 1.
"""
import math
import statistics
from dataclasses import dataclass

CONFIDENCE = 0.95


def distributions():
    """scipy.stats, imported where an interval is computed: its import takes about a second, which
    every `python -m harness` paid at its start (a sweep imports this module through its schedule)."""
    from scipy import stats
    return stats


def t_critical(confidence, degrees):
    """Student's t beyond which each tail holds (1 - confidence) / 2, for a two-sided interval."""
    return distributions().t.ppf((1 + confidence) / 2, degrees)


@dataclass(frozen=True)
class Interval:
    estimate: float
    low: float = None     # None when one value cannot give an interval
    high: float = None
    confidence: float = None
    p_value: float = None  # of the hypothesis that the true value is 1 (a ratio's "no difference"), where tested

    @property
    def half_width(self):
        """Half the interval's width relative to the estimate (0.1: about +-10 %)."""
        if self.low is None:
            return None
        return (self.high - self.low) / 2 / self.estimate

    def excludes(self, value):
        return self.low is not None and not self.low <= value <= self.high

    def overlaps(self, other):
        """Whether the two intervals share any value (a lone estimate is its own interval)."""
        def ends(interval):
            return (interval.low, interval.high) if interval.low is not None else (interval.estimate,) * 2
        (low, high), (other_low, other_high) = ends(self), ends(other)
        return low <= other_high and other_low <= high


def median_coverage(n, k):
    """The probability that [x_(k), x_(n-k+1)] of n sorted values holds the median of their
    distribution: 1 - 2 P(Binomial(n, 1/2) <= k - 1)."""
    return 1 - 2 * distributions().binom.cdf(k - 1, n, 0.5)


def median_interval(values, confidence=CONFIDENCE):
    """The median, and the narrowest symmetric order-statistic interval that covers the median with
    at least `confidence`; with too few values for that, [min, max] and the confidence it has."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        raise ValueError("no values")
    median = statistics.median(ordered)
    if n == 1:
        return Interval(median)
    k = 1
    while k + 1 <= n // 2 and median_coverage(n, k + 1) >= confidence:
        k += 1
    return Interval(median, ordered[k - 1], ordered[n - k], round(float(median_coverage(n, k)), 4))


def geometric_interval(values, confidence=CONFIDENCE):
    """The geometric mean and its t-interval on the log scale (Student's t, n - 1 degrees of
    freedom). Values must be positive."""
    if not values or min(values) <= 0:
        raise ValueError(f"geometric interval of non-positive or no values: {values}")
    logs = [math.log(value) for value in values]
    centre = statistics.fmean(logs)
    if len(logs) == 1:
        return Interval(math.exp(centre))
    error = statistics.stdev(logs) / math.sqrt(len(logs))
    spread = t_critical(confidence, len(logs) - 1) * error
    return Interval(math.exp(centre), math.exp(centre - spread), math.exp(centre + spread), confidence,
                    t_p_value(centre, error, len(logs) - 1))


def t_p_value(centre, error, degrees):
    """Student's two-sided p that a log-scale mean `centre` with standard error `error` comes from a true
    mean of 0 (a ratio of 1): the test its t-interval inverts, so that p < 1 - confidence exactly when
    the interval excludes 1."""
    if error == 0:
        return 1.0 if centre == 0 else 0.0
    return float(2 * distributions().t.sf(abs(centre) / error, degrees))


def holm(p_values):
    """Holm's step-down adjustment of a family's p-values, in their order (S. Holm, "A simple
    sequentially rejective multiple test procedure", Scand. J. Statist. 6, 1979): the smallest times
    the family's size, the next times one fewer, each at least the one before. An adjusted p below
    1 - confidence decides its comparison with a chance of one false "decided" in the whole family
    at most 1 - confidence, whatever the comparisons' dependence; Bonferroni's is the same bound and
    never decides more."""
    order = sorted(range(len(p_values)), key=lambda index: p_values[index])
    adjusted, running = [None] * len(p_values), 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def ratio_interval(pairs, confidence=CONFIDENCE, first=None):
    """The geometric mean of a/b over (a, b) pairs measured in the same round, with its interval
    (first: Stein's, stein_interval, when the rounds were added by ROUNDS=auto)."""
    ratios = [a / b for a, b in pairs]
    return stein_interval(ratios, first, confidence) if first else geometric_interval(ratios, confidence)


# ROUNDS=auto: Stein's two-stage procedure (C. Stein, "A two-sample test for a linear hypothesis
# whose power is independent of the variance", Ann. Math. Statist. 16, 1945). The first `first`
# rounds alone decide how many rounds a cell gets in all; the interval then takes its spread from
# those first rounds only, with their degrees of freedom, and its centre from every round. Because
# the count depends on the first rounds alone, looking at them does not spoil the confidence, as
# "add rounds until the interval is narrow enough" would.

def stein_rounds(first_values, target, most, confidence=CONFIDENCE):
    """How many rounds in all Stein's procedure gives a cell whose first rounds read first_values, for
    a geometric interval within +-target (0.10: the ends within 10 % of the estimate): at least as
    many as it has, at most `most`."""
    first = len(first_values)
    spread = statistics.stdev(math.log(value) for value in first_values)
    t = t_critical(confidence, first - 1)
    return min(most, max(first, math.ceil((t * spread / math.log(1 + target)) ** 2)))


def stein_interval(values, first, confidence=CONFIDENCE):
    """The geometric mean of all `values` and Stein's interval: the log-scale spread of the first
    `first` values alone, with their first - 1 degrees of freedom, over the square root of all."""
    if len(values) <= first:
        return geometric_interval(values, confidence)
    logs = [math.log(value) for value in values]
    centre = statistics.fmean(logs)
    width = t_critical(confidence, first - 1) * statistics.stdev(logs[:first]) / math.sqrt(len(logs))
    return Interval(math.exp(centre), math.exp(centre - width), math.exp(centre + width), confidence)


def rounds_for(values, relative_half_width, confidence=CONFIDENCE):
    """How many rounds a geometric t-interval needs to be within +-relative_half_width (0.10: the
    interval's ends within 10 % of the estimate), at the spread these values show; None when they
    show none to go on (fewer than two values)."""
    if len(values) < 2:
        return None
    spread = statistics.stdev(math.log(value) for value in values)
    target = math.log(1 + relative_half_width)
    n = 2
    while t_critical(confidence, n - 1) * spread / math.sqrt(n) > target:
        n += 1
    return n
