"""Plans: what a loop over rates or levels visits next, from what it has taken so far, and `walk`, the
one runner that steps through any of them. Pure: a plan's `next(taken)` is its next visit, or None when
it is done; `taken` is the [(visit, result)] so far.

A saturation search's visits are offered rates and its results their verdicts (LinearPlan, ListedPlan,
AdaptivePlan: the procedure's); a fixed sequence's are whatever its loop names (`Sequence`: the
concurrency sweep's levels, `turns` of the agreement, the spread, the interleave and the profile's
overhead pairs); the cross-check's wrk ladder climbs until the rate falls, then repeats its best
(`LadderThenRepeats`)."""
import statistics
from collections import Counter
from typing import NamedTuple

from harness.results.records import CLIENT_LIMITED, FAIL, PASS
from harness.results.saturation import latest_verdicts


def round_rate(rate):
    """Rates httperf gets: one decimal below 10 req/s, whole numbers above."""
    return round(rate, 1) if rate < 10 else float(round(rate))


def expected_capacity(earlier, probe=None, max_scale=1.4):
    """A later round's estimate of a cell's saturation point, from its earlier rounds' (figure, probe)
    pairs: each figure scaled by how this round's warm-up estimate compares with that round's (a
    fresh JVM or process layout moves both alike), their median; without probes, the median figure.
    The scale is held within 1/max_scale..max_scale: a warm-up that moved further was a JVM still
    compiling, not a different server (docs/measurement-log.md has the runs)."""
    def scale(earlier_probe):
        return min(max_scale, max(1 / max_scale, probe / earlier_probe))
    scaled = [figure * scale(earlier_probe) for figure, earlier_probe in earlier if probe and earlier_probe]
    return statistics.median(scaled or [figure for figure, _ in earlier])


class LinearPlan:
    """The 2006 study's method: START, START+STEP, ... up to MAX, stopping after K failing steps."""

    def __init__(self, start, step, maximum, stop_after_failures=2):
        self.start, self.step, self.maximum = start, step, maximum
        self.stop_after_failures = stop_after_failures

    @classmethod
    def bracketing(cls, figure, count, low, high, stop_after_failures=2):
        """`count` rates evenly from low x figure to high x figure (STUDY=1, around the figure a run
        of the default method found): the maximum sits half a step past the last, so rounding the
        rates never drops it."""
        step = (high - low) * figure / (count - 1)
        return cls(low * figure, step, high * figure + step / 2, stop_after_failures)

    def next(self, history):
        failures = sum(1 for _, verdict in history if verdict in (FAIL, CLIENT_LIMITED))
        if failures >= self.stop_after_failures:
            return None
        rate = round_rate(self.start + self.step * len(history))
        return rate if rate <= self.maximum else None


class ListedPlan:
    """The offered rates given (RATES=), in order, stopping after K failing steps."""

    def __init__(self, rates, stop_after_failures=2):
        self.rates, self.stop_after_failures = tuple(rates), stop_after_failures

    def next(self, history):
        failures = sum(1 for _, verdict in history if verdict in (FAIL, CLIENT_LIMITED))
        if failures >= self.stop_after_failures or len(history) >= len(self.rates):
            return None
        return self.rates[len(history)]


