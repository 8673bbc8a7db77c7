"""TOPOLOGY=ssh: the web and db hosts are other machines, reached with OpenSSH (an Ansible inventory,
INVENTORY=, or WEB_HOST, DB_HOST and CLIENT_HOSTS).

Each host holds a copy of the lab (the files its servers need, under its REMOTE_ROOT) and runs the
lab's own lifecycle there: `python3 -m stack.lab ...` with LAB_ON_HOST naming the host and every knob
passed along, so starting, stopping and inspecting a remote server is the same code as a local one,
run where the server is. Ansible's playbooks ship the copies and run those commands
(stack/playbooks.py); the sweep's agent on each host is reached with ssh (Host below)."""
import shlex
from dataclasses import dataclass

from stack import registry, settings, topology

# The order the hosts come up in (the web host's apps need the database); they go down in reverse.
ORDER = ("db", "web")


def shipped(host):
    """(project files, files under var/) a host's servers need, relative to the project root and to
    var/: the lab's own (the lifecycle, the registry, the sweep's agent in harness/, the speed
    canary that watches the servers' CPUs and the price list's host-costs, the password), then what the registry declares its
    servers ship; a load client host needs only the agent (it
    runs that host's httperf and watches it) and stack/setup.sh's packages (httperf)."""
    if host not in ORDER:
        return ["stack", "contract", "harness"], []
    project, var = registry.shipped_with(host)
    return ["stack", "contract", "harness", "target/canary", "target/host-costs", *project], ["secrets", *var]


def remote_environment(host):
    """Every knob as set here, the hosts' destinations as the topology has them (an inventory's are
    read here, where Ansible is), and the host the remote copy of the lab is."""
    now = topology.current()
    return {**settings.knobs(), "TOPOLOGY": "ssh", "LAB_ON_HOST": host, "INVENTORY": "",
            "WEB_HOST": now.destination("web"), "DB_HOST": now.destination("db"),
            "CLIENT_HOSTS": " ".join(now.load_clients), "SSH_OPTIONS": now.ssh_options}


# How long ssh waits for a host that does not answer (ssh_command).
SSH_BOUNDS = ("-o", "ConnectTimeout=10", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3")


@dataclass(frozen=True)
class Host:
    name: str  # web or db
    destination: str  # what ssh is given: [user@]address, or a Host of SSH_OPTIONS' config
    root: str  # the lab's folder there (relative to the remote user's home unless absolute)

    def ssh_command(self, remote_command):
        """ssh never prompts, and gives up on a host that does not answer: within 10 s at connect,
        within 15 s once connected (keepalives every 5 s, 3 missed). SSH_OPTIONS (or the inventory's
        ansible_ssh_common_args) come first: ssh keeps the first value it is given, so the user's win."""
        return ["ssh", "-o", "BatchMode=yes", *shlex.split(topology.current().ssh_options), *SSH_BOUNDS,
                self.destination, remote_command]

    def in_root(self, command):
        """The ssh command that runs a command in the lab's folder on the host, with the knobs set."""
        assignments = " ".join(f"{name}={shlex.quote(value)}" for name, value in remote_environment(self.name).items())
        return self.ssh_command(f"cd {shlex.quote(self.root)} && env {assignments} {command}")


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


def by_role():
    """{role: Host} of every host of TOPOLOGY=ssh: web, db, client1, ..."""
    return {host.name: host for host in every_host()}


def load_client(number):
    """The host that runs client `number` (from 1) of a step: the load client hosts in turn; None
    for this machine (no CLIENT_HOSTS)."""
    load_hosts = client_hosts()
    return load_hosts[(number - 1) % len(load_hosts)] if load_hosts else None
