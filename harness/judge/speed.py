"""Whether the machine ran slower than its own reference around a step, from the speed canary's
readings (harness/measure/canary.py). Pure.

A reading is the canary's time on one lab CPU just before or just after the step (over ssh, on a
host's CPU: the figure's name starts with the host). A CPU's reference is a high quantile of its
speed over the run so far, REFERENCE_QUANTILE of its times: no single lucky reading sets it, and a
slow stretch does not lower it. A step's speed on a CPU is the reference over the mean of its
readings there, before and after: the speed over the step as well as two points tell it. A
slowdown that spans the step, or a quota that held the servers back for part of it, shows in it;
one slow reading among the usual ones (the machine's 20 ms blips) reads near the threshold. The
step is slower when any CPU's speed is under the run's `min_speed`."""
import re

READING = re.compile(r"^(?:(?P<host>[a-z0-9]+)_)?canary_cpu(?P<cpu>\d+)_(?:before|after)_ms$")
REFERENCE_QUANTILE = 0.1  # of the times: the speed that 90 % of the readings fall below
MIN_READINGS = 5  # a CPU is judged once its reference rests on this many readings


def readings(figures):
    """{CPU ("CPU1", or "web CPU1" over ssh): [its readings in ms]} among a step's figures."""
    found = {}
    for name, value in figures.items():
        match = READING.match(name)
        if match and value:
            key = f"{match['host']} CPU{match['cpu']}" if match["host"] else f"CPU{match['cpu']}"
            found.setdefault(key, []).append(value)
    return found


def reference_ms(times):
    """The REFERENCE_QUANTILE of a CPU's times (the lower of the two readings around it)."""
    ordered = sorted(times)
    return ordered[int(REFERENCE_QUANTILE * (len(ordered) - 1))]


def references(history):
    """{CPU: reference ms} from the run's readings so far ({CPU: [ms]}), for the CPUs with enough."""
    return {key: reference_ms(times) for key, times in history.items() if len(times) >= MIN_READINGS}


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
