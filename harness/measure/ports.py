"""The client's ephemeral ports: every request opens a new connection, which leaves its port in
TIME_WAIT for 60 s after httperf closes it. Reading /proc at the edge, judging in a pure function."""
import ipaddress
import time
from pathlib import Path


def local_port_range():
    low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    return high - low + 1


def time_wait_count(sockstat):
    """Pure: the TCP sockets in TIME_WAIT that /proc/net/sockstat counts ("TCP: inuse 11 orphan 0 tw
    37895 ..."): this network namespace's time-wait sockets, IPv4 and IPv6 together, each holding its
    local port (the few that close from FIN_WAIT2 among them); 0 when it has no such line."""
    for line in sockstat.splitlines():
        fields = line.split()
        if fields[:1] == ["TCP:"] and "tw" in fields:
            return int(fields[fields.index("tw") + 1])
    return 0


def time_wait_sockets():
    """Sockets in TIME_WAIT: the kernel's own count, read in one line where listing /proc/net/tcp
    took 0.2 s with 38,000 of them, before and after every step."""
    return time_wait_count(Path("/proc/net/sockstat").read_text())


def tw_reuse():
    """net.ipv4.tcp_tw_reuse: 0 never, 1 always, 2 on loopback only (the kernel's default)."""
    return int(Path("/proc/sys/net/ipv4/tcp_tw_reuse").read_text())


def on_loopback(host):
    """Pure: whether an address (or name) is this machine's loopback."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def reuses_time_wait(reuse, loopback):
    """Pure: whether connect() takes TIME_WAIT ports again for connections to the target: always
    with tcp_tw_reuse 1, to loopback only with 2."""
    return reuse == 1 or (reuse == 2 and loopback)


def ports_free_for(connections, time_wait, port_range, reuse, loopback=True, headroom=0.8):
    """Pure: whether a step of `connections` new connections fits in the ephemeral ports left.
    Without reuse, steps in quick succession run out of ports and fail with addrunavail."""
    return reuses_time_wait(reuse, loopback) or time_wait + connections <= headroom * port_range


def wait_for_ports(connections, loopback=True, limit_s=70):
    """Seconds waited until the step's connections fit in the free ephemeral ports (bounded); the
    target is on loopback or not."""
    started = time.monotonic()
    port_range = local_port_range()
    reuse = tw_reuse()
    needed = min(connections, int(0.8 * port_range))

    def fits():
        return ports_free_for(needed, time_wait_sockets(), port_range, reuse, loopback)
    while time.monotonic() - started < limit_s and not fits():
        time.sleep(2)
    return round(time.monotonic() - started, 1)
