"""The lab's processes and CPUs as /proc shows them, at the edge: a process's CPU time and memory,
the CPUs' interrupt and stolen time, every process on the machine (for other work), and moving a
process onto its CPUs. The step monitors (monitors.py) are built on these."""
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from stack import lifecycle, settings
from stack.procfs import one_scan, proc_pids, read_once, stat_fields

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2 ** 20


# A process's counters that a step's cost split sums (monitors.ServerSampler): CPU seconds, user and
# system apart, and minor page faults.
COUNTERS = ("cpu_s", "user_s", "system_s", "minflt")


@dataclass(frozen=True)
class ProcessReading:
    own: tuple       # COUNTERS of the process (all its threads)
    reaped: tuple    # COUNTERS of its children it has reaped
    rss_mb: float
    threads: int


def stat_reading(stat_text):
    """Pure: a ProcessReading from /proc/PID/stat's text."""
    fields = stat_text.rsplit(")", 1)[1].split()
    user, system, child_user, child_system = (int(fields[index]) / CLOCK_TICKS for index in (11, 12, 13, 14))
    return ProcessReading((user + system, user, system, int(fields[7])),
                          (child_user + child_system, child_user, child_system, int(fields[8])),
                          int(fields[21]) * PAGE_MB, int(fields[17]))


def process_reading(pid):
    """The ProcessReading of one process from /proc; None when it is gone."""
    try:
        return stat_reading(Path(f"/proc/{pid}/stat").read_text())
    except (OSError, IndexError, ValueError):
        return None


def context_switches(status_text):
    """Pure: (voluntary, involuntary) context switches of one thread from its /proc status text."""
    found = dict(line.split(":", 1) for line in status_text.splitlines() if "ctxt_switches" in line)
    return int(found["voluntary_ctxt_switches"]), int(found["nonvoluntary_ctxt_switches"])


def thread_context_switches(pid):
    """{thread id: (voluntary, involuntary) context switches} of a process's live threads (the kernel
    counts them per thread); {} when it is gone. A thread that ended takes its count with it."""
    found = {}
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except OSError:
        return found
    for task in tasks:
        try:
            found[int(task.name)] = context_switches((task / "status").read_text())
        except (OSError, KeyError, ValueError):
            continue
    return found


def zombie_children(parent):
    """Exited children of `parent` not yet reaped (their times stay readable until they are)."""
    if not parent:
        return []

    def zombies():
        return [pid for pid in proc_pids() if (fields := stat_fields(pid)) and fields[0] == "Z" and int(fields[1]) == parent]
    return read_once("zombies", parent, zombies)


# /proc/stat's per-CPU columns after the name (user nice system idle iowait irq softirq steal ...).
STAT_COLUMNS = {"irq": 5, "softirq": 6, "steal": 7}


def cpu_seconds(cpus):
    """{cpu number: {"irq", "softirq", "steal": seconds since boot}} from /proc/stat: interrupt
    handling (loopback traffic's softirq work lands here when not in ksoftirqd) and the time the
    hypervisor gave to other guests."""
    found = {}
    for line in Path("/proc/stat").read_text().splitlines():
        name, *ticks = line.split()
        if name.startswith("cpu") and name != "cpu" and int(name[3:]) in cpus:
            found[int(name[3:])] = {kind: int(ticks[column]) / CLOCK_TICKS for kind, column in STAT_COLUMNS.items()}
    return found


def cpu_list(text):
    """CPU numbers of a taskset list ("1", "0-3", "0,2"); every CPU for "none"."""
    return settings.cpu_numbers(text) or sorted(os.sched_getaffinity(0))


def all_processes():
    """{pid: (name, CPU seconds, reaped children's CPU seconds, kernel thread?)} of every process."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            head, tail = (entry / "stat").read_text().rsplit(")", 1)
        except (OSError, ValueError):
            continue
        fields = tail.split()
        found[int(entry.name)] = (head.split("(", 1)[1], (int(fields[11]) + int(fields[12])) / CLOCK_TICKS,
                                  (int(fields[13]) + int(fields[14])) / CLOCK_TICKS,
                                  int(fields[1]) == 2 or entry.name == "2")
    return found


def lab_pids():
    """The lab's own processes: every server's (with exited workers not yet reaped) and the harness."""
    pids = {os.getpid()}
    with one_scan():
        for server in lifecycle.lab_servers().values():
            pids.update(server.processes())
            pids.update(zombie_children(server.pid()))
    return pids


def pin_harness(cpus):
    """Keep the harness itself (its sampling threads, its health checks) on the client's CPUs, off
    the servers'."""
    if settings.pinned_to(cpus):
        os.sched_setaffinity(0, cpu_list(cpus))


def pin_server(server, cpus):
    """Move one lab server's processes (all threads) onto cpus."""
    if not settings.pinned_to(cpus):
        return
    for pid in server.processes():
        subprocess.run(["taskset", "-a", "-p", "-c", cpus, str(pid)], capture_output=True)
