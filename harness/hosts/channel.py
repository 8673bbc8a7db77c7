"""The sweep's side of the channel to the lab's agent on each host of TOPOLOGY=ssh (agent.py:
`python3 -m harness.hosts.agent`): one ssh connection per host for the whole run, a JSON line each
way per call."""
import json
import selectors
import subprocess

from stack import remote, settings
from stack.server import LabError, log_tail


def request_line(call, *args):
    """Pure: one call as the agent reads it."""
    return json.dumps({"call": call, "args": list(args)}) + "\n"


def answer_of(line):
    """Pure: the value of the agent's reply line; LabError with the agent's message when the call
    failed there."""
    try:
        reply = json.loads(line)
    except ValueError:
        raise LabError(f"the agent answered {line[:200]!r}, not a JSON line") from None
    if "error" in reply:
        raise LabError(reply["error"])
    return reply["value"]


class Agent:
    """The lab's agent on one host of TOPOLOGY=ssh, started over ssh on first use and kept for the run."""

    def __init__(self, host):
        self.host = host
        self.process = None
        # What the agent and the lifecycle there say besides their answers (never left unread in a pipe).
        self.log = settings.LOG / f"agent-{host.name}.log"

    def start(self):
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(self.host.in_root("python3 -m harness.hosts.agent"), stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=log, text=True, bufsize=1)

    def call(self, call, *args, timeout_s=600):
        """Make one call on the host and wait at most timeout_s for its answer (a restart waits for the
        server to answer); a lost agent is started again on the next call."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        where = f"{self.host.name} host ({self.host.destination})"
        try:
            self.process.stdin.write(request_line(call, *args))
            self.process.stdin.flush()
            line = self.read_line(timeout_s)
        except (OSError, TimeoutError) as error:
            self.stop()
            raise LabError(f"{where}: the agent did not answer {call}: {error}") from None
        if not line:
            self.stop()
            raise LabError(f"{where}: the agent ended during {call}; its log {self.log} ends:\n{log_tail(self.log)}")
        try:
            return answer_of(line)
        except LabError as error:
            raise LabError(f"{where}: {error}") from None

    def read_line(self, timeout_s):
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            if not selector.select(timeout_s):
                raise TimeoutError(f"no answer within {timeout_s:g} s")
        return self.process.stdout.readline()

    def stop(self):
        """End the agent: it exits when its input closes."""
        if self.process is None:
            return
        try:
            self.process.stdin.close()
            self.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self.process = None



_agents = {}


def agent(host_name):
    """The run's agent on one host."""
    if host_name not in _agents:
        [host] = [each for each in remote.hosts() if each.name == host_name]
        _agents[host_name] = Agent(host)
    return _agents[host_name]


def stop_agents():
    for each in _agents.values():
        each.stop()
    _agents.clear()
