"""What is watched while a step runs, at the edge. A monitor is started right before httperf and
finished right after it; `finish()` returns the figures it adds to the step's row (steps.tsv
columns). A new per-step check is a new monitor in `step_monitors()`, nothing else changes."""
import os
import subprocess
import threading
from pathlib import Path

from stack import lifecycle

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def cpu_and_rss(pid):
    """(CPU seconds so far, resident MB) of one process from /proc; None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS, int(fields[21]) * PAGE_MB
    except (OSError, IndexError, ValueError):
        return None


class ServerSampler(threading.Thread):
    """Samples every lab server's processes from /proc while a step runs: CPU seconds used during
    the step and the peak resident memory (summed over a server's processes, e.g. Apache's workers).
    A process that exits between two samples loses at most one interval of CPU time."""

    def __init__(self, interval=0.5):
        super().__init__(daemon=True)
        self.interval = interval
        self.stopping = threading.Event()
        self.first = {name: {} for name in lifecycle.SERVERS}
        self.last = {name: {} for name in lifecycle.SERVERS}
        self.peak_rss = {name: 0.0 for name in lifecycle.SERVERS}

    def sample(self, initial=False):
        for name, server in lifecycle.SERVERS.items():
            rss_total = 0.0
            for pid in server.processes():
                figures = cpu_and_rss(pid)
                if figures is None:
                    continue
                cpu, rss = figures
                # A process born during the step spent all of its CPU time in the step.
                self.first[name].setdefault(pid, cpu if initial else 0.0)
                self.last[name][pid] = cpu
                rss_total += rss
            self.peak_rss[name] = max(self.peak_rss[name], rss_total)

    def start(self):
        self.sample(initial=True)
        super().start()

    def run(self):
        while not self.stopping.wait(self.interval):
            self.sample()

    def finish(self):
        self.stopping.set()
        self.join()
        self.sample()
        figures = {}
        for name in lifecycle.SERVERS:
            used = sum(cpu - self.first[name].get(pid, 0.0) for pid, cpu in self.last[name].items())
            figures[f"{name}_cpu_s"] = round(used, 2)
            figures[f"{name}_rss_peak_mb"] = round(self.peak_rss[name], 1)
        return figures


def step_monitors():
    """The monitors of one step, fresh for each step."""
    return [ServerSampler()]


def pin_servers(cpus):
    """Move every running lab server process (all threads) onto cpus; new children inherit it."""
    if not cpus or cpus == "none":
        return
    for server in lifecycle.SERVERS.values():
        for pid in server.processes():
            subprocess.run(["taskset", "-a", "-p", "-c", cpus, str(pid)], capture_output=True)
