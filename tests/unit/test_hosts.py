"""The sweep's side of separate hosts: the agent's line protocol, served by a real agent process
over pipes (ssh only carries those lines), and how the hosts' step figures are combined."""
import json
import socket
import sys

import pytest

from harness.drivers import driver
from harness.hosts import agent, channel, load_clients, servers, watch
from harness.measure import monitors
from harness.measure.canary import CanaryMonitor
from harness.results.manifest import Manifest
from harness.run.context import RunContext
from stack import remote
from stack.topology import Topology
from stack.server import LabError

HTTPERF = driver("httperf")


class ThisMachine:
    """A host whose agent runs here, on pipes instead of an ssh session."""
    name, destination = "web", "this machine"

    def in_root(self, command):
        return [sys.executable, *command.split()[1:]]


@pytest.fixture
def web_agent():
    local = channel.Agent(ThisMachine())
    channel._agents["web"] = local
    yield local
    channel.stop_agents()


def test_the_hosts_figures_combine_into_one_step_row():
    client = {"other_cpu_s": 0.1, "steal_max_s": 0.0, "tcp_syn_retransmits": 2, "time_wait_before": 7}
    web = {"other_cpu_s": 0.25, "steal_max_s": 0.3, "tcp_syn_retransmits": 0, "tcp_listen_overflows": 5,
           "apache_cpu_s": 1.5}
    db = {"other_cpu_s": 0.05, "steal_max_s": 0.1, "tcp_listen_overflows": 1, "mariadb_cpu_s": 0.4}
    assert monitors.merged_monitor_figures([client, web, db]) == {
        "other_cpu_s": 0.4, "steal_max_s": 0.3, "tcp_syn_retransmits": 2, "time_wait_before": 7,
        "tcp_listen_overflows": 6, "apache_cpu_s": 1.5, "mariadb_cpu_s": 0.4}


def test_each_host_watches_only_its_own_servers():
    names = {type(monitor).__name__: monitor for monitor in monitors.host_monitors("db", [0])}
    assert names["ServerSampler"].names == names["PssMonitor"].names == ["mariadb"]
    assert set(names) == {"CanaryMonitor", "ServerSampler", "PssMonitor", "OomKillMonitor", "OtherWorkMonitor",
                          "NetworkMonitor", "MariaDBMonitor", "DiskMonitor"}
    client = [type(monitor).__name__ for monitor in monitors.host_monitors("client1", [0])]
    assert client[0] == "ServerSampler" and "OomKillMonitor" not in client, "no servers there, no canary, no cgroup"
    web = {type(monitor).__name__: monitor for monitor in monitors.host_monitors("web", [0])}
    assert "mariadb" not in web["ServerSampler"].names and "MariaDBMonitor" not in web and "DiskMonitor" not in web
    assert {"PoolLogMonitor", "ListenBacklogMonitor", "JvmMonitor", "JvmHeapMonitor"} <= set(web)


def test_the_speed_is_calibrated_by_the_canary_alone_here_and_by_each_hosts_agent_over_ssh():
    here = RunContext.of(("php",), server_cpus="1", client_cpus="0")
    [canary] = watch.speed_watch(here).monitors
    assert isinstance(canary, CanaryMonitor) and canary.cpus == here.pinning.lab_cpus()
    over_ssh = RunContext.of(("php",), topology=Topology("ssh", "", ""))
    kinds = [type(monitor) for monitor in watch.speed_watch(over_ssh).monitors]
    assert kinds == [type(monitor) for monitor in watch.watching(over_ssh).monitors] and watch.HostWatch in kinds


def test_a_call_is_one_json_line_and_a_failure_there_is_a_lab_error_here():
    assert json.loads(channel.request_line("server", "apache", "pin", "1")) == {
        "call": "server", "args": ["apache", "pin", "1"]}
    assert channel.answer_of('{"value": [1, null]}') == [1, None]
    with pytest.raises(LabError, match="ValueError: no call"):
        channel.answer_of('{"error": "ValueError: no call"}')
    with pytest.raises(LabError, match="not a JSON line"):
        channel.answer_of("Traceback (most recent call last):")


def test_the_agent_answers_only_its_calls_and_every_failure_in_words():
    host_agent = agent.HostAgent()
    assert "no call 'shell'" in json.loads(host_agent.answer('{"call": "shell", "args": ["rm -rf /"]}'))["error"]
    assert "no call stop of a server apache" in json.loads(
        host_agent.answer('{"call": "server", "args": ["apache", "stop"]}'))["error"]
    assert "no call pid of a server nginx" in json.loads(
        host_agent.answer('{"call": "server", "args": ["nginx", "pid"]}'))["error"]
    assert "JSONDecodeError" in json.loads(host_agent.answer("{not json"))["error"]


def test_a_real_agent_serves_calls_goes_on_after_a_refusal_and_is_started_again_when_lost(web_agent):
    with pytest.raises(LabError, match=r"web host \(this machine\): ValueError: no call 'reboot'"):
        web_agent.call("reboot")
    first = web_agent.process.pid
    assert "Python" in web_agent.call("machine")["versions"]["python"]
    assert web_agent.process.pid == first
    web_agent.process.kill()
    web_agent.process.wait()
    assert web_agent.call("machine")["machine"]["tcp_tw_reuse"] in (0, 1, 2)
    assert web_agent.process.pid != first


