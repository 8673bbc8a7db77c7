"""Whether the machine ran slower than its own reference around a step, from the speed canary's
readings (harness/measure/canary.py) and each CPU's reference over the run (harness/results/speed.py).
Pure.

A step's speed on a CPU is the reference over the mean of its readings there, before and after:
the speed over the step as well as two points tell it. A slowdown that spans the step, or a quota
that held the servers back for part of it, shows in it; one slow reading among the usual ones (the
machine's 20 ms blips) reads near the threshold. The step is slower when any CPU's speed is under
the run's `min_speed` (0: recorded, never judged)."""
from harness.results.speed import readings


def speeds(figures, reference):
    """{CPU: the step's speed there, its reference over the mean of its readings} for the CPUs that
    have both a reference and a reading."""
    return {key: round(reference[key] * len(times) / sum(times), 3)
            for key, times in readings(figures).items() if key in reference}


def slowdown(step_speeds, min_speed):
    """None when every CPU ran at min_speed of its reference or faster; else the slowest, in words."""
    slow = {key: speed for key, speed in step_speeds.items() if speed < min_speed}
    if not slow:
        return None
    key = min(slow, key=slow.get)
    return f"machine slower: {key} at {slow[key]:.2f} of its reference (< {min_speed:g})"
