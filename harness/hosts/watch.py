"""The step monitors around a stretch of load, wherever the servers run: on this machine every
server's monitors here; with TOPOLOGY=ssh the client's CPUs and TCP stack here and each host's
servers on that host, and each load client host's CPUs and stack there, through its agent, their
figures combined. Whether other work disturbed the
stretch is judged from them (harness/judge/disturbance.py)."""
import time

from harness.hosts.channel import agent
from harness.judge.disturbance import LOST, disturbance, redone_while_disturbed
from harness.measure import monitors, network
from harness.measure.canary import CanaryMonitor
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
        monitors.start_together(self.monitors)
        self.started = time.monotonic()
        return self

    def __exit__(self, *_):
        self.wall_s = time.monotonic() - self.started
        self.figures = monitors.finish_together(self.monitors)
        return False

    def disturbed(self):
        """None for a quiet stretch; else what shared the CPUs (harness/judge/disturbance.py)."""
        notes = "; ".join(monitor.note for monitor in self.monitors if getattr(monitor, "note", None))
        return disturbance(self.figures, self.wall_s, self.limits, notes)


class HostWatch:
    """One host's step monitors (monitors.host_monitors), run by its agent. What only a load client
    means, the free ports and TIME_WAIT sockets before the step, is left to the client's monitors
    from a server's host, and kept under a load client host's name from one; so are each host's
    interrupt times and canary readings per CPU."""

    CLIENT_ONLY = ("time_wait_before", "free_local_ports_before")

    def __init__(self, host, cpus, load_client=False):
        self.host, self.cpus, self.load_client = host, cpus, load_client
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
        return {(f"{self.host}_{name}" if self.own(name) else name): value
                for name, value in figures.items() if self.load_client or name not in self.CLIENT_ONLY}

    def own(self, name):
        """Whether a figure keeps the host's name (it means something only per host)."""
        return name.startswith(("irq_", "softirq_", "canary_cpu")) or (self.load_client and name in self.CLIENT_ONLY)


def step_monitors(pinning, over_ssh):
    """The monitors of one step: every server's here; over ssh the client's CPUs and TCP stack here,
    each host's servers, CPUs and stack on that host, and each load client host's CPUs and stack."""
    if not over_ssh:
        return monitors.host_monitors(None, pinning.lab_cpus())
    return [monitors.OtherWorkMonitor(cpu_list(pinning.client_cpus)), network.NetworkMonitor(),
            *(HostWatch(host, pinning.host_cpus(host)) for host in remote.ORDER),
            *(HostWatch(host.name, pinning.client_cpus, load_client=True) for host in remote.client_hosts())]


def watching(context):
    """The step monitors around a stretch of load, by the run context's CPUs, topology and
    disturbance limits."""
    return Watch(context.disturbance.limits, step_monitors(context.pinning, context.topology.ssh))


def speed_watch(context):
    """The speed canary alone around a moment, on every lab CPU: readings toward each CPU's reference
    (runner.calibrate_speed), without the servers' monitors, which the canary reads apart from anyway
    (it reads before they start and after they end). Over ssh each host's canary is read by its
    agent, within that host's step monitors."""
    if context.topology.ssh:
        return watching(context)
    return Watch(context.disturbance.limits, [CanaryMonitor(context.pinning.lab_cpus())])


def quiet_check(context):
    """Before any load: whatever else used the lab's CPUs over the run's quiet_check_s of watching
    ("disturbed": None when nothing did), kept in the run's manifest."""
    seconds = context.disturbance.quiet_check_s
    with watching(context) as watch:
        time.sleep(seconds)
    return {"seconds": seconds, "disturbed": watch.disturbed(), "figures": watch.figures}


class Watched:
    """Runs a stretch of load (a closed-loop window, a SOAP engine's timed calls) under the step
    monitors; one that other work disturbed is redone, at most max_redos times (the last one is kept,
    flagged)."""

    def __init__(self, context):
        self.context = context
        self.redone = 0

    def __call__(self, run):
        def attempt():
            with watching(self.context) as watch:
                result = run()
            return result, watch.disturbed(), watch.figures
        (result, shared, figures), redos = redone_while_disturbed(attempt, lambda taken: taken[1],
                                                                  self.context.disturbance.max_redos)
        self.redone += redos
        return result, shared, figures
