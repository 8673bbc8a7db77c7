"""What is watched while a step runs, at the edge. A monitor is started right before httperf and
finished right after it; `finish()` returns the figures it adds to the step's row (steps.tsv
columns). A new per-step check of a server is a new monitor class named in SERVER_MONITORS and in the
servers' declarations (contract/targets.json, `monitors`); one of the client's side goes in
harness/hosts/watch.py's `step_monitors()`. Nothing else changes."""
import functools
import os
import time
from pathlib import Path

from harness.measure import diskstats, gc_trace, jit, memory, network, pinning
from harness.measure.canary import CanaryMonitor
from harness.measure.mariadb_status import QUERY, parse_status, status_deltas
from harness.measure.pool_log import pool_columns
from harness.measure.sampling import Sampler
from harness.measure.processes import (COUNTERS, all_processes, cpu_seconds, lab_pids, thread_context_switches,
                                      process_reading, zombie_children)
from stack import lifecycle, registry
from stack.procfs import one_scan
from stack.server import LabError


def plus(first, second):
    return tuple(a + b for a, b in zip(first, second))


def minus(first, second):
    return tuple(a - b for a, b in zip(first, second))


ZERO = (0,) * len(COUNTERS)


class ServerSampler(Sampler):
    """Samples every lab server's processes from /proc while a step runs: what each used during the
    step (CPU seconds, user and system apart, and minor page faults: processes.COUNTERS), the peak
    resident memory (summed over a server's processes, e.g. Apache's workers), its threads (over
    all its processes: Apache's prefork workers, Tomcat's request threads) at the start and at the
    most, and its context switches, voluntary and not, counted over its threads at the start and at
    the end (a thread or worker that ended within the step takes its count with it).

    A worker that exits during the step is reaped by its server's main process, whose children's
    counters then hold the worker's whole life: what it had used before the step (its first sample)
    is taken off, so every exited process counts exactly its share of the step. Until it is reaped,
    an exited worker is a zombie that still shows its counters: it is sampled as if alive."""

    def __init__(self, names, interval=0.5):
        super().__init__(interval)
        self.names = names
        self.first = {name: {} for name in names}
        self.last = {name: {} for name in names}
        self.reaped = {name: [None, None] for name in names}
        self.peak_rss = {name: 0.0 for name in names}
        self.threads = {name: [0, 0] for name in names}  # at the start, at the most
        self.switches = {}

    @staticmethod
    def present(name):
        """The server's processes now, and its exited ones its main process has not yet reaped."""
        server = lifecycle.lab_servers()[name]
        return set(server.processes()) | set(zombie_children(server.pid()))

    def sample(self, initial=False):
        with one_scan():
            self.sample_each(initial)

    def sample_each(self, initial):
        for name in self.names:
            rss_total, threads = 0.0, 0
            main = lifecycle.lab_servers()[name].pid()
            for pid in self.present(name):
                reading = process_reading(pid)
                if reading is None:
                    continue
                threads += reading.threads
                # A process born during the step spent all of its counters in the step.
                self.first[name].setdefault(pid, reading.own if initial else ZERO)
                self.last[name][pid] = reading.own
                rss_total += reading.rss_mb
                if pid == main:
                    self.reaped[name] = [reading.reaped if self.reaped[name][0] is None else self.reaped[name][0],
                                         reading.reaped]
            self.peak_rss[name] = max(self.peak_rss[name], rss_total)
            if initial:
                self.threads[name][0] = threads
            self.threads[name][1] = max(self.threads[name][1], threads)

    def context_switches(self):
        """{(server, thread id): (voluntary, involuntary)} of every server thread now."""
        with one_scan():
            return {(name, thread): found for name in self.names for pid in self.present(name)
                    for thread, found in thread_context_switches(pid).items()}

    def first_sample(self):
        self.switches = self.context_switches()
        self.sample(initial=True)

    def finish(self):
        self.stop()
        with one_scan():  # the threads' switches and the live processes from one reading of /proc
            switches = self.context_switches()
            alive_now = {name: self.present(name) for name in self.names}
        figures = {}
        for name in self.names:
            alive = alive_now[name]
            used = ZERO
            for pid, counters in self.last[name].items():
                used = plus(used, minus(counters, self.first[name][pid]) if pid in alive
                            else minus(ZERO, self.first[name][pid]))
            before, after = self.reaped[name]
            used = plus(used, minus(after or ZERO, before or ZERO))
            for counter, value in zip(COUNTERS, used):
                figures[f"{name}_{counter}"] = round(max(value, 0), 2)
            figures[f"{name}_rss_peak_mb"] = round(self.peak_rss[name], 1)
            figures[f"{name}_threads_before"], figures[f"{name}_threads_max"] = self.threads[name]
            # Per thread: one born during the step counts from 0, one that ended counts nothing.
            switched = [minus(now, self.switches.get(key, (0, 0))) for key, now in switches.items() if key[0] == name]
            figures[f"{name}_vcsw"] = sum(voluntary for voluntary, _ in switched)
            figures[f"{name}_ivcsw"] = sum(involuntary for _, involuntary in switched)
        return figures


