"""The sweep's side of the channel to the lab's agent on each host of TOPOLOGY=ssh (agent.py:
`python3 -m harness.hosts.agent`): one ssh connection per host for the whole run, a JSON line each
way per call. Every call is bounded (CALL_TIMEOUTS), a reply counts only when its line is whole, and
an agent that runs other code than this lab's (a host shipped by an older `make up`) is refused at its
first call."""
import hashlib
import json
import os
import selectors
import subprocess
import time

from stack import remote, settings, targets
from stack.server import LabError, log_tail

# The longest a call may take on its host, in seconds: a call answers at once, but a host's
# description runs dpkg, a restart waits for its server to answer (START_TIMEOUT), a recycle for
# Apache's graceful restart, and a query may read 16,000 rows.
AT_ONCE_S = 30
CALL_TIMEOUTS = {"machine": 120}
SERVER_CALL_TIMEOUTS = {"recycle": 60, "checksums": 120, "rows": 120}


def server_call_timeout(call):
    """How long a server's `call` on its host may take: a restart waits START_TIMEOUT for its server."""
    if call == "restart":
        return settings.int_knob("START_TIMEOUT") + AT_ONCE_S
    return SERVER_CALL_TIMEOUTS.get(call)

# The code an agent must run: the lab's own Python and its registry (what `make up` ships).
CODE = ("harness", "stack")


def code_version(root=settings.ROOT):
    """A digest of the lab's code under `root`: its Python files under CODE and the registry."""
    digest = hashlib.sha256()
    files = sorted(path for folder in CODE for path in (root / folder).rglob("*.py") if "__pycache__" not in path.parts)
    for path in [*files, root / targets.TARGETS_FILE.relative_to(settings.ROOT)]:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


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


def whole_line(pending):
    """Pure: (the first whole line of `pending` bytes, decoded, or None while it has none; the rest)."""
    line, newline, rest = pending.partition(b"\n")
    return (line.decode() + "\n", rest) if newline else (None, pending)


class Agent:
    """The lab's agent on one host of TOPOLOGY=ssh, started over ssh on first use and kept for the run."""

    def __init__(self, host):
        self.host = host
        self.process = None
        self.pending = b""
        # What the agent and the lifecycle there say besides their answers (never left unread in a pipe).
        self.log = settings.LOG / f"agent-{host.name}.log"

    @property
    def where(self):
        return f"{self.host.name} host ({self.host.destination})"

    def start(self):
        """Start the agent and check that it runs this lab's code."""
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(self.host.in_root("python3 -m harness.hosts.agent"), stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, stderr=log, bufsize=0)
        self.pending = b""
        theirs, ours = self.exchange("version"), code_version()
        if theirs != ours:
            self.stop()
            raise LabError(f"{self.where}: the agent runs other code than this lab's (version {theirs[:12]}, here "
                           f"{ours[:12]}): `make up` ships this one")

    def call(self, call, *args, timeout_s=None):
        """Make one call on the host and wait for its answer at most timeout_s (the call's own bound
        unless given); a lost agent is started again on the next call."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        return self.exchange(call, *args, timeout_s=timeout_s)

    def exchange(self, call, *args, timeout_s=None):
        timeout_s = timeout_s or CALL_TIMEOUTS.get(call, AT_ONCE_S)
        try:
            self.process.stdin.write(request_line(call, *args).encode())
            line = self.read_line(timeout_s)
        except (OSError, TimeoutError) as error:
            self.stop()
            raise LabError(f"{self.where}: the agent did not answer {call}: {error}") from None
        if not line:
            self.stop()
            raise LabError(f"{self.where}: the agent ended during {call}; the end of its log {self.log}:\n"
                           f"{log_tail(self.log)}")
        try:
            return answer_of(line)
        except LabError as error:
            raise LabError(f"{self.where}: {error}") from None

    def read_line(self, timeout_s):
        """The agent's next reply line ("" when it ended); TimeoutError when no whole line came within
        timeout_s, a partial one included (its rest may never come)."""
        deadline = time.monotonic() + timeout_s
        line, self.pending = whole_line(self.pending)
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while line is None:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    partial = f" ({len(self.pending)} bytes of one)" if self.pending else ""
                    raise TimeoutError(f"no whole answer within {timeout_s:g} s{partial}")
                chunk = os.read(self.process.stdout.fileno(), 65536)
                if not chunk:
                    return ""
                line, self.pending = whole_line(self.pending + chunk)
        return line

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
        [host] = [each for each in remote.every_host() if each.name == host_name]
        _agents[host_name] = Agent(host)
    return _agents[host_name]


def stop_agents():
    for each in _agents.values():
        each.stop()
    _agents.clear()
