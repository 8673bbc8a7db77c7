"""The channel to a host's agent cannot hang and cannot talk to stale code: every call is bounded, a
partial reply times out, an agent running other code is refused, and a host whose monitors were lost
makes its step disturbed. Real agent processes over pipes (ssh only carries these lines)."""
import contextlib
import re
import shutil
import subprocess
import sys

import pytest

from harness.hosts import channel, servers, watch
from harness.judge.disturbance import LOST, Limits, disturbance
from harness.run import sweep
from harness.run.context import RunContext
from stack import lab, remote
from stack.server import LabError
from stack.settings import ROOT


class ThisMachine:
    """A host whose agent runs here, on pipes instead of an ssh session, from `root`'s code."""
    name, destination = "web", "this machine"

    def __init__(self, root=ROOT):
        self.root = root

    def in_root(self, command):
        return [sys.executable, "-c", f"import sys, runpy; sys.path.insert(0, {str(self.root)!r}); "
                                      f"runpy.run_module('harness.hosts.agent', run_name='__main__')"]


@pytest.fixture
def web_agent(tmp_path):
    local = channel.Agent(ThisMachine())
    local.log = tmp_path / "agent-web.log"
    channel._agents["web"] = local
    yield local
    channel.stop_agents()


def test_a_reply_counts_only_when_its_line_is_whole():
    assert channel.whole_line(b'{"value": 1}\n{"val') == ('{"value": 1}\n', b'{"val')
    assert channel.whole_line(b'{"val') == (None, b'{"val')


def test_every_call_has_a_bound_and_a_restart_waits_for_its_server():
    calls = [*channel.SERVER_CALL_TIMEOUTS, "restart"]
    assert max(channel.AT_ONCE_S, *channel.CALL_TIMEOUTS.values(), *map(channel.server_call_timeout, calls)) <= 120
    assert channel.server_call_timeout("restart") > channel.AT_ONCE_S


def test_a_partial_reply_times_out_instead_of_hanging(tmp_path):
    stuck = channel.Agent(ThisMachine())
    stuck.log = tmp_path / "agent-web.log"
    # An agent that writes half a reply and then nothing until its input closes.
    stuck.process = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.readline(); "
                                      "sys.stdout.write('{\"value\": '); sys.stdout.flush(); sys.stdin.readline()"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)
    with pytest.raises(LabError, match=r"did not answer machine: no whole answer within 1 s \(10 bytes of one\)"):
        stuck.exchange("machine", timeout_s=1)
    assert stuck.process is None, "the stuck agent is stopped"


def test_an_agent_running_other_code_is_refused(tmp_path):
    for folder in channel.CODE:
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "contract").mkdir()
    shutil.copy(ROOT / "contract" / "targets.json", tmp_path / "contract")
    assert channel.code_version(tmp_path) == channel.code_version()
    with open(tmp_path / "harness" / "judge" / "verdict.py", "a") as older:
        older.write("# an older version\n")
    assert channel.code_version(tmp_path) != channel.code_version()
    stale = channel.Agent(ThisMachine(tmp_path))
    stale.log = tmp_path / "agent-web.log"
    with pytest.raises(LabError, match=r"the agent runs other code than this lab's \(version \w{12}, here \w{12}\): "
                                       r"`make up` ships this one"):
        stale.call("machine")
    assert stale.process is None


def test_a_host_whose_agent_started_again_mid_step_makes_the_step_disturbed(web_agent):
    host_watch = watch.HostWatch("web", "0")
    host_watch.start()
    web_agent.process.kill()
    web_agent.process.wait()
    figures = host_watch.finish()  # the call starts the agent again: its monitors are gone
    assert figures == {LOST: 1} and "its step monitors were lost" in host_watch.note
    reason = disturbance({**figures, "other_cpu_s": 0.0}, 3.0, Limits(2, 5), host_watch.note)
    assert reason.startswith("a host's step monitors were lost") and "web host" in reason


def test_a_host_whose_monitors_did_not_start_makes_the_step_disturbed(monkeypatch):
    def unreachable(host_name):
        raise LabError("web host (this machine): the agent did not answer watch_start: no whole answer within 30 s")
    monkeypatch.setattr(watch, "agent", unreachable)
    host_watch = watch.HostWatch("web", "0")
    host_watch.start()
    assert host_watch.finish() == {LOST: 1} and "did not start" in host_watch.note


def test_the_database_is_asked_named_read_only_queries_never_sql(web_agent):
    assert "sql" not in servers.SERVER_CALLS and {"checksums", "rows"} <= set(servers.SERVER_CALLS)
    with pytest.raises(LabError, match="no call sql of a server mariadb"):
        web_agent.call("server", "mariadb", "sql", "DROP TABLE lab.people_myisam")
    # The rows query takes a column and an operator from fixed lists, the value quoted, before any database.
    for selects, refused in ((["id; DROP TABLE x", "=", "1"], "not 'id; DROP TABLE x'"),
                             (["id", "OR 1=1 --", "1"], "not 'id' 'OR 1=1 --'")):
        with pytest.raises(LabError, match=re.escape(refused)):
            lab.selected_rows(None, "myisam", selects)
    with pytest.raises(LabError, match="no engine 'aria'"):
        lab.selected_rows(None, "aria")


def test_ssh_gives_up_on_a_silent_host_unless_the_user_says_otherwise(monkeypatch):
    host = remote.Host("web", "lab@192.0.2.10", "lab")
    command = host.ssh_command("true")
    assert command[:3] == ["ssh", "-o", "BatchMode=yes"] and "ConnectTimeout=10" in command
    assert "ServerAliveInterval=5" in command and "ServerAliveCountMax=3" in command
    monkeypatch.setenv("SSH_OPTIONS", "-o ConnectTimeout=30")
    command = host.ssh_command("true")
    assert command.index("ConnectTimeout=30") < command.index("ConnectTimeout=10"), "ssh keeps the first value"


def test_a_host_lost_for_good_stops_the_sweep_in_words_with_the_command_that_resumes_it(monkeypatch, capsys, tmp_path):
    def lost(runner):
        raise LabError("web host (root@192.0.2.10): the agent did not answer server: no whole answer within 30 s")
    monkeypatch.setattr(sweep, "from_the_client", lambda hosts: contextlib.nullcontext())
    monkeypatch.setattr(sweep.Runner, "run", lost)
    assert sweep.run_sweep(RunContext.of(("php",)), "lost-web", tmp_path) == 1
    said = capsys.readouterr().err
    assert said.startswith("sweep stopped: web host (root@192.0.2.10): the agent did not answer server")
    assert "Traceback" not in said and said.rstrip().endswith("finished steps are saved; resume with RUN=lost-web")