class OtherWorkMonitor:
    """What else used the CPUs during the step: the CPU time of every process that is not the lab's
    (exited ones through their parent's reaped-children time), kernel threads apart (ksoftirqd runs
    the loopback traffic's softirq work), and the time the hypervisor stole from the lab's CPUs (the
    most of any one); per lab CPU, its irq and softirq time (recorded, not judged: the lab's own
    traffic causes most of it). Per-process times judge "other" work, not /proc/stat's per-CPU busy
    ticks: on this VM those disagreed with the processes' own times by up to half a CPU-second over a
    3 s step. Judged by harness/judge/disturbance.py; `note` names the busiest other process."""

    def __init__(self, cpus):
        self.cpus = cpus
        self.note = None

    def start(self):
        self.before = all_processes(), cpu_seconds(self.cpus)

    def finish(self):
        (processes_before, stat_before), processes, stat_after = self.before, all_processes(), cpu_seconds(self.cpus)
        ours = lab_pids()
        other, kernel = {}, 0.0
        for pid, (name, cpu, reaped, kernel_thread) in processes.items():
            _, cpu_before, reaped_before, _ = processes_before.get(pid, (name, 0.0, 0.0, kernel_thread))
            used = cpu - cpu_before
            if kernel_thread:
                kernel += used
            elif pid not in ours:
                # PID 1 reaps orphans, the lab's daemonized servers among them (a killed Tomcat's
                # whole life would land there): its reaped children's time says nothing of others.
                children = max(0.0, reaped - reaped_before) if pid != 1 else 0.0
                other[name] = other.get(name, 0.0) + used + children
        busiest = max(other.items(), key=lambda item: item[1], default=("", 0.0))
        self.note = f"busiest other process: {busiest[0]} ({busiest[1]:.2f} s)" if busiest[1] > 0 else None
        spent = {cpu: {kind: seconds - stat_before.get(cpu, times)[kind] for kind, seconds in times.items()}
                 for cpu, times in stat_after.items()}
        figures = {"other_cpu_s": round(sum(other.values()), 2), "kernel_threads_cpu_s": round(kernel, 2),
                   "steal_max_s": round(max((times["steal"] for times in spent.values()), default=0.0), 2)}
        for cpu, times in sorted(spent.items()):
            figures[f"irq_cpu{cpu}_s"] = round(times["irq"], 2)
            figures[f"softirq_cpu{cpu}_s"] = round(times["softirq"], 2)
        return figures


class MariaDBMonitor:
    """MariaDB's connection counters before and after the step (harness/measure/mariadb_status.py)."""

    def __init__(self, server):
        self.server = server

    def read(self):
        try:
            return parse_status(lifecycle.lab_servers()[self.server].sql(QUERY))
        except (LabError, OSError):
            return {}

    def start(self):
        self.before = self.read()

    def finish(self):
        return status_deltas(self.before, self.read())


class DiskMonitor:
    """The disk that holds a server's data (MariaDB's datadir) over the step: its busy share, writes and
    flushes (harness/measure/diskstats.py), with whatever else wrote to that disk meanwhile. A datadir
    on no block device (tmpfs, an overlay) adds nothing."""

    DISKSTATS = Path("/proc/diskstats")

    def __init__(self, server):
        self.datadir = lifecycle.lab_servers()[server].datadir

    def read(self):
        try:
            device = os.stat(self.datadir).st_dev
            return diskstats.parse(self.DISKSTATS.read_text()).get((os.major(device), os.minor(device)))
        except OSError:
            return None

    def start(self):
        self.before, self.started = self.read(), time.monotonic()

    def finish(self):
        return diskstats.step_figures(self.before, self.read(), time.monotonic() - self.started)


