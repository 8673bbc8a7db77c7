"""What every lab server has in common: a config rendered from stack/conf/, a start that waits
until the server really answers, a stop by the PID it wrote (after checking that the PID still
belongs to the process this lab started), and the helpers they share."""
import http.client
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from stack import cgroup, registry, settings, topology
from stack.files import write_atomically
from stack.procfs import cmdline, is_zombie, proc_pids, read_once
from stack.settings import LOG, ROOT, RUN, VAR

CONF = ROOT / "stack" / "conf"


class LabError(Exception):
    """A server could not be started or stopped; the message says which, why and what to read."""


def render(template, values, target, mode=0o644):
    text = (CONF / template).read_text()
    for key, value in values.items():
        text = text.replace(f"@{key}@", str(value))
    leftover = re.findall(r"@[A-Z_]+@", text)
    if leftover:
        raise LabError(f"{template}: placeholders left unfilled: {leftover}")
    write_atomically(target, text, mode)


def port_is_free(address, port):
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((address, port))
        except OSError:
            return False
    return True


def http_answers(address, port, path="/"):
    try:
        conn = http.client.HTTPConnection(address, port, timeout=2)
        conn.request("GET", path)
        conn.getresponse().read()
        conn.close()
        return True
    except OSError:
        return False
    except http.client.HTTPException:
        return False


def read_pid(pidfile):
    """The pid a pidfile names, or None; within one_scan() read once (a sample asks for it per process)."""
    def read():
        try:
            return int(pidfile.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return None
    return read_once("pidfile", str(pidfile), read)


def log_tail(path, lines=15):
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log written)"


def pinned(command, cpus):
    """Prefix a command with taskset when the servers are to be kept off the client's cores."""
    return ["taskset", "-c", cpus, *command] if settings.pinned_to(cpus) else command


