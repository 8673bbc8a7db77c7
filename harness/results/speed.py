"""The speed canary's readings in the results: which of a step's figures are readings, each lab
CPU's reference over a run, and the run's readings kept per CPU in its folder (canary.json), so that
a resumed run keeps its references. Judged in harness/judge/speed.py.

A reading is the canary's time on one lab CPU just before or just after a step (over ssh, on a
host's CPU: the figure's name starts with the host). A CPU's reference is a high quantile of its
speed over the run so far, REFERENCE_QUANTILE of its times: no single lucky reading sets it, and a
slow stretch does not lower it."""
import json
import re

from stack.files import write_atomically

READING = re.compile(r"^(?:(?P<host>[a-z0-9]+)_)?canary_cpu(?P<cpu>\d+)_(?:before|after)_ms$")
REFERENCE_QUANTILE = 0.1  # of the times: the speed that 90 % of the readings fall below
MIN_READINGS = 5  # a CPU is judged once its reference rests on this many readings


def cpu_names(cpus):
    """{"CPU1", "CPU2"} of a pinning's CPU list ("1", "1,2", "2-3"); empty for none."""
    names = set()
    for part in filter(None, str(cpus or "").replace(" ", "").split(",")):
        low, _, high = part.partition("-")
        if low.isdigit() and (high.isdigit() or not high):
            names.update(f"CPU{cpu}" for cpu in range(int(low), int(high or low) + 1))
    return names


def server_cpu_count(server_cpus, db_cpus, cores):
    """How many CPUs the servers and the database had (their pinning's lists), else the host's cores."""
    return len(cpu_names(server_cpus) | cpu_names(db_cpus)) or cores


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


class SpeedHistory:
    """The run's readings per CPU, kept in `path` after every addition."""

    def __init__(self, path):
        self.path = path
        self.times = json.loads(path.read_text()) if path.exists() else {}

    def add(self, figures):
        """Keep a step's (or a check's) canary readings."""
        for key, times in readings(figures).items():
            self.times.setdefault(key, []).extend(times)
        write_atomically(self.path, json.dumps(self.times) + "\n")

    def references(self):
        return references(self.times)

    def calibrated(self):
        """Whether every CPU read so far has its reference."""
        return bool(self.times) and all(len(times) >= MIN_READINGS for times in self.times.values())
