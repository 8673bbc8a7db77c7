"""The lab's servers as the sweep drives them, wherever they run. On this machine (loopback, netns)
a server is the lifecycle's own object; with TOPOLOGY=ssh every call is made on the server's host by
the lab's agent there (channel.py)."""
from dataclasses import dataclass

from harness.hosts.channel import agent, server_call_timeout
from harness.measure import jit, processes
from harness.measure.processes import cpu_list
from stack import lab, lifecycle, playbooks, remote, settings, topology

# What the sweep may ask of a server; the agent answers exactly these. The database is asked only
# named queries, never SQL of the caller's: read-only ones (checksums, rows, versions) and the one
# write a workload may declare as its hook (reset_versions: harness/run/workload_hooks.py).
SERVER_CALLS = ("pid", "answers", "recycle", "restart", "pin", "compile_seconds", "started_with", "checksums", "rows",
                "versions", "reset_versions")


class LocalServer:
    """A server on this machine, through the lifecycle that `make up` uses."""

    def __init__(self, name):
        self.name = name
        self.server = lifecycle.lab_servers()[name]

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

    def checksums(self):
        """The database's tables' row counts and digests: a named read-only query."""
        return lab.table_checksums(self.server)

    def versions(self):
        """The sum of both tables' row versions: a named read-only query."""
        return lab.table_versions(self.server)

    def reset_versions(self):
        """Every row's version back to the import's: a named write of the version column alone."""
        return lab.reset_versions(self.server)

    def rows(self, engine, selects=None, limit=None):
        """An engine's rows as a workload selects them, or the first `limit`: a named read-only query."""
        return lab.selected_rows(self.server, engine, selects, limit)


class RemoteServer:
    """A server on a host of TOPOLOGY=ssh: the same calls as LocalServer's, made there."""

    def __init__(self, name):
        self.name = name
        self.agent = agent(lifecycle.lab_servers()[name].host)

    def __getattr__(self, call):
        if call not in SERVER_CALLS:
            raise AttributeError(call)
        return lambda *args: self.agent.call("server", self.name, call, *args,
                                             timeout_s=server_call_timeout(call))


def server(name):
    """A lab server as the sweep drives it: here, or on its host."""
    return RemoteServer(name) if topology.current().ssh else LocalServer(name)


def all_servers():
    return {name: server(name) for name in lifecycle.lab_servers()}


@dataclass(frozen=True)
class Pinning:
    """The CPU lists of the client (httperf, the harness) and of each host's servers."""
    client_cpus: str
    server_cpus: str
    db_cpus: str

    @classmethod
    def from_knobs(cls, client_cpus=None, server_cpus=None, db_cpus=None):
        """CLIENT_CPUS, SERVER_CPUS and DB_CPUS unless given; the database shares the web servers'
        CPUs unless DB_CPUS names others."""
        server_cpus = server_cpus or settings.knob("SERVER_CPUS")
        own_db_cpus = settings.knob("DB_CPUS")
        return cls(client_cpus or settings.knob("CLIENT_CPUS"), server_cpus,
                   db_cpus or (own_db_cpus if own_db_cpus != settings.knob("SERVER_CPUS") else server_cpus))

    def host_cpus(self, host):
        """The CPU list of a host's servers: the database's, or the web servers'."""
        return self.db_cpus if host == "db" else self.server_cpus

    def cpus_of(self, server):
        """The CPU list a server is pinned to: its host's."""
        return self.host_cpus(lifecycle.lab_servers()[server].host)

    def lab_cpus(self):
        """Every CPU the lab uses, the client's and the servers'."""
        return sorted(set(cpu_list(self.client_cpus)) | set(cpu_list(self.server_cpus)) | set(cpu_list(self.db_cpus)))


def pin_servers(pinning):
    """Move every running lab server onto its host's CPUs (on that host)."""
    for name, each in all_servers().items():
        each.pin(pinning.cpus_of(name))


def described_topology(hosts):
    """The manifest's topology (`hosts`, a stack.topology.Topology): where each host was, and over
    ssh what it and each load client host ran and on what."""
    described = hosts.describe()
    if hosts.ssh:
        for host in remote.ORDER:
            described["hosts"][host].update(host_description(host))
        if hosts.load_clients:
            described["load_client_hosts"] = {host.name: {"ssh": host.destination, **host_description(host.name)}
                                              for host in remote.client_hosts()}
    return described


def host_description(role):
    """A TOPOLOGY=ssh host's versions and machine: Ansible's facts from `make up`, the kernel
    settings and versions as its agent reads them now."""
    described = agent(role).call("machine")
    return {**described, "machine": {**playbooks.machine_of(role), **described["machine"]}}


def time_wait_warnings(described):
    """Pure: for TOPOLOGY=ssh's described topology, a warning for each host whose new connections
    cannot reuse TIME_WAIT ports (net.ipv4.tcp_tw_reuse other than 1: the web host's connection per
    request to the db host then runs out of ports near 28,000 / 60 s = 470 a second)."""
    warnings = []
    for host, where in {**described["hosts"], **described.get("load_client_hosts", {})}.items():
        reuse = where.get("machine", {}).get("tcp_tw_reuse")
        if reuse is not None and reuse != 1:
            warnings.append(f"warning: the {host} host has net.ipv4.tcp_tw_reuse={reuse}: its connections to other "
                            f"hosts leave ports in TIME_WAIT for 60 s, and an app that connects per request runs out "
                            f"of them near 470 a second; set it to 1 there (as the lab's namespaces do)")
    return warnings