class Server:
    """A server's behaviour; what it is (its host, port knob, the servers it needs, how it is
    recycled) is its declaration in the registry's `servers` section."""
    # Knobs a running server was started under that a new value cannot change without a restart.
    start_knobs = ("TOPOLOGY",)

    def __init__(self, name, declared=None):
        """declared: the declaration when it is not the registry's (a server of another TOMCAT_LAYOUT)."""
        self.name = name
        self.declared = declared or registry.server(name)
        # The host it runs on (stack/topology.py): its address and, in TOPOLOGY=netns, its namespace.
        self.host = self.declared["host"]
        self.port_knob = self.declared.get("port_knob", "")
        # Servers that must answer before this one can (started first, restarted first when gone).
        self.needs = tuple(self.declared.get("needs", ()))

    @property
    def port(self):
        """The TCP port, or None for a server reached on a Unix socket."""
        return registry.declared_port(self.declared)

    @property
    def pidfile(self):
        return RUN / f"{self.name}.pid"

    def knob(self, name):
        """A knob as this server runs it: its declaration's own value (a variant's, stack/variants.py),
        else the lab's."""
        return self.declared.get("knobs", {}).get(name, settings.knob(name))

    def knobs(self):
        """Every knob as this server runs it."""
        return {**settings.knobs(), **self.declared.get("knobs", {})}

    @property
    def knobs_file(self):
        """The knobs this server was started with: a run's manifest records these, not today's."""
        return RUN / f"{self.name}.knobs.json"

    @property
    def fixed_knobs(self):
        """The start knobs, and SOAP_PHASES for a server that runs a SOAP engine."""
        return self.start_knobs + (("SOAP_PHASES",) if registry.serves_soap(self.name) else ())

    @property
    def soap_phases_log(self):
        return LOG / f"{self.name}-soap-phases.tsv"

    def soap_phases_target(self, writer=None):
        """Where the server's SOAP engine records its requests' phases, as a fresh file (its engine's
        processes, running as user `writer` when given, write it); "" when SOAP_PHASES is off or the
        server runs no SOAP engine."""
        if settings.knob("SOAP_PHASES") != "on" or not registry.serves_soap(self.name):
            return ""
        write_atomically(self.soap_phases_log, "", 0o644)
        if writer and os.geteuid() == 0:
            shutil.chown(self.soap_phases_log, writer, writer)
        return str(self.soap_phases_log)

    def started_with(self):
        try:
            return json.loads(self.knobs_file.read_text())
        except (OSError, ValueError):
            return None

    @property
    def log(self):
        return LOG / f"{self.name}.log"

    def owns(self, pid):
        """True when pid is this lab's server: guards against killing a recycled PID."""
        return str(VAR) in cmdline(pid) and self.binary_marker in cmdline(pid)

    @property
    def address(self):
        """Where it listens, and only there: its host's address."""
        return topology.current().address(self.host)

    @property
    def namespace(self):
        return topology.current().namespace(self.host)

    @property
    def endpoint(self):
        """Where the server listens, for messages (a server without a TCP port names its socket)."""
        return f"{self.address}:{self.port}"

    def detached(self, command, cpus, log=None, env=None):
        """Start the server's process in the background on its host, pinned to cpus."""
        return detached(command, log or self.log, env=env, cpus=cpus, namespace=self.namespace)

    def pid(self):
        pid = read_pid(self.pidfile)
        if pid and Path(f"/proc/{pid}").exists() and self.owns(pid):
            return pid
        return None

    def processes(self):
        """Every live process of this server (for Apache: the parent and its workers); within one_scan()
        listed once."""
        return read_once("processes", str(self.pidfile),
                         lambda: [pid for pid in proc_pids() if self.owns(pid) and not is_zombie(pid)])

    def recycle(self):
        """Bring the server's worker pool back to its starting size after an overload, where its
        declaration says so (`recycle`); a note of what was done, or None when there is nothing to recycle."""
        return self.renew_workers() if self.declared.get("recycle") else None

    def renew_workers(self):
        raise LabError(f"{self.name}: declared with recycle {self.declared['recycle']!r}, which "
                       f"{type(self).__name__} does not implement")

    def answers(self):
        """True when the server answers a client: asked from the client host."""
        return topology.within(topology.current().namespace("client"), self.probe)

    def probe(self):
        """True when the server answers HTTP on its port (MariaDB says so its own way)."""
        return http_answers(self.address, self.port)

    def start(self, cpus=None):
        started = self.started_with() or {}
        for name in self.fixed_knobs if self.pid() else ():
            running_with = started.get(name, settings.DEFAULTS[name])  # absent: started before the knob
            if running_with != self.knob(name):
                raise LabError(f"{self.name}: running (pid {self.pid()}) with {name}={running_with}, not "
                               f"{self.knob(name)}; run `make down` first")
        if self.pid():
            if self.wait_until_answers(settings.int_knob("START_TIMEOUT")):
                return f"{self.name}: already running (pid {self.pid()}) on {self.endpoint}"
            raise LabError(f"{self.name}: running (pid {self.pid()}) but not answering; "
                           f"see {self.log}\n{log_tail(self.log)}")
        self.pidfile.unlink(missing_ok=True)
        if self.port_knob and not topology.within(self.namespace, lambda: port_is_free(self.address, self.port)):
            raise LabError(f"{self.name}: port {self.endpoint} is taken by another process; "
                           f"free it or choose another port with {self.port_knob}=...")
        LOG.mkdir(parents=True, exist_ok=True)
        RUN.mkdir(parents=True, exist_ok=True)
        self.prepare()
        self.knobs_file.write_text(json.dumps({**self.knobs(), "cpus": cpus or settings.NOT_PINNED}, indent=2) + "\n")
        process = self.launch(cpus)
        deadline = time.monotonic() + settings.int_knob("START_TIMEOUT")
        while time.monotonic() < deadline:
            if self.pid() and self.answers():
                return f"{self.name}: up (pid {self.pid()}) on {self.endpoint}"
            if process is not None and process.poll() not in (None, 0):
                raise LabError(f"{self.name}: exited with code {process.returncode} while starting; "
                               f"see {self.log}\n{log_tail(self.log)}")
            time.sleep(0.2)
        raise LabError(f"{self.name}: did not answer on {self.endpoint} within "
                       f"{settings.knob('START_TIMEOUT')} s; see {self.log}\n{log_tail(self.log)}")

    def wait_until_answers(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.answers():
                return True
            time.sleep(0.2)
        return False

    def stop(self, grace=30):
        """Stop the server by its pid file, then kill any of its processes left over (also those
        orphaned when the main process died: Apache workers keep the port open)."""
        pid = self.pid()
        if pid:
            os.kill(pid, signal.SIGCONT)  # a SIGSTOPped server cannot act on SIGTERM
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline and Path(f"/proc/{pid}").exists() and not is_zombie(pid):
                time.sleep(0.1)
        leftovers = self.processes()
        for straggler in leftovers:
            try:
                os.kill(straggler, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.processes():
            time.sleep(0.1)
        self.pidfile.unlink(missing_ok=True)
        if pid:
            return f"{self.name}: stopped (pid {pid})"
        return f"{self.name}: killed {len(leftovers)} leftover processes" if leftovers else f"{self.name}: not running"

    def status(self, width=10):
        pid = self.pid()
        if not pid:
            return f"{self.name:{width}} stopped"
        state = "answering" if self.answers() else "NOT answering"
        return f"{self.name:{width}} running pid {pid}, {self.endpoint}, {state}; log {self.log}"


def detached(command, log, env=None, cpus=None, namespace=None):
    """Start a server in the background, pinned to cpus, in the servers' cgroup, in its host's
    network namespace if it has one."""
    LOG.mkdir(parents=True, exist_ok=True)
    command = topology.run_in(namespace, cgroup.entered(pinned(command, cpus)))
    with open(log, "ab") as out:
        return subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, env=env)


