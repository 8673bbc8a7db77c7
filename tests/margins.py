"""Bounds that depend on the machine's speed. A test marked `timing` checks such a bound through
`at_most` or `at_least`: the figure it measured is kept, and the run's summary prints each bound with
the figures measured against it and the CPU they were measured on, so that every CI log says how much
margin each bound had on that host kind. A failure names the figure, the bound and the CPU."""
import re
from dataclasses import dataclass
from pathlib import Path


def cpu_model():
    found = re.search(r"model name\s*:\s*(.+)", Path("/proc/cpuinfo").read_text())
    return found.group(1).strip() if found else "unknown CPU"


@dataclass(frozen=True)
class Margin:
    what: str
    measured: float
    bound: float
    at_most: bool

    @property
    def holds(self):
        return self.measured <= self.bound if self.at_most else self.measured >= self.bound

    @property
    def headroom(self):
        """How many times over the figure could grow (a ceiling) or shrink (a floor) and still pass."""
        if self.at_most:
            return self.bound / self.measured if self.measured > 0 else float("inf")
        return self.measured / self.bound if self.bound > 0 else float("inf")

    def against_bound(self):
        sign = "<=" if self.at_most else ">="
        return f"{self.measured:.3g} (bound {sign} {self.bound:.3g}, headroom {self.headroom:.1f}x)"


MEASURED = []


def check(margin):
    MEASURED.append(margin)
    assert margin.holds, f"{margin.what}: {margin.against_bound()}, on {cpu_model()}"


def at_most(what, measured, bound):
    check(Margin(what, measured, bound, at_most=True))


def at_least(what, measured, bound):
    check(Margin(what, measured, bound, at_most=False))


def summary(measured):
    """One line per bound, tightest first: how often it was checked, the range of its figures and the
    figure closest to failing."""
    by_what = {}
    for margin in measured:
        by_what.setdefault(margin.what, []).append(margin)
    lines = []
    for what, checked in sorted(by_what.items(), key=lambda item: min(margin.headroom for margin in item[1])):
        tightest = min(checked, key=lambda margin: margin.headroom)
        figures = [margin.measured for margin in checked]
        spread = f"{len(figures)} figures from {min(figures):.3g} to {max(figures):.3g}, tightest " \
            if len(figures) > 1 else ""
        flag = "   " if all(margin.holds for margin in checked) else "!! "
        lines.append(f"{flag}{what}: {spread}{tightest.against_bound()}")
    return lines
