"""The kernel's view of the lab's TCP traffic, for each step: the counters that show connections
dropped at a server's accept queue (a dropped SYN is retried only after a second, a cliff in the
reply rate), and the ephemeral ports held in TIME_WAIT before the step. Parsing is pure; the
monitor reads /proc at the edge."""
import re
import socket
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

from harness.measure import ports
from stack import topology

# (table, counter) -> column in steps.tsv: the counters that tell a queue from a cliff.
COUNTERS = {
    ("TcpExt", "ListenOverflows"): "tcp_listen_overflows",
    ("TcpExt", "ListenDrops"): "tcp_listen_drops",
    ("TcpExt", "SyncookiesSent"): "tcp_syncookies_sent",
    ("TcpExt", "TCPSynRetrans"): "tcp_syn_retransmits",
    ("Tcp", "AttemptFails"): "tcp_attempt_fails",
    ("Tcp", "RetransSegs"): "tcp_retransmitted_segments",
}


def parse_counters(text):
    """{(table, counter): value} from /proc/net/netstat or /proc/net/snmp text: each table is a
    line of names followed by a line of values."""
    found = {}
    lines = text.splitlines()
    for names, values in zip(lines[::2], lines[1::2]):
        table, *keys = names.split()
        _, *numbers = values.split()
        for key, number in zip(keys, numbers):
            try:
                found[(table.rstrip(":"), key)] = int(number)
            except ValueError:
                continue
    return found


def read_counters():
    """The counters of the calling thread's network namespace (/proc/net is the process's)."""
    found = {}
    for table in ("/proc/thread-self/net/netstat", "/proc/thread-self/net/snmp"):
        try:
            found.update(parse_counters(Path(table).read_text()))
        except OSError:
            continue
    return found


def summed(counter_sets):
    """One set of counters from several namespaces' (each its own TCP stack): a SYN retransmitted
    is counted on the client host, a listen queue overflow on the web host's."""
    total = {}
    for counters in counter_sets:
        for key, value in counters.items():
            total[key] = total.get(key, 0) + value
    return total


def lab_counters():
    """The counters of every host's namespace, summed (on loopback: this one's)."""
    now = topology.current()
    if not now.netns:
        return read_counters()
    return summed(topology.within(now.namespace(host), read_counters) for host in topology.HOSTS)


# struct tcp_info (linux/tcp.h, Linux 4.6 on): from byte 136, tcpi_segs_out and tcpi_segs_in, then
# tcpi_notsent_bytes and tcpi_min_rtt, then tcpi_data_segs_in and tcpi_data_segs_out. A segment is
# counted once per MSS even when the kernel offloads the segmentation.
TCP_INFO_SEGMENTS = struct.Struct("=136xIIIIII")


@dataclass(frozen=True)
class Segments:
    """The TCP segments one connection sent and received, and of those the ones that carried data:
    a message in one segment each way has one data segment each way."""
    sent: int
    received: int
    data_sent: int
    data_received: int


def segments_of(tcp_info):
    """Pure: the segment counts in a TCP_INFO socket option's bytes."""
    sent, received, _, _, data_received, data_sent = TCP_INFO_SEGMENTS.unpack_from(tcp_info)
    return Segments(sent, received, data_sent, data_received)


def connection_segments(sock):
    """The segments a connected TCP socket has sent and received so far (edge)."""
    return segments_of(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, TCP_INFO_SEGMENTS.size))


MTU = re.compile(r"\bmtu (\d+)\b")


def mtu_of(ip_link):
    """Pure: the MTU in `ip -o link show` output ("1: lo: <LOOPBACK,UP> mtu 65536 qdisc ..."); None without one."""
    match = MTU.search(ip_link)
    return int(match.group(1)) if match else None


def client_link_mtu(where):
    """The MTU of the link the client's packets leave by (`where`: a stack.topology.Topology): loopback's,
    or its veth's in its namespace; None over ssh, where the links are the machines'."""
    if where.ssh:
        return None
    device = topology.HOST_DEVICE if where.netns else "lo"
    shown = subprocess.run(topology.run_in(where.namespace("client"), ["ip", "-o", "link", "show", "dev", device]),
                           capture_output=True, text=True, timeout=10)
    return mtu_of(shown.stdout)


def counter_deltas(before, after):
    """The step's columns: how much each counter grew (0 when the kernel lacks it)."""
    return {column: after.get(key, 0) - before.get(key, 0) for key, column in COUNTERS.items()}


class NetworkMonitor:
    """TIME_WAIT sockets and free local ports before the step, and the TCP counters' growth over it."""

    def start(self):
        time_wait = ports.time_wait_sockets()
        self.before = {"time_wait_before": time_wait,
                       "free_local_ports_before": max(0, ports.local_port_range() - time_wait)}
        self.counters = lab_counters()

    def finish(self):
        return {**self.before, **counter_deltas(self.counters, lab_counters())}


def sysctls():
    """The kernel settings that shape connection handling, for the manifest."""
    names = ["net/core/somaxconn", "net/ipv4/tcp_max_syn_backlog", "net/ipv4/tcp_syncookies",
             "net/ipv4/tcp_tw_reuse", "net/ipv4/tcp_fin_timeout", "net/ipv4/ip_local_port_range",
             "net/core/netdev_max_backlog"]
    found = {}
    for name in names:
        try:
            found[name.replace("/", ".")] = " ".join(Path("/proc/sys", name).read_text().split())
        except OSError:
            found[name.replace("/", ".")] = "unavailable"
    return found


def listen_queue(ss_output):
    """Pure: the connections queued on a listening socket for the server to accept them, from `ss -l
    -H` (its Recv-Q column, after the state: "u_str LISTEN 3 511 /path ...", "LISTEN 0 511
    127.0.0.1:18083 ..."); 0 when ss listed none."""
    for line in ss_output.splitlines():
        fields = line.split()
        if "LISTEN" in fields[:2] and len(fields) > fields.index("LISTEN") + 1:
            return int(fields[fields.index("LISTEN") + 1])
    return 0


def listen_backlog(endpoint, namespace=None):
    """How many connections wait now on the server's listening socket (`endpoint`: a Unix socket's
    path, or address:port), seen from the server's own network namespace."""
    family = "-x" if endpoint.startswith("/") else "-t"
    command = ["ss", family, "-l", "-n", "-H", "src", endpoint]
    if namespace:
        command = ["ip", "netns", "exec", namespace, *command]
    result = subprocess.run(command, capture_output=True, text=True, timeout=10)
    return listen_queue(result.stdout)
