"""Memory per engine, as users read it: what each server's processes hold (PSS, the pages shared
between processes such as Apache's prefork workers counted once across them, beside the RSS the
sampler sums, which counts them once per process), and for a JVM the live heap after a collection
and the bytes its requests allocated.

A JVM's allocation is no counter it keeps: over a step it is the heap's growth (its spaces' used
bytes in the hsperfdata counters, harness/measure/jit.py, which the JVM samples every 50 ms) plus
what the collections in the step freed (before minus after, from its GC log: `-Xlog:gc`, one line
per pause, which Tomcat writes to var/log/<server>-gc.log). Pure parsing here; the monitors at
the end read /proc, the log and the servers' cgroup."""
import re

from harness.measure import jit
from stack import cgroup, lifecycle

UNITS = {"B": 1, "K": 1024, "M": 1024 ** 2, "G": 1024 ** 3}
MB = 1024 ** 2
# A pause with its heap before and after, in HotSpot's unified logging:
# "[12.3s][info][gc] GC(4) Pause Young (Allocation Failure) 512M->14M(1963M) 6.1ms".
PAUSE = re.compile(r"GC\(\d+\) Pause .*? (\d+)([BKMG])->(\d+)([BKMG])\(\d+[BKMG]\)")


def pss_kb(smaps_rollup):
    """Pure: the proportional set size in kB from a /proc/PID/smaps_rollup text; None without one."""
    for line in smaps_rollup.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1])
    return None


def gc_pauses(log_text):
    """Pure: (heap before, heap after) in bytes of every pause in a GC log's text, in order."""
    return [(int(before) * UNITS[before_unit], int(after) * UNITS[after_unit])
            for before, before_unit, after, after_unit in PAUSE.findall(log_text)]


def heap_used(counters):
    """Pure: the bytes in use over every space of the heap (young and old) from a JVM's counters;
    None when they have none."""
    used = [value for name, value in counters.items()
            if name.startswith("sun.gc.generation.") and ".space." in name and name.endswith(".used")]
    return sum(used) if used else None


def heap_figures(before, after, step_pauses, last_pause):
    """Pure: a step's heap figures from the JVM's counters before and after it, the pauses logged
    during it and the last pause logged by its end (which may predate it): the heap in use after
    that last collection (the live set, as far as the JVM last looked) and the MB allocated over the
    step; {} when the counters are missing."""
    used_before, used_after = heap_used(before), heap_used(after)
    if used_before is None or used_after is None:
        return {}
    freed = sum(pause_before - pause_after for pause_before, pause_after in step_pauses)
    figures = {"alloc_mb": round(max(used_after - used_before + freed, 0) / MB, 1)}
    if last_pause:
        figures["heap_after_gc_mb"] = round(last_pause[1] / MB, 1)
    return figures


def pss_figures(name, pss_by_process):
    """Pure: a server's PSS columns from its processes' PSS in kB (None: a process gone or unreadable)."""
    known = [kb for kb in pss_by_process if kb is not None]
    return {f"{name}_pss_mb": round(sum(known) / 1024, 1), f"{name}_processes": len(known)} if known else {}


def read_pss_kb(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as source:
            return pss_kb(source.read())
    except OSError:
        return None


class PssMonitor:
    """Each server's summed PSS and its process count at the step's end (smaps_rollup walks a
    process's page tables: read once, after the load, not while it runs)."""

    def __init__(self, names):
        self.names = names

    def start(self):
        pass

    def finish(self):
        figures = {}
        for name in self.names:
            figures.update(pss_figures(name, [read_pss_kb(pid) for pid in lifecycle.lab_servers()[name].processes()]))
        return figures


def log_text(path):
    """A server's log as it is now ("" when there is none yet)."""
    try:
        return path.read_text(errors="replace")
    except OSError:
        return ""


class JvmHeapMonitor:
    """A JVM's heap over the step (heap_figures): <server>_alloc_mb and <server>_heap_after_gc_mb."""

    def __init__(self, server):
        self.server = server
        self.log = lifecycle.lab_servers()[server].gc_log

    def log_text(self):
        return log_text(self.log)

    def start(self):
        pid = lifecycle.lab_servers()[self.server].pid()
        # Up to the last whole line: a pause the JVM is writing now counts in this step.
        self.before = (pid, jit.counters_of(pid), self.log_text().rfind("\n") + 1) if pid else None

    def finish(self):
        if not self.before:
            return {}
        pid, counters, offset = self.before
        after, text = jit.counters_of(pid), self.log_text()
        # A JVM restarted within the step began a new log: then all of it is the step's.
        pauses = gc_pauses(text[offset:] if len(text) >= offset else text)
        every = gc_pauses(text)
        return {f"{self.server}_{figure}": value
                for figure, value in heap_figures(counters, after, pauses, every[-1] if every else None).items()}


class OomKillMonitor:
    """servers_oom_kills: the processes the kernel's OOM killer killed in the servers' cgroup over the
    step, which a memory limit on it (SERVERS_MEMORY_MB) can make; 0 without one."""

    def start(self):
        self.before = cgroup.oom_kills()

    def finish(self):
        return {"servers_oom_kills": cgroup.oom_kills() - self.before}
