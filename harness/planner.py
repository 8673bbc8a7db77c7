"""Plan the next offered rate of a cell from the verdicts so far. Pure: history in, rate out.

history is a list of (rate, verdict). Both plans return None when the cell is done.
"""
from harness.results.records import FAIL, INVALID, PASS


def round_rate(rate):
    """Rates httperf gets: one decimal below 10 req/s, whole numbers above."""
    return round(rate, 1) if rate < 10 else float(round(rate))


class LinearPlan:
    """The 2006 study's method: START, START+STEP, ... up to MAX, stopping after K failing steps."""

    def __init__(self, start, step, maximum, stop_after_failures=2):
        self.start, self.step, self.maximum = start, step, maximum
        self.stop_after_failures = stop_after_failures

    def next_rate(self, history):
        failures = sum(1 for _, verdict in history if verdict in (FAIL, INVALID))
        if failures >= self.stop_after_failures:
            return None
        rate = round_rate(self.start + self.step * len(history))
        return rate if rate <= self.maximum else None


class AdaptivePlan:
    """Ramp geometrically until the first step that does not pass, then bisect between the highest
    pass and the lowest non-pass above it until they are within `precision`, then one confirming
    step between them. An invalid (client-bound) step is a ceiling like a failure, but a cell
    whose ceiling is client-bound is reported as a lower bound, never as a saturation point."""

    def __init__(self, start, factor=2.0, precision=0.05, minimum=0.5, maximum=20000.0, max_steps=16):
        self.start, self.factor, self.precision = start, factor, precision
        self.minimum, self.maximum, self.max_steps = minimum, maximum, max_steps

    @staticmethod
    def bracket(history):
        passed = [rate for rate, verdict in history if verdict == PASS]
        low = max(passed) if passed else None
        ceilings = [rate for rate, verdict in history
                    if verdict in (FAIL, INVALID) and (low is None or rate > low)]
        high = min(ceilings) if ceilings else None
        return low, high

    def next_rate(self, history):
        if not history:
            return round_rate(self.start)
        if len(history) >= self.max_steps:
            return None
        tried = {rate for rate, _ in history}
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
            confirmed = self.converged(low, high) and self.confirmation_done(history, low, high)
            if confirmed:
                return None
            candidate = round_rate((low * high) ** 0.5)
        return None if candidate in tried else candidate

    def converged(self, low, high):
        return high <= low * (1 + self.precision)

    def confirmation_done(self, history, low, high):
        """The step after the bracket first closed confirms it (whatever its verdict)."""
        for index in range(1, len(history)):
            first_low, first_high = self.bracket(history[:index])
            if first_low is not None and first_high is not None and self.converged(first_low, first_high):
                return index < len(history)
        return False
