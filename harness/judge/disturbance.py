"""Whether other work shared the lab's CPUs during a step, so that the step measured the machine, not
the server. Pure: a step's figures in, a reason out.

"Other" CPU is the time of every process that is not the lab's (not a server, not httperf, not the
harness) and not a kernel thread; stolen time is what the hypervisor gave to other guests, on the
lab CPU that lost the most. The load generator's own CPU is recorded but never judged (httperf
busy-polls its sockets, so it always uses its whole CPU).
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    max_steal_pct: float   # of one CPU, on any lab CPU
    max_other_pct: float   # of one CPU, summed over every process not the lab's


# The figure a host's watch reports when its step monitors were lost (its agent started again, or did
# not answer): what shared that host's CPUs is then unknown, so the step is not judged.
LOST = "monitors_lost"


def disturbance(figures, wall_s, limits, note=None):
    """None for a quiet step; else what shared the CPUs, in % of one CPU over the step, or that a
    host's monitors were lost."""
    if figures.get(LOST):
        return "a host's step monitors were lost, so its other work is unknown" + (f"; {note}" if note else "")
    if wall_s <= 0 or "other_cpu_s" not in figures:
        return None
    found = []
    other = 100 * figures["other_cpu_s"] / wall_s
    steal = 100 * figures.get("steal_max_s", 0.0) / wall_s
    if other > limits.max_other_pct:
        found.append(f"other processes used {other:.1f} % of a CPU (> {limits.max_other_pct:g} %)"
                     + (f"; {note}" if note else ""))
    if steal > limits.max_steal_pct:
        found.append(f"the hypervisor stole {steal:.1f} % of a lab CPU (> {limits.max_steal_pct:g} %)")
    return "; ".join(found) or None


def redone_while_disturbed(attempt, disturbed, max_redos):
    """(the last result, how many times it was redone): attempt() again while disturbed(result), at
    most max_redos times; the last try is kept even when disturbed (its flag says so)."""
    for redos in range(max_redos + 1):
        result = attempt()
        if not disturbed(result):
            break
    return result, redos