class AdaptivePlan:
    """Ramp geometrically until the first step that does not pass, then bisect between the highest
    pass and the lowest non-pass above it until they are within `precision`. Then no single step
    decides: the bracket's two ends are each run once more (the failure above first). When a repeat
    disagrees, its verdict counts and the search goes on from the bracket it leaves; after
    max_confirm_steps steps past the bracket's first closing nothing more is repeated, but a bracket a
    repeat left open is still closed again, so no cell ends on a pass with nothing above it. An invalid (client-bound) step is a ceiling like a failure, but it is not repeated,
    and a cell whose ceiling is client-bound is reported as a lower bound, never as a saturation
    point."""

    def __init__(self, start, factor=2.0, precision=0.05, minimum=0.5, maximum=20000.0, max_steps=16,
                 max_confirm_steps=4):
        self.start, self.factor, self.precision = start, factor, precision
        self.minimum, self.maximum, self.max_steps = minimum, maximum, max_steps
        self.max_confirm_steps = max_confirm_steps

    @staticmethod
    def bracket(history):
        latest = latest_verdicts(history)
        passed = [rate for rate, verdict in latest.items() if verdict == PASS]
        low = max(passed) if passed else None
        ceilings = [rate for rate, verdict in latest.items()
                    if verdict in (FAIL, CLIENT_LIMITED) and (low is None or rate > low)]
        high = min(ceilings) if ceilings else None
        return low, high

    def next(self, history):
        if not history:
            return round_rate(self.start)
        if len(history) >= self.max_steps:
            return None
        closed = self.first_closed(history)
        confirms_spent = closed is not None and len(history) - closed >= self.max_confirm_steps
        tries = Counter(rate for rate, _ in history)
        low, high = self.bracket(history)
        if high is None:
            if low >= self.maximum:
                return None
            candidate = round_rate(min(low * self.factor, self.maximum))
        elif low is None:
            if high <= self.minimum:
                return None
            candidate = round_rate(max(high / self.factor, self.minimum))
        else:
            candidate = round_rate((low * high) ** 0.5)
            if self.converged(low, high) or candidate in (low, high):
                return None if confirms_spent else self.repeat(history, tries, low, high)
        return None if candidate in tries else candidate

    def converged(self, low, high):
        # Rounded like the rates themselves: a ramp by exactly 1 + precision must count as converged.
        return high <= round_rate(low * (1 + self.precision))

    def first_closed(self, history):
        """How many steps it took the bracket to close first; None while it never has. Repeats
        get at most max_confirm_steps after that: near saturation a noisy server flips verdicts,
        and chasing every flip would cost without end."""
        for count in range(2, len(history) + 1):
            low, high = self.bracket(history[:count])
            if low is not None and high is not None and (
                    self.converged(low, high) or round_rate((low * high) ** 0.5) in (low, high)):
                return count
        return None

    @staticmethod
    def repeat(history, tries, low, high):
        """The bracket's end still to be run a second time (the ceiling first), or None when both
        have been: the cell is done."""
        ceiling_client_bound = latest_verdicts(history)[high] == CLIENT_LIMITED
        for rate in ([] if ceiling_client_bound else [high]) + [low]:
            if tries[rate] < 2:
                return rate
        return None


def walk(plan, take, taken=()):
    """Step through `plan`: each next visit handed to the edge's `take`, its result kept beside it, until
    the plan is done or `take` returns None (the loop stopped from outside: a target down, a step
    disturbed in every try). The [(visit, result)] taken, `taken`'s earlier ones first."""
    taken = list(taken)
    while (visit := plan.next(taken)) is not None:
        result = take(visit)
        if result is None:
            break
        taken.append((visit, result))
    return taken


class Sequence:
    """Visits known before the first is taken, in order, whatever their results."""

    def __init__(self, visits):
        self.visits = tuple(visits)

    def next(self, taken):
        return self.visits[len(taken)] if len(taken) < len(self.visits) else None


class Turn(NamedTuple):
    group: object
    member: object


def turns(groups, members, order=None):
    """Each group's members in turn: in their order, or in `order(group)`'s (their indices; the
    interleave's AB, BA: results/interleave.order)."""
    return Sequence(Turn(group, members[index]) for group in groups
                    for index in (order(group) if order else range(len(members))))


class Rung(NamedTuple):
    phase: str  # "ladder" or "repeat"
    connections: int
    number: int  # the repeat's, 1...; 0 on the ladder


def ladder_done(levels, drop):
    """Whether a ladder can stop: the last two levels both below (1 - drop) x the best."""
    rates = list(levels.values())
    best = max(rates, default=0)
    return len(rates) >= 3 and all(rate < (1 - drop) * best for rate in rates[-2:])


class LadderThenRepeats:
    """Up a ladder of connections until the rate falls (ladder_done) or the ladder ends, then `repeats`
    windows at its best level. A result is the window's replies per second."""

    def __init__(self, levels, drop, repeats):
        self.levels, self.drop, self.repeats = tuple(levels), drop, repeats

    def next(self, taken):
        ladder = {rung.connections: rate for rung, rate in taken if rung.phase == "ladder"}
        if len(ladder) < len(self.levels) and not ladder_done(ladder, self.drop):
            return Rung("ladder", self.levels[len(ladder)], 0)
        repeated = len(taken) - len(ladder)
        if not ladder or repeated >= self.repeats:
            return None
        return Rung("repeat", max(ladder, key=ladder.get), repeated + 1)
