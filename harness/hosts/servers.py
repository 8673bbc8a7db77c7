"""The lab's servers as the sweep drives them, wherever they run. On this machine (loopback, netns)
a server is the lifecycle's own object; with TOPOLOGY=ssh every call is made on the server's host by
the lab's agent there (channel.py)."""
from harness.hosts.channel import agent
from harness.measure import jit, processes
from stack import lifecycle, remote, topology

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
        processes.pin_server(self.server, cpus)

    def compile_seconds(self):
        """A JVM's cumulative compile time (harness/measure/jit.py); None when not running or unreadable."""
        return jit.compile_seconds(self.pid())

    def started_with(self):
        return self.server.started_with()

    def sql(self, statements):
        return self.server.sql(statements)


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


def pin_servers(options):
    """Move every running lab server onto its host's CPUs (the options' CPU lists, on that host)."""
    for name, each in all_servers().items():
        each.pin(options.cpus_of(name))


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