def test_a_hosts_watch_keeps_its_interrupt_times_apart_and_leaves_the_ports_to_the_client(web_agent):
    host_watch = watch.HostWatch("web", "0")
    host_watch.start()
    figures = host_watch.finish()
    assert "web_softirq_cpu0_s" in figures and "softirq_cpu0_s" not in figures
    assert figures["web_canary_cpu0_before_ms"] > 0 or figures["canary_busy"]
    assert "time_wait_before" not in figures and "free_local_ports_before" not in figures
    assert "apache_cpu_s" in figures and "mariadb_cpu_s" not in figures and "other_cpu_s" in figures


def test_a_load_client_hosts_watch_keeps_its_ports_and_time_wait_under_its_name(web_agent):
    host_watch = watch.HostWatch("web", "0", load_client=True)
    host_watch.start()
    figures = host_watch.finish()
    # Counted, whatever they are (after a full test run's sweeps the TIME_WAIT sockets may hold every port).
    assert figures["web_free_local_ports_before"] >= 0 and figures["web_time_wait_before"] >= 0
    assert "free_local_ports_before" not in figures and "web_softirq_cpu0_s" in figures


def test_a_load_client_hosts_agent_runs_httperf_bounded_and_nothing_else(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the agent's folder on its host
    with socket.socket() as unused:  # a port nothing listens on: every connection is refused
        unused.bind(("127.0.0.1", 0))
        closed = unused.getsockname()[1]
    get = ["httperf", "--server", "127.0.0.1", "--port", str(closed), "--uri", "/", "--rate", "50",
           "--num-conns", "3", "--timeout", "1"]
    post = ["httperf", "--server", "127.0.0.1", "--port", str(closed), "--rate", "50", "--timeout", "1",
            "--wsesslog", "2,0,session-2.txt"]
    host_agent = agent.HostAgent()
    [(got, got_killed), (posted, posted_killed)] = host_agent.load(
        [[get, None, None], [post, "session-2.txt", "/echo method=POST contents='x'\n"]], "none", 20)
    assert (tmp_path / "session-2.txt").read_text() == "/echo method=POST contents='x'\n"
    assert got.startswith("$ timeout -s KILL 20 httperf --server") and not got_killed and not posted_killed
    assert HTTPERF.figures(got)["connrefused"] == 3 and HTTPERF.figures(posted)["connrefused"] == 2
    with pytest.raises(ValueError, match="httperf and nothing else"):
        host_agent.load([[["sh", "-c", "id"], None, None]], "none", 20)
    with pytest.raises(ValueError, match="named like session-1.txt"):
        host_agent.load([[post, "../../etc/cron.d/x", "* * * * * root id"]], "none", 20)


def test_a_lost_load_client_host_says_why_and_the_clients_here_still_run(tmp_path):
    class Lost(ThisMachine):
        name, destination = "client1", "load@192.0.2.20"

        def in_root(self, command):
            return [sys.executable, "-c", "import sys; sys.stdin.readline()"]  # ends at its first call
    channel._agents["client1"] = channel.Agent(Lost())
    channel._agents["client1"].log = tmp_path / "agent-client1.log"
    host = remote.Host("client1", "load@192.0.2.20", "/srv/lab-client1")
    try:
        (here, here_killed), (there, there_killed) = load_clients.run_clients(
            [(None, ([sys.executable, "-c", "print('replies here')"], None)), (host, [["httperf"], None, None])],
            "none", 20)
    finally:
        channel.stop_agents()
    assert "replies here" in here and not here_killed and not there_killed
    assert there.startswith("# on the client1 host (load@192.0.2.20)\n# lost during the step: ")
    assert load_clients.lost_hosts([here, there]) == (
        "a load client host was lost during the step: client1 host (load@192.0.2.20): the agent ended during "
        "version; the end of its log " + str(tmp_path / "agent-client1.log"))
    assert load_clients.lost_hosts([here]) == ""


def test_the_report_names_machines_over_ssh():
    manifest = Manifest({"topology": {"mode": "ssh", "hosts": {"web": {"address": "192.0.2.10"},
                                                                "db": {"address": "192.0.2.11"}}}})
    assert manifest.topology_text == "separate machines over ssh (web 192.0.2.10, db 192.0.2.11)"


def test_an_agent_that_ends_is_reported_with_the_end_of_its_log(tmp_path):
    class Broken(ThisMachine):
        def in_root(self, command):
            return [sys.executable, "-c",
                    "import sys; sys.stdin.readline(); print('ModuleNotFoundError: harness', file=sys.stderr)"]
    ended = channel.Agent(Broken())
    ended.log = tmp_path / "agent-web.log"
    # It ends at its first call: the version handshake every agent answers before any other.
    with pytest.raises(LabError, match=r"(?s)the agent ended during version; the end of its log .*:\nModuleNotFoundError"):
        ended.call("machine")
    assert ended.process is None


def test_a_host_that_cannot_reuse_time_wait_ports_is_warned_of():
    described = {"hosts": {"client": {"address": "127.0.0.1"},
                           "web": {"address": "192.0.2.10", "machine": {"tcp_tw_reuse": 2}},
                           "db": {"address": "192.0.2.11", "machine": {"tcp_tw_reuse": 1}}}}
    described["load_client_hosts"] = {"client1": {"ssh": "load@192.0.2.20", "machine": {"tcp_tw_reuse": 0}}}
    web, client = servers.time_wait_warnings(described)
    assert web.startswith("warning: the web host has net.ipv4.tcp_tw_reuse=2")
    assert client.startswith("warning: the client1 host has net.ipv4.tcp_tw_reuse=0")
