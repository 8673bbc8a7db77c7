"""Where the lab's hosts live. TOPOLOGY=loopback (the default): the client, the web servers and the
database share this kernel's loopback. TOPOLOGY=ssh: the web and db hosts are machines reached with
OpenSSH (WEB_HOST, DB_HOST; stack/remote.py ships and drives them). TOPOLOGY=netns: each is a network namespace of its own (the
client, web and db hosts), joined by veth links through a bridge that lives in a fourth namespace (the
switch), with addresses from the RFC 2544 benchmarking range and, with LINK=, every link shaped by a
token bucket (tc tbf) in both directions. The root namespace gets no link, no address and no route:
nothing in the namespaces can reach anything but the lab's own hosts.

The plan (names, addresses, the ip/tc commands) is pure; applying it, removing it and running code
inside a namespace are the edges."""
import ctypes
import hashlib
import os
import re
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path

from stack import inventory, settings

HOSTS = ("client", "web", "db")
SUBNET_PREFIX = "198.18.0."
PREFIX_LENGTH = 24
# Host part of each host's address: client 198.18.0.1, web .2, db .3.
HOST_NUMBERS = {"client": 1, "web": 2, "db": 3}
LOOPBACK = "127.0.0.1"
# Inside its namespace every host's end of its link has this name; the switch names its port after
# the host.
HOST_DEVICE = "eth0"
BRIDGE = "br0"
# How long a packet may wait in a shaped link's queue before tbf drops it (as a switch's buffer).
QUEUE_LATENCY = "50ms"
# net.ipv4.tcp_tw_reuse in every host's namespace: 1, so that connect() takes TIME_WAIT ports again as
# on loopback (the kernel's 2 reuses them on loopback only). Without it PHP's connection per request
# to the db host left 27,940 of the web host's 28,232 ports in TIME_WAIT (60 s each), and its single
# rows fell from 2,231 to 428 req/s (wrk) within 24 s; with 1, 2,214-2,248.
TW_REUSE = 1
NETNS_DIR = Path("/run/netns")
CLONE_NEWNET = 0x40000000

RATE = re.compile(r"^(\d+(?:\.\d+)?)([kmg]?)bit$")
UNITS = {"": 1, "k": 1e3, "m": 1e6, "g": 1e9}


def link_bits_per_s(link):
    """A LINK= rate in bits/s ("100mbit" -> 1e8); None for an unshaped link ("")."""
    if not link:
        return None
    match = RATE.match(link.lower())
    if not match:
        raise ValueError(f"LINK must be a rate such as 100mbit or 1gbit (tc's units), got {link!r}")
    return float(match.group(1)) * UNITS[match.group(2)]


def tbf_burst_bytes(bits_per_s):
    """The token bucket's depth: 10 ms at the link's rate, and never below 64 KiB, so that one
    segmentation-offloaded packet (veth sends up to 64 KiB at once) fits and the kernel's timer
    granularity does not hold the link below its rate."""
    return max(64 * 1024, int(bits_per_s / 8 / 100))


MODES = ("loopback", "netns", "ssh")


def netns_address(host):
    """A host's address in its namespace (TOPOLOGY=netns)."""
    return f"{SUBNET_PREFIX}{HOST_NUMBERS[host]}"


def host_address(destination):
    """The address in an ssh destination ("root@198.18.0.2" -> "198.18.0.2", and so does
    "ssh://root@198.18.0.2:2222")."""
    address = destination.removeprefix("ssh://").rpartition("@")[2]
    return address.rpartition(":")[0] if destination.startswith("ssh://") and ":" in address else address


