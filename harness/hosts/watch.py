"""The step monitors around a stretch of load, wherever the servers run: on this machine every
server's monitors here; with TOPOLOGY=ssh the client's CPUs and TCP stack here and each host's
servers on that host, through its agent, their figures combined. Whether other work disturbed the
stretch is judged from them (harness/judge/disturbance.py)."""
import time

from harness.hosts.channel import agent
from harness.judge.disturbance import LOST, disturbance
from harness.measure import monitors, network
from harness.measure.processes import cpu_list
from stack import remote
from stack.server import LabError


class Watch:
    """The step monitors around a stretch of load (a step, or the quiet check with no load): their
    figures, the wall time, and whether other work disturbed it."""

    def __init__(self, limits, monitors):
        self.limits = limits
        self.monitors = monitors
        self.figures, self.wall_s = {}, 0.0

    def __enter__(self):
        for monitor in self.monitors:
            monitor.start()
        self.started = time.monotonic()
        return self

    def __exit__(self, *_):
        self.wall_s = time.monotonic() - self.started
        self.figures = monitors.merged_monitor_figures([monitor.finish() for monitor in self.monitors])
        return False

    def disturbed(self):
        """None for a quiet stretch; else what shared the CPUs (harness/judge/disturbance.py)."""
        notes = "; ".join(monitor.note for monitor in self.monitors if getattr(monitor, "note", None))
        return disturbance(self.figures, self.wall_s, self.limits, notes)


class HostWatch:
    """One host's step monitors (monitors.host_monitors), run by its agent. What only the client's
    side means is left to the client's monitors: the free ports and TIME_WAIT sockets before the
    step; each host's interrupt time per CPU keeps the host's name."""

    CLIENT_ONLY = ("time_wait_before", "free_local_ports_before")

    def __init__(self, host, cpus):
        self.host, self.cpus = host, cpus
        self.note = None
        self.failed = None

    def start(self):
        try:
            agent(self.host).call("watch_start", self.host, self.cpus)
        except LabError as error:
            self.failed = f"its step monitors did not start: {error}"

    def finish(self):
        """The host's figures; with monitors that did not start or cannot be read, LOST (the step is
        then disturbed, settled and redone: judge/disturbance.py)."""
        try:
            figures, note = ({LOST: 1}, self.failed) if self.failed else agent(self.host).call("watch_finish")
        except LabError as error:
            figures, note = {LOST: 1}, f"its step monitors could not be read: {error}"
        self.note = f"{self.host} host: {note}" if note else None
        return {(f"{self.host}_{name}" if name.startswith(("irq_", "softirq_")) else name): value
                for name, value in figures.items() if name not in self.CLIENT_ONLY}


def step_monitors(pinning, over_ssh):
    """The monitors of one step: every server's here; over ssh the client's CPUs and TCP stack here,
    and each host's servers, CPUs and stack on that host."""
    if not over_ssh:
        return monitors.host_monitors(None, pinning.lab_cpus())
    return [monitors.OtherWorkMonitor(cpu_list(pinning.client_cpus)), network.NetworkMonitor(),
            *(HostWatch(host, pinning.host_cpus(host)) for host in remote.ORDER)]


def watching(context):
    """The step monitors around a stretch of load, by the run context's CPUs, topology and
    disturbance limits."""
    return Watch(context.disturbance.limits, step_monitors(context.pinning, context.topology.ssh))
