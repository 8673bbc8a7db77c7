"""The lab's servers as the sweep drives them, wherever they run. On this machine (loopback, netns)
a server is the lifecycle's own object; with TOPOLOGY=ssh every call is made on the server's host by
the lab's agent there (harness/agent.py: `python3 -m harness.agent`), one ssh connection per host
for the whole run, a JSON line each way per call. The step monitors split the same way: the client's
CPUs and TCP stack are watched here, each host's servers there, and their figures are combined."""
import json
import selectors
import subprocess

from harness import jit, monitors, network
from stack import lifecycle, remote, settings, topology
from stack.server import LabError, log_tail

# What the sweep may ask of a server; the agent answers exactly these.
SERVER_CALLS = ("pid", "answers", "recycle", "restart", "pin", "compile_seconds", "started_with", "sql")


class LocalServer:
    """A server on this machine, through the lifecycle that `make up` uses."""

    def __init__(self, name):
        self.name = name
        self.server = lifecycle.SERVERS[name]

    def pid(self):
        return self.server.pid()

    def answers(self):
        return self.server.answers()

    def recycle(self):
        return self.server.recycle()

    def restart(self, cpus):
        return lifecycle.restart(self.name, cpus)

    def pin(self, cpus):
        monitors.pin_server(self.server, cpus)

    def compile_seconds(self):
        """A JVM's cumulative compile time (harness/jit.py); None when not running or unreadable."""
        return jit.compile_seconds(self.pid())

    def started_with(self):
        return self.server.started_with()

    def sql(self, statements):
        return self.server.sql(statements)


def request_line(call, *args):
    """Pure: one call as the agent reads it."""
    return json.dumps({"call": call, "args": list(args)}) + "\n"


def answer_of(line):
    """Pure: the value of the agent's reply line; LabError with the agent's message when the call
    failed there."""
    try:
        reply = json.loads(line)
    except ValueError:
        raise LabError(f"the agent answered {line[:200]!r}, not a JSON line") from None
    if "error" in reply:
        raise LabError(reply["error"])
    return reply["value"]


class Agent:
    """The lab's agent on one host of TOPOLOGY=ssh, started over ssh on first use and kept for the run."""

    def __init__(self, host):
        self.host = host
        self.process = None
        # What the agent and the lifecycle there say besides their answers (never left unread in a pipe).
        self.log = settings.LOG / f"agent-{host.name}.log"

    def start(self):
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(self.host.in_root("python3 -m harness.agent"), stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)

    def call(self, call, *args, timeout_s=600):
        """Make one call on the host and wait at most timeout_s for its answer (a restart waits for the
        server to answer); a lost agent is started again on the next call."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        where = f"{self.host.name} host ({self.host.destination})"
        try:
            self.process.stdin.write(request_line(call, *args))
            self.process.stdin.flush()
            line = self.read_line(timeout_s)
        except (OSError, TimeoutError) as error:
            self.stop()
            raise LabError(f"{where}: the agent did not answer {call}: {error}") from None
        if not line:
            self.stop()
            raise LabError(f"{where}: the agent ended during {call}; its log {self.log} ends:\n{log_tail(self.log)}")
        try:
            return answer_of(line)
        except LabError as error:
            raise LabError(f"{where}: {error}") from None

    def read_line(self, timeout_s):
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout_s):
                raise TimeoutError(f"no answer within {timeout_s:g} s")
        return self.process.stdout.readline()

    def stop(self):
        """End the agent: it exits when its input closes."""
        if self.process is None:
            return
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self.process = None


_agents = {}


def agent(host_name):
    """The run's agent on one host."""
    if host_name not in _agents:
        [host] = [each for each in remote.hosts() if each.name == host_name]
        _agents[host_name] = Agent(host)
    return _agents[host_name]


def stop_agents():
    for each in _agents.values():
        each.stop()
    _agents.clear()


class RemoteServer:
    """A server on a host of TOPOLOGY=ssh: the same calls as LocalServer's, made there."""

    def __init__(self, name):
        self.name = name
        self.agent = agent(lifecycle.SERVERS[name].host)

    def __getattr__(self, call):
        if call not in SERVER_CALLS:
            raise AttributeError(call)
        return lambda *args: self.agent.call("server", self.name, call, *args)


def server(name):
    """A lab server as the sweep drives it: here, or on its host."""
    return RemoteServer(name) if topology.current().ssh else LocalServer(name)


def all_servers():
    return {name: server(name) for name in lifecycle.SERVERS}


def described_topology():
    """The manifest's topology: where each host was, and with TOPOLOGY=ssh what it ran and on what."""
    described = topology.current().describe()
    if topology.current().ssh:
        for host in remote.ORDER:
            described["hosts"][host].update(agent(host).call("machine", timeout_s=120))
    return described


def time_wait_warnings(described):
    """Pure: for TOPOLOGY=ssh's described topology, a warning for each host whose new connections
    cannot reuse TIME_WAIT ports (net.ipv4.tcp_tw_reuse other than 1: the web host's connection per
    request to the db host then runs out of ports near 28,000 / 60 s = 470 a second)."""
    warnings = []
    for host, where in described["hosts"].items():
        reuse = where.get("machine", {}).get("tcp_tw_reuse")
        if reuse is not None and reuse != 1:
            warnings.append(f"warning: the {host} host has net.ipv4.tcp_tw_reuse={reuse}: its connections to other "
                            f"hosts leave ports in TIME_WAIT for 60 s, and an app that connects per request runs out "
                            f"of them near 470 a second; set it to 1 there (as the lab's namespaces do)")
    return warnings


def pin_servers(options):
    """Move every running lab server onto its host's CPUs (the options' CPU lists, on that host)."""
    for name, each in all_servers().items():
        each.pin(options.cpus_of(name))


class HostWatch:
    """One host's step monitors (monitors.host_monitors), run by its agent. What only the client's
    side means is left to the client's monitors: the free ports and TIME_WAIT sockets before the
    step; each host's interrupt time per CPU keeps the host's name."""

    CLIENT_ONLY = ("time_wait_before", "free_local_ports_before")

    def __init__(self, host, cpus):
        self.host, self.cpus = host, cpus
        self.note = None

    def start(self):
        agent(self.host).call("watch_start", self.host, self.cpus, timeout_s=60)

    def finish(self):
        figures, note = agent(self.host).call("watch_finish", timeout_s=60)
        self.note = f"{self.host} host: {note}" if note else None
        return {(f"{self.host}_{name}" if name.startswith(("irq_", "softirq_")) else name): value
                for name, value in figures.items() if name not in self.CLIENT_ONLY}


def step_monitors(options):
    """The monitors of one step: every server's here; with TOPOLOGY=ssh the client's CPUs and TCP
    stack here, and each host's servers, CPUs and stack on that host."""
    if not topology.current().ssh:
        return monitors.host_monitors(None, monitors.lab_cpus(options))
    return [monitors.OtherWorkMonitor(monitors.cpu_list(options.client_cpus)), network.NetworkMonitor(),
            *(HostWatch(host, options.host_cpus(host)) for host in remote.ORDER)]


def watch(options):
    """The step monitors around a stretch of load (monitors.Watch)."""
    return monitors.Watch(options, step_monitors(options))