@dataclass(frozen=True)
class Topology:
    mode: str  # one of MODES
    link: str  # the LINK= rate, "" for unshaped
    prefix: str  # the namespaces' common name prefix (netns)
    destinations: tuple = ()  # ssh: (host, ssh destination) of the web and db hosts
    load_clients: tuple = ()  # ssh: the load client hosts' ssh destinations (CLIENT_HOSTS)
    ssh_options: str = ""  # ssh: the options of the lab's ssh sessions (SSH_OPTIONS, or the inventory's)

    @property
    def netns(self):
        return self.mode == "netns"

    @property
    def ssh(self):
        return self.mode == "ssh"

    def destination(self, host):
        return dict(self.destinations).get(host)

    def namespace(self, host):
        """The network namespace a host lives in; None on loopback (this process's own)."""
        return f"{self.prefix}-{host}" if self.netns else None

    @property
    def switch(self):
        return f"{self.prefix}-switch"

    def namespaces(self):
        return [self.switch, *(self.namespace(host) for host in HOSTS)] if self.netns else []

    def address(self, host):
        if self.netns:
            return netns_address(host)
        if self.ssh and self.destination(host):
            return host_address(self.destination(host))
        return LOOPBACK

    def describe(self):
        """What the manifest records."""
        return {"mode": self.mode, "link": self.link or "unshaped",
                "link_bits_per_s": link_bits_per_s(self.link),
                "hosts": {host: {"address": self.address(host), "namespace": self.namespace(host),
                                 **({"ssh": self.destination(host)} if self.destination(host) else {})}
                          for host in HOSTS},
                **({"load_clients": list(self.load_clients)} if self.load_clients else {})}


def run_in(namespace, command):
    """A command as run inside a network namespace (with that namespace's /sys); as it is for None."""
    return ["ip", "netns", "exec", namespace, *command] if namespace else list(command)


def cpu_mask(cpus):
    """The hex CPU mask of a taskset list ("1" -> "2", "0-1" -> "3"); "0" (no steering) for none."""
    numbers = settings.cpu_numbers(cpus) or []
    return format(sum(1 << number for number in numbers), "x")


def shaping_commands(topology, link):
    """The tc commands that put a token bucket at `link` on both ends of every host's link (its
    sending side in its namespace, its receiving side at the switch's port); none when unshaped."""
    bits = link_bits_per_s(link)
    if bits is None:
        return []
    tbf = ["tbf", "rate", link, "burst", str(tbf_burst_bytes(bits)), "latency", QUEUE_LATENCY]
    commands = []
    for host in HOSTS:
        commands.append(["tc", "-n", topology.namespace(host), "qdisc", "replace", "dev", HOST_DEVICE, "root", *tbf])
        commands.append(["tc", "-n", topology.switch, "qdisc", "replace", "dev", host, "root", *tbf])
    return commands


def unshaping_commands(topology):
    commands = []
    for host in HOSTS:
        commands.append(["tc", "-n", topology.namespace(host), "qdisc", "del", "dev", HOST_DEVICE, "root"])
        commands.append(["tc", "-n", topology.switch, "qdisc", "del", "dev", host, "root"])
    return commands


def creation_commands(topology, host_cpus):
    """Every command that builds the namespaces: the switch's bridge, one veth link per host with
    its address, loopback up, receive packet steering onto the host's CPUs (host_cpus: host -> a
    taskset list, so that the softirq work of a host's packets lands where the host runs), TIME_WAIT
    ports reused as on loopback, then the shaping."""
    switch = topology.switch
    commands = [["ip", "netns", "add", name] for name in topology.namespaces()]
    commands += [["ip", "-n", switch, "link", "add", BRIDGE, "type", "bridge"],
                 ["ip", "-n", switch, "link", "set", BRIDGE, "up"]]
    for host in HOSTS:
        namespace = topology.namespace(host)
        commands += [
            ["ip", "-n", switch, "link", "add", host, "type", "veth", "peer", "name", HOST_DEVICE, "netns", namespace],
            ["ip", "-n", switch, "link", "set", host, "master", BRIDGE],
            ["ip", "-n", switch, "link", "set", host, "up"],
            ["ip", "-n", namespace, "addr", "add", f"{topology.address(host)}/{PREFIX_LENGTH}", "dev", HOST_DEVICE],
            ["ip", "-n", namespace, "link", "set", HOST_DEVICE, "up"],
            ["ip", "-n", namespace, "link", "set", "lo", "up"],
            run_in(namespace, ["sh", "-c", f"echo {cpu_mask(host_cpus.get(host))} > "
                                           f"/sys/class/net/{HOST_DEVICE}/queues/rx-0/rps_cpus"]),
            run_in(namespace, ["sysctl", "-qw", f"net.ipv4.tcp_tw_reuse={TW_REUSE}"]),
        ]
    return commands + shaping_commands(topology, topology.link)


