"""TOPOLOGY=ssh: the web and db hosts are other machines, reached with OpenSSH (WEB_HOST, DB_HOST).

The lab ships itself to each host (the files that host's servers need, under its REMOTE_ROOT),
installs what they need there (stack/setup.sh) and runs its own lifecycle there: `python3 -m
stack.lab ...` with LAB_ON_HOST naming the host and every knob passed along. Starting, stopping and
inspecting a remote server is therefore the same code as a local one, run where the server is."""
import shlex
import subprocess
from dataclasses import dataclass

from stack import registry, settings, topology
from stack.server import LabError
from stack.settings import ROOT, VAR

# The order the hosts come up in (the web host's apps need the database); they go down in reverse.
ORDER = ("db", "web")


def shipped(host):
    """(project files, files under var/) a host's servers need, relative to the project root and to
    var/: the lab's own (the lifecycle, the registry, the sweep's agent in harness/, the speed
    canary that watches the servers' CPUs, the password), then what the registry declares its
    servers ship; a load client host needs only the agent (it
    runs that host's httperf and watches it) and stack/setup.sh's packages (httperf)."""
    if host not in ORDER:
        return ["stack", "contract", "harness"], []
    project, var = registry.shipped_with(host)
    return ["stack", "contract", "harness", "target/canary", *project], ["secrets", *var]


def remote_environment(host):
    """Every knob as set here, and the host the remote copy of the lab is."""
    return {**settings.knobs(), "TOPOLOGY": "ssh", "LAB_ON_HOST": host}


# How long ssh waits for a host that does not answer (ssh_command).
SSH_BOUNDS = ("-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3")


@dataclass(frozen=True)
class Host:
    name: str  # web or db
    destination: str  # what ssh is given: [user@]address, or a Host of SSH_OPTIONS' config
    root: str  # the lab's folder there (relative to the remote user's home unless absolute)

    def ssh_command(self, remote_command):
        """ssh never prompts, and gives up on a host that does not answer: within 10 s at connect,
        within 15 s once connected (keepalives every 5 s, 3 missed). SSH_OPTIONS come first: ssh
        keeps the first value it is given, so the user's win."""
        return ["ssh", "-o", "BatchMode=yes", *shlex.split(settings.knob("SSH_OPTIONS")), *SSH_BOUNDS,
                self.destination, remote_command]

    def run(self, remote_command, stdin=None):
        return self.run_ssh(self.ssh_command(remote_command), f"`{remote_command}`", stdin)

    def run_ssh(self, command, what, stdin=None, timeout=900):
        try:
            result = subprocess.run(command, stdin=stdin, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise LabError(f"{self.name} host ({self.destination}): {what} took over {timeout} s") from None
        if result.returncode:
            raise LabError(f"{self.name} host ({self.destination}): {what} failed with code "
                           f"{result.returncode}:\n{(result.stdout + result.stderr).strip()}")
        return result.stdout

    def unpack(self, base, paths, into):
        """Send paths under a local folder to a folder under the host's root, as one tar stream."""
        present = [path for path in paths if (base / path).exists()]
        if not present:
            return
        tar = subprocess.Popen(["tar", "-C", str(base), "-czf", "-", *present], stdout=subprocess.PIPE)
        target = shlex.quote(f"{self.root}/{into}" if into else self.root)
        try:
            self.run(f"mkdir -p {target} && tar -xzf - -C {target}", stdin=tar.stdout)
        finally:
            tar.stdout.close()
            tar.wait()

    def ship(self):
        project, var = shipped(self.name)
        self.unpack(ROOT, project, "")
        self.unpack(VAR, var, "var")
        return f"{self.name} host ({self.destination}): shipped {', '.join(project + ['var/' + path for path in var])} to {self.root}"

    def in_root(self, command):
        """The ssh command that runs a command in the lab's folder on the host, with the knobs set."""
        assignments = " ".join(f"{name}={shlex.quote(value)}" for name, value in remote_environment(self.name).items())
        return self.ssh_command(f"cd {shlex.quote(self.root)} && env {assignments} {command}")

    def run_in_root(self, command):
        """A command run in the lab's folder on the host: its output lines, each marked with the host."""
        output = self.run_ssh(self.in_root(command), f"`{command}`")
        return [f"[{self.name}] {line}" for line in output.splitlines()]

    def lab(self, *arguments):
        return self.run_in_root("python3 -m stack.lab " + shlex.join(arguments))

    def setup(self):
        """The host's packages (stack/setup.sh, a quick no-op when they are there)."""
        return self.run_in_root("bash stack/setup.sh")


def hosts():
    """The remote hosts of TOPOLOGY=ssh, in the order they come up."""
    now = topology.current()
    root = settings.knob("REMOTE_ROOT")
    return [Host(name, now.destination(name), root.format(host=name)) for name in ORDER]


def client_hosts():
    """The load client hosts (CLIENT_HOSTS), named client1, client2, ... in the order given."""
    root = settings.knob("REMOTE_ROOT")
    return [Host(f"client{number}", destination, root.format(host=f"client{number}"))
            for number, destination in enumerate(topology.current().load_clients, start=1)]


def every_host():
    """Every host of TOPOLOGY=ssh the sweep talks to: the servers' and the load clients'."""
    return hosts() + client_hosts()


def load_client(number):
    """The host that runs client `number` (from 1) of a step: the load client hosts in turn; None
    for this machine (no CLIENT_HOSTS)."""
    load_hosts = client_hosts()
    return load_hosts[(number - 1) % len(load_hosts)] if load_hosts else None


def up(servers_of):
    """Ship, install and start every host's servers (servers_of: host -> the server names to start
    there; an empty list skips the host); then make each load client host ready (httperf)."""
    lines = []
    for host in hosts():
        if not servers_of(host.name):
            continue
        lines += [host.ship(), *host.setup(), *host.lab("up", *servers_of(host.name))]
    for host in client_hosts():
        lines += [host.ship(), *host.setup()]
    return lines


def down():
    return [line for host in reversed(hosts()) for line in host.lab("down")]


def status():
    return [line for host in hosts() for line in host.lab("status")]


def import_data(if_needed):
    [db] = [host for host in hosts() if host.name == "db"]
    return db.lab("import", *(["--if-needed"] if if_needed else []))
