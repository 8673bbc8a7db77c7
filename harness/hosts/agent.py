"""The lab's agent on one host of TOPOLOGY=ssh: `python3 -m harness.hosts.agent`, started by the sweep over
ssh (harness/hosts/channel.py) in the lab's folder there. It reads one JSON call per line and answers each
with one JSON line, {"value": ...} or {"error": "..."}, until its input closes:

    {"call": "server", "args": [name, call, *args]}   a call of servers.SERVER_CALLS on a server here
    {"call": "watch_start", "args": [host, cpus]}     start this host's step monitors
    {"call": "watch_finish", "args": []}              their figures and what disturbed them: [figures, note]
    {"call": "machine", "args": []}                   this host's versions and kernel settings, for the manifest
    {"call": "version", "args": []}                   the digest of the lab's code here (channel.code_version)
    {"call": "load", "args": [runs, cpus, wall_s]}     a load client host's httperf runs of one step
    {"call": "prices", "args": [cpus]}                this host's price list on those CPUs (measure/prices.py)

A call that fails is answered with its error; the agent goes on serving."""
import json
import os
import re
import sys
from pathlib import Path

from harness.hosts import inventory, servers
from harness.hosts.channel import code_version
from harness.judge.disturbance import LOST
from harness.measure import load, monitors, prices
from harness.measure.processes import cpu_list
from stack import lifecycle
from stack.server import pinned

# What a load run's session file may be called: a plain name in the agent's folder (load.host_session_file).
SESSION_NAME = re.compile(r"session-\d+\.txt")


class HostAgent:
    def __init__(self):
        self.monitors = []

    def server(self, name, call, *args):
        if name not in lifecycle.lab_servers() or call not in servers.SERVER_CALLS:
            raise ValueError(f"no call {call} of a server {name}")
        return getattr(servers.LocalServer(name), call)(*args)

    def watch_start(self, host, cpus):
        self.monitors = monitors.host_monitors(host, cpu_list(cpus))
        monitors.start_together(self.monitors)

    def watch_finish(self):
        if not self.monitors:
            # An agent started again during the step has no monitors: the step is disturbed, not judged.
            return [{LOST: 1}, "its step monitors were lost (its agent started again during the step)"]
        figures = monitors.finish_together(self.monitors)
        note = "; ".join(monitor.note for monitor in self.monitors if getattr(monitor, "note", None))
        self.monitors = []
        return [figures, note or None]

    def load(self, runs, cpus, wall_limit_s):
        """A load client host's clients of one step, started together as the agent's own children,
        so that this host's watch counts them as the lab's work, not as other work: [[output,
        killed]] of load.run_httperfs, one per run [httperf's argv, the name of its session file here
        or None, the session's text]. Nothing but httperf is run, and each is bounded by the wall
        limit even when this agent is killed."""
        launches = []
        for command, session_name, session_text in runs:
            if command[:1] != ["httperf"]:
                raise ValueError("a load client host runs httperf and nothing else")
            if session_name is not None:
                if not SESSION_NAME.fullmatch(session_name):
                    raise ValueError(f"a session file is named like session-1.txt, not {session_name!r}")
                Path(session_name).write_text(session_text)
            launches.append((["timeout", "-s", "KILL", f"{wall_limit_s:g}", *pinned(command, cpus)], None))
        return load.run_httperfs(launches, wall_limit_s)

    def machine(self):
        """The manifest's description of this host beyond Ansible's facts (stack/playbooks.py's `machine`)."""
        return {"versions": inventory.installed_versions(), "machine": inventory.kernel_settings()}

    def version(self):
        return code_version()

    def prices(self, cpus):
        """The host's price list on the CPUs of a CPU list (harness/measure/prices.py)."""
        return prices.read_prices(cpu_list(cpus))

    def answer(self, line):
        """The reply line to one call line."""
        try:
            request = json.loads(line)
            handler = getattr(self, request["call"]) if request["call"] in CALLS else None
            if handler is None:
                raise ValueError(f"no call {request['call']!r}; the agent answers {', '.join(CALLS)}")
            return json.dumps({"value": handler(*request.get("args", []))}, default=str)
        except Exception as error:  # every failure is answered, so that the sweep can record it
            return json.dumps({"error": f"{type(error).__name__}: {error}"})


CALLS = ("server", "watch_start", "watch_finish", "load", "machine", "version", "prices")


def main():
    # The replies get a descriptor of their own; whatever else writes to standard output (this
    # process or a program it starts) lands in standard error, the sweep's log of this agent.
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    agent = HostAgent()
    for line in sys.stdin:
        if line.strip():
            replies.write(agent.answer(line) + "\n")
            replies.flush()


if __name__ == "__main__":
    main()