def prefix_for(var_dir):
    """The lab's own namespace names: one prefix per var/ folder, so two checkouts never share one."""
    return "lab" + hashlib.sha1(str(var_dir).encode()).hexdigest()[:6]


def current():
    """The topology the knobs ask for (TOPOLOGY, LINK, WEB_HOST, DB_HOST, CLIENT_HOSTS, or INVENTORY:
    an Ansible inventory naming the ssh hosts, stack/inventory.py)."""
    mode = settings.knob("TOPOLOGY")
    if mode not in MODES:
        raise ValueError(f"TOPOLOGY must be one of {', '.join(MODES)}, got {mode!r}")
    link = settings.knob("LINK")
    link_bits_per_s(link)
    if link and mode != "netns":
        raise ValueError("LINK= shapes the links between namespaces: it needs TOPOLOGY=netns")
    hosts = inventory.ssh_hosts(mode, link)
    return Topology(mode="ssh" if hosts.destinations else mode, link=link, prefix=prefix_for(settings.VAR),
                    destinations=hosts.destinations, load_clients=hosts.load_clients, ssh_options=hosts.ssh_options)


# --- the edges: the kernel's namespaces --------------------------------------------------------------

def existing(topology):
    """The lab's namespaces that exist now."""
    return [name for name in topology.namespaces() if (NETNS_DIR / name).exists()]


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(f"{' '.join(command)} failed: {result.stderr.strip()}")
    return result.stdout


def create(topology, host_cpus):
    """Build the namespaces (when they are not all there yet: a half-built set is removed first);
    a note of what was done."""
    if not topology.netns:
        return None
    if os.geteuid() != 0:
        raise PermissionError("TOPOLOGY=netns needs root (network namespaces, veth links, tc)")
    if len(existing(topology)) == len(topology.namespaces()):
        return f"topology: namespaces {topology.prefix}-* already there"
    remove(topology)
    try:
        for command in creation_commands(topology, host_cpus):
            run(command)
    except RuntimeError:
        remove(topology)
        raise
    hosts = ", ".join(f"{host} {topology.address(host)}" for host in HOSTS)
    return f"topology: namespaces {topology.prefix}-{{switch,{','.join(HOSTS)}}} ({hosts}), link {topology.link or 'unshaped'}"


def shape(topology, link):
    """Re-shape the running topology's links at `link` ("" removes the shaping)."""
    for command in shaping_commands(topology, link) if link else unshaping_commands(topology):
        subprocess.run(command, capture_output=True)


def remove(topology):
    """Delete the lab's namespaces; their links, bridge and queues go with them. A note, or None."""
    gone = existing(topology)
    for name in gone:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return f"topology: removed namespaces {', '.join(gone)}" if gone else None


_libc = ctypes.CDLL(None, use_errno=True)


def enter(namespace):
    """Move the calling thread into a network namespace: sockets it opens and processes it starts
    from then on live there (threads it starts too)."""
    if namespace is None:
        return
    fd = os.open(NETNS_DIR / namespace, os.O_RDONLY)
    try:
        if _libc.setns(fd, CLONE_NEWNET) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"setns into {namespace}: {os.strerror(error)}")
    finally:
        os.close(fd)


def within(namespace, function):
    """function() run in a thread of its own inside a namespace (this thread stays where it is)."""
    if namespace is None:
        return function()
    outcome = {}

    def body():
        try:
            enter(namespace)
            outcome["value"] = function()
        except BaseException as error:  # handed back to the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=body, name=f"in-{namespace}")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