class PoolLogMonitor:
    """Whether requests waited for a server's pool during the step, from the record the server keeps
    of it each second (the pooled servlet's HikariCP, gSOAP's connections: harness/measure/pool_log.py).
    A pool idle in the step (another app's) adds nothing."""

    def __init__(self, server):
        self.path = registry.pool_log(server)

    def start(self):
        self.started = time.time()

    def finish(self):
        try:
            text = self.path.read_text()
        except OSError:
            return {}
        return pool_columns(text, self.started, time.time())


class ListenBacklogMonitor(Sampler):
    """Whether requests waited for a server's workers during the step: the most connections queued on
    its listening socket for a worker to accept them (ss's Recv-Q of a listening socket), sampled
    every `interval` s. PHP-FPM's own status page cannot tell: a pool's workers answer it, so under
    load it waits in the very queue it would report. A queue that stayed empty adds nothing."""

    def __init__(self, server, interval=0.2):
        super().__init__(interval)
        self.endpoint, self.namespace = lifecycle.lab_servers()[server].endpoint, lifecycle.lab_servers()[server].namespace
        self.most = 0

    def sample(self):
        self.most = max(self.most, network.listen_backlog(self.endpoint, self.namespace))

    def finish(self):
        self.stop()
        return {"pool_waiting_max": self.most} if self.most else {}


def pool_monitor(server):
    """The monitor of a server's pool, by how its declaration says the pool is watched."""
    watch = registry.pool(server)["watch"]
    return PoolLogMonitor(server) if watch == "log" else ListenBacklogMonitor(server)


class JvmMonitor:
    """What a server's JVM did over the step, from its own counters (harness/measure/jit.py): collections
    young and full with their seconds, compile seconds, safepoint seconds - a full collection longer
    than the step's timeout turns every request it holds up into a timeout."""

    def __init__(self, server):
        self.server = server

    def start(self):
        pid = lifecycle.lab_servers()[self.server].pid()
        self.before = (pid, jit.counters_of(pid)) if pid else None

    def finish(self):
        if not self.before:
            return {}
        pid, before = self.before
        return {f"{self.server}_{figure}": value
                for figure, value in jit.step_figures(before, jit.counters_of(pid)).items()}


# Figures that several hosts' monitors each report (TOPOLOGY=ssh): what other work and the kernel's
# threads used is summed over the hosts, as are the TCP counters (each host has its own stack), and
# stolen time is the most any lab CPU lost, on whichever host.
SUMMED = {"other_cpu_s", "kernel_threads_cpu_s", "canary_busy", *network.COUNTERS.values()}
MOST = {"steal_max_s"}


def merged_monitor_figures(figure_sets):
    """Pure: one step's figures from its monitors' (the first set's value for any other figure two
    report)."""
    figures = {}
    for each in figure_sets:
        for name, value in each.items():
            if name not in figures:
                figures[name] = value
            elif name in SUMMED:
                figures[name] = round(figures[name] + value, 2)
            elif name in MOST:
                figures[name] = max(figures[name], value)
    return figures


def start_together(watched):
    """Start monitors in their order, finding the lab's processes in one listing of /proc."""
    with one_scan():
        for monitor in watched:
            monitor.start()


def finish_together(watched):
    """Finish monitors in their order, from one listing of /proc: their figures merged."""
    with one_scan():
        return merged_monitor_figures([monitor.finish() for monitor in watched])


# The monitors a server's declaration may name (contract/targets.json, `monitors`), each made for that server.
SERVER_MONITORS = {"mariadb-status": MariaDBMonitor, "disk": DiskMonitor, "pool": pool_monitor, "jvm": JvmMonitor,
                   "jvm-heap": memory.JvmHeapMonitor, "vthread-pinned": pinning.PinnedMonitor,
                   **{kind: functools.partial(gc_trace.GcTraceMonitor, kind=kind) for kind in gc_trace.TRACES}}


def host_monitors(host, cpus):
    """The monitors of one host's servers, watching `cpus` there (host None: every server, here):
    the speed canary on those CPUs (first: it reads before the others start and after they end),
    every server's CPU and memory (peak RSS while it runs, PSS at its end, the OOM killer's kills in
    their cgroup), other work and the TCP
    counters, and what each server's declaration names. A load client host has no servers and no canary."""
    servers = registry.servers_on(host)
    speed = [CanaryMonitor(cpus)] if servers else []
    oom = [memory.OomKillMonitor()] if servers else []
    return [*speed, ServerSampler(servers), memory.PssMonitor(servers), *oom, OtherWorkMonitor(cpus),
            network.NetworkMonitor(),
            *(SERVER_MONITORS[monitor](name) for name in servers for monitor in registry.server_monitors(name))]

