"""The topology's plan: names, addresses, and the ip/tc commands that build it (none run here)."""
import ipaddress

import pytest

from stack import topology

NETNS = topology.Topology("netns", "100mbit", "lababc123")
CPUS = {"client": "0", "web": "1", "db": "1"}


def test_loopback_puts_every_host_on_127_0_0_1_in_this_namespace():
    loopback = topology.Topology("loopback", "", "lababc123")
    assert {loopback.address(host) for host in topology.HOSTS} == {"127.0.0.1"}
    assert loopback.namespaces() == [] and loopback.namespace("web") is None
    assert topology.create(loopback, CPUS) is None  # nothing to build


def test_netns_hosts_have_namespaces_of_their_own_and_addresses_in_the_benchmarking_range():
    benchmarking = ipaddress.ip_network("198.18.0.0/15")
    addresses = [NETNS.address(host) for host in topology.HOSTS]
    assert len(set(addresses)) == 3 and all(ipaddress.ip_address(address) in benchmarking for address in addresses)
    assert NETNS.namespaces() == ["lababc123-switch", "lababc123-client", "lababc123-web", "lababc123-db"]


def test_every_command_works_inside_the_labs_namespaces_never_in_the_root_one():
    for command in topology.creation_commands(NETNS, CPUS):
        inside = (command[:3] == ["ip", "netns", "add"] or command[:3] == ["ip", "netns", "exec"]
                  or command[1] == "-n")
        assert inside, command
        named = command[3] if command[1] == "netns" else command[2]
        assert named.startswith("lababc123-"), command


def test_the_hosts_get_no_route_but_their_own_subnet():
    commands = topology.creation_commands(NETNS, CPUS)
    assert not [command for command in commands if "route" in command]
    assert ["ip", "-n", "lababc123-web", "addr", "add", "198.18.0.2/24", "dev", "eth0"] in commands


def test_every_link_is_shaped_in_both_directions_at_the_link_rate():
    shaping = topology.shaping_commands(NETNS, "100mbit")
    assert len(shaping) == 2 * len(topology.HOSTS)
    assert all(command[command.index("rate") + 1] == "100mbit" for command in shaping)
    devices = {(command[2], command[command.index("dev") + 1]) for command in shaping}
    assert ("lababc123-web", "eth0") in devices and ("lababc123-switch", "web") in devices
    assert topology.shaping_commands(NETNS, "") == []
    assert set(map(tuple, shaping)) <= set(map(tuple, topology.creation_commands(NETNS, CPUS)))


def test_receive_packet_steering_puts_each_hosts_packets_on_its_cpus():
    steering = [command[-1] for command in topology.creation_commands(NETNS, CPUS) if "rps_cpus" in command[-1]]
    assert steering == ["echo 1 > /sys/class/net/eth0/queues/rx-0/rps_cpus",
                        "echo 2 > /sys/class/net/eth0/queues/rx-0/rps_cpus",
                        "echo 2 > /sys/class/net/eth0/queues/rx-0/rps_cpus"]
    assert topology.cpu_mask("0-1") == "3" and topology.cpu_mask("none") == "0"


@pytest.mark.parametrize("link, bits", [("100mbit", 1e8), ("1gbit", 1e9), ("512kbit", 512e3), ("", None)])
def test_link_rates_read_as_tc_writes_them(link, bits):
    assert topology.link_bits_per_s(link) == bits


@pytest.mark.parametrize("link", ["100", "100mbps", "fast", "1 gbit"])
def test_a_link_rate_tc_would_not_take_is_refused(link):
    with pytest.raises(ValueError, match="LINK must be a rate"):
        topology.link_bits_per_s(link)


def test_the_token_bucket_holds_10_ms_of_the_link_and_at_least_one_offloaded_packet():
    assert topology.tbf_burst_bytes(1e8) == 125_000
    assert topology.tbf_burst_bytes(1e9) == 1_250_000
    assert topology.tbf_burst_bytes(1e6) == 64 * 1024


def test_the_knobs_choose_the_topology_and_refuse_a_link_without_namespaces(monkeypatch):
    monkeypatch.setenv("TOPOLOGY", "netns")
    monkeypatch.setenv("LINK", "1gbit")
    assert topology.current().netns and topology.current().link == "1gbit"
    monkeypatch.setenv("TOPOLOGY", "loopback")
    with pytest.raises(ValueError, match="needs TOPOLOGY=netns"):
        topology.current()
    monkeypatch.setenv("TOPOLOGY", "vlan")
    with pytest.raises(ValueError, match="TOPOLOGY must be"):
        topology.current()


def test_two_checkouts_never_share_namespace_names():
    assert topology.prefix_for("/a/var") != topology.prefix_for("/b/var")
    assert topology.prefix_for("/a/var") == topology.prefix_for("/a/var")


def test_every_host_reuses_time_wait_ports_as_loopback_does():
    commands = topology.creation_commands(NETNS, CPUS)
    for host in topology.HOSTS:
        assert topology.run_in(NETNS.namespace(host), ["sysctl", "-qw", "net.ipv4.tcp_tw_reuse=1"]) in commands
