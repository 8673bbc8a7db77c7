"""The kernel's TCP counters, parsed from /proc/net/netstat and /proc/net/snmp as recorded here."""
from harness.measure import network
from stack.settings import ROOT

PROC = ROOT / "tests" / "fixtures" / "proc"


def counters():
    found = network.parse_counters((PROC / "netstat.txt").read_text())
    found.update(network.parse_counters((PROC / "snmp.txt").read_text()))
    return found


def test_every_counter_the_steps_record_is_in_this_kernels_tables():
    found = counters()
    assert all(key in found for key in network.COUNTERS)
    assert found[("TcpExt", "SyncookiesSent")] == 3967 and found[("Tcp", "RetransSegs")] == 38134


def test_a_step_records_how_much_each_counter_grew():
    before = counters()
    after = {**before, ("TcpExt", "ListenOverflows"): before[("TcpExt", "ListenOverflows")] + 1500}
    deltas = network.counter_deltas(before, after)
    assert deltas["tcp_listen_overflows"] == 1500
    assert set(deltas.values()) == {0, 1500} and len(deltas) == len(network.COUNTERS)


def test_a_counter_the_kernel_lacks_counts_as_zero():
    assert network.counter_deltas({}, {})["tcp_syn_retransmits"] == 0


def test_a_listening_sockets_queue_is_ss_recv_q():
    assert network.listen_queue("u_str LISTEN 3      511    /work/var/run/php-fpm.sock 67099630 * 0\n") == 3
    assert network.listen_queue("LISTEN 0      511        127.0.0.1:18083      0.0.0.0:*\n") == 0
    assert network.listen_queue("") == 0


def test_a_connections_segments_are_read_from_its_tcp_info():
    """A client's TCP_INFO recorded after three requests on one kept-alive connection to the lab's
    Apache; `ss -tin` showed the same socket's segs_out:8 segs_in:5 data_segs_out:3 data_segs_in:3."""
    segments = network.segments_of((PROC / "tcp_info.bin").read_bytes())
    assert segments == network.Segments(sent=8, received=5, data_sent=3, data_received=3)


def test_a_links_mtu_is_read_from_ip_link():
    shown = "1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000"
    assert network.mtu_of(shown) == 65536
    assert network.mtu_of("2: eth0@if5: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP") == 1500
    assert network.mtu_of("") is None
