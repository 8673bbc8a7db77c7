"""The sweep's side of separate hosts: the agent's line protocol, served by a real agent process
over pipes (ssh only carries those lines), and how the hosts' step figures are combined."""
import json
import sys

import pytest

from harness.hosts import agent, channel, servers, watch
from harness.measure import monitors
from harness.results.manifest import Manifest
from stack.server import LabError


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
    assert names["ServerSampler"].names == ["mariadb"]
    assert set(names) == {"ServerSampler", "OtherWorkMonitor", "NetworkMonitor", "MariaDBMonitor"}
    web = {type(monitor).__name__: monitor for monitor in monitors.host_monitors("web", [0])}
    assert "mariadb" not in web["ServerSampler"].names and "MariaDBMonitor" not in web
    assert {"PoolMonitor", "JvmMonitor"} <= set(web)


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
    assert web_agent.call("machine")["machine"]["cores"] >= 1
    assert web_agent.process.pid != first


def test_a_hosts_watch_keeps_its_interrupt_times_apart_and_leaves_the_ports_to_the_client(web_agent):
    host_watch = watch.HostWatch("web", "0")
    host_watch.start()
    figures = host_watch.finish()
    assert "web_softirq_cpu0_s" in figures and "softirq_cpu0_s" not in figures
    assert "time_wait_before" not in figures and "free_local_ports_before" not in figures
    assert "apache_cpu_s" in figures and "mariadb_cpu_s" not in figures and "other_cpu_s" in figures


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
    with pytest.raises(LabError, match=r"(?s)the agent ended during version; its log .* ends:\nModuleNotFoundError"):
        ended.call("machine")
    assert ended.process is None


def test_a_host_that_cannot_reuse_time_wait_ports_is_warned_of():
    described = {"hosts": {"client": {"address": "127.0.0.1"},
                           "web": {"address": "192.0.2.10", "machine": {"tcp_tw_reuse": 2}},
                           "db": {"address": "192.0.2.11", "machine": {"tcp_tw_reuse": 1}}}}
    [warning] = servers.time_wait_warnings(described)
    assert warning.startswith("warning: the web host has net.ipv4.tcp_tw_reuse=2")
