"""The speed canary at the edge: target/canary (canary.c, built by `make build`) run on each lab CPU
at once, pinned there and in the servers' cgroup (stack/cgroup.py), just before and just after a
step. Its figure per CPU is the median of its reps' times in ms; how it compares with the run's
reference speed is judged in harness/judge/speed.py.

The time is the canary's own CPU time: what slows the CPU itself (other tenants in its caches, its
memory bandwidth or a sibling hyperthread) shows there, while the lab's own work queued beside it
(Apache's graceful restart, a draining server) does not: timed by the wall clock, such readings were
twice the reference on both CPUs at once. When a CPU quota held the servers' cgroup back during the
reading, the time is the wall clock's, which the quota stretched. Stolen time is judged apart
(judge/disturbance.py). A reading also waits, at most 2 s, for the machine to have no runnable work
besides the reader, so that a draining server does not evict the canary's table from the caches;
one that finds the machine busy is left out (`canary_busy`), never guessed."""
import statistics
import subprocess
import time
from pathlib import Path

from stack import cgroup
from stack.settings import ROOT

CANARY = ROOT / "target" / "canary"
REPS = 5
# How long a reading waits for the machine's runnable work to end, and how often it looks.
IDLE_WAIT_S, IDLE_POLL_S = 2.0, 0.005


def reading_name(cpu, when):
    return f"canary_cpu{cpu}_{when}_ms"


def rep_times_ms(output, throttled):
    """Pure: the reps' times in ms from the canary's output (microseconds: a line of wall times, then
    one of its own CPU times); the wall clock's when a CPU quota held it back, else its CPU time's."""
    wall, cpu = output.splitlines()[:2]
    return [int(word) / 1000 for word in (wall if throttled else cpu).split()]


def runnable(stat_text):
    """Pure: the runnable tasks /proc/stat counts (the reader among them)."""
    for line in stat_text.splitlines():
        if line.startswith("procs_running "):
            return int(line.split()[1])
    return 0


def idle(wait_s=IDLE_WAIT_S):
    """Whether the machine ran nothing but the reader, three looks in a row, within wait_s."""
    deadline, calm = time.monotonic() + wait_s, 0
    while calm < 3:
        calm = calm + 1 if runnable(Path("/proc/stat").read_text()) <= 1 else 0
        if calm < 3:
            if time.monotonic() >= deadline:
                return False
            time.sleep(IDLE_POLL_S)
    return True


def run_canary(cpus, reps=REPS):
    """{cpu: the median rep's time in ms}: the canary on each CPU at once, in the servers' cgroup."""
    if not CANARY.exists():
        raise FileNotFoundError(f"{CANARY} is missing: `make build` builds it")
    throttled_before = cgroup.throttled()
    runs = {cpu: subprocess.Popen(cgroup.entered(["taskset", "-c", str(cpu), str(CANARY), str(reps)]),
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for cpu in cpus}
    outputs = {}
    for cpu, process in runs.items():
        outputs[cpu], _ = process.communicate(timeout=30)
        if process.returncode:
            raise RuntimeError(f"the canary on CPU {cpu} failed: {outputs[cpu].strip()}")
    throttled = cgroup.throttled() > throttled_before
    return {cpu: round(statistics.median(rep_times_ms(output, throttled)), 3) for cpu, output in outputs.items()}


class CanaryMonitor:
    """The canary's readings on the watched CPUs before and after a step: canary_cpuN_before_ms and
    canary_cpuN_after_ms; canary_busy counts the readings left out because the machine was busy."""

    def __init__(self, cpus):
        self.cpus = cpus

    def read(self, when):
        if not idle():
            return {}, 1
        return {reading_name(cpu, when): ms for cpu, ms in run_canary(self.cpus).items()}, 0

    def start(self):
        self.before = self.read("before")

    def finish(self):
        (before, busy_before), (after, busy_after) = self.before, self.read("after")
        return {**before, **after, "canary_busy": busy_before + busy_after}
