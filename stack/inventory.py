"""TOPOLOGY=ssh's machines as an Ansible inventory: the groups `client`, `web` and `db`.

A team with a fleet names its machines in an inventory (INVENTORY=path); WEB_HOST=, DB_HOST= and
CLIENT_HOSTS= still work, by writing a one-off inventory (`one_off`). Either way the lab reads the
inventory through `ansible-inventory --list` and takes from it each host's ssh destination: `web` and
`db` one host each, `client` the machines whose httperf drives the steps (a host with
`ansible_connection=local` is this machine: the steps' clients run here). The playbooks that set the
hosts up and run their servers are in ansible/ (stack/playbooks.py runs them)."""
import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

from stack import settings
from stack.settings import ROOT

GROUPS = ("client", "web", "db")
# The inventory name of this machine in a one-off inventory: the steps' clients run here.
CONTROLLER = "controller"


class Machine(NamedTuple):
    name: str  # the inventory's name for it, which the playbooks' plays see
    destination: str  # what the lab's own ssh sessions are given


class InventoryError(ValueError):
    """An inventory the lab cannot drive: the message says what is wrong and where."""


def destination(variables, name):
    """The ssh destination of an inventory host: [user@]address, or ssh://[user@]address:port when
    the inventory gives a port other than 22 (OpenSSH takes both)."""
    address = variables.get("ansible_host", name)
    user = variables.get("ansible_user")
    port = int(variables.get("ansible_port", 22))
    at = f"{user}@{address}" if user else address
    return at if port == 22 else f"ssh://{at}:{port}"


def local(variables):
    return variables.get("ansible_connection") == "local"


def members(listing, group):
    """The hosts of a group of `ansible-inventory --list`'s listing, its children's included, in order."""
    entry = listing.get(group, {})
    found = list(entry.get("hosts", ()))
    for child in entry.get("children", ()):
        found += [host for host in members(listing, child) if host not in found]
    return found


def machines(listing, source):
    """{"web": Machine, "db": Machine, "clients": [Machine, ...]} from the listing of an inventory;
    "clients" is empty when the client is this machine. InventoryError, naming `source`,
    when a group is missing or empty, web or db has more than one host, or a host runs locally where
    only a remote one can serve."""
    variables = listing.get("_meta", {}).get("hostvars", {})
    groups = {group: members(listing, group) for group in GROUPS}
    empty = [group for group, hosts in groups.items() if not hosts]
    if empty:
        raise InventoryError(f"{source}: no host in group{'s' if len(empty) > 1 else ''} {', '.join(empty)} "
                             f"(the lab needs the groups {', '.join(GROUPS)}, each with a host)")
    for group in ("web", "db"):
        if len(groups[group]) > 1:
            raise InventoryError(f"{source}: group {group} has {len(groups[group])} hosts "
                                 f"({', '.join(groups[group])}); the lab runs its {group} servers on one")
        if local(variables.get(groups[group][0], {})):
            raise InventoryError(f"{source}: {group} host {groups[group][0]} has ansible_connection=local; "
                                 f"the {group} servers run on a machine reached with ssh")
    clients = groups["client"]
    here = [host for host in clients if local(variables.get(host, {}))]
    if here and len(clients) > 1:
        raise InventoryError(f"{source}: group client mixes this machine ({', '.join(here)}) with "
                             f"remote hosts; name either this machine alone or the remote load clients")
    def machine(name):
        return Machine(name, destination(variables.get(name, {}), name))
    return {"web": machine(groups["web"][0]), "db": machine(groups["db"][0]),
            "clients": [] if here else [machine(name) for name in clients]}


def one_off_machines(web, db, clients):
    """The machines WEB_HOST=, DB_HOST= and CLIENT_HOSTS= name, as their one-off inventory names them:
    web, db and client1.. (no client machine: the steps' clients run here)."""
    return {"web": Machine("web", web), "db": Machine("db", db),
            "clients": [Machine(f"client{number}", each) for number, each in enumerate(clients, start=1)]}


def one_off(machines, ssh_options):
    """The inventory of `one_off_machines` (JSON, which Ansible reads as YAML); the controller is the
    client when there is no client machine."""
    def host(machine):
        user, _, address = machine.destination.rpartition("@")
        return {machine.name: {"ansible_host": address, **({"ansible_user": user} if user else {})}}
    client_hosts = ({name: each for machine in machines["clients"] for name, each in host(machine).items()}
                    or {CONTROLLER: {"ansible_connection": "local"}})
    common = {"ansible_ssh_common_args": ssh_options} if ssh_options else {}
    return {"all": {"vars": common, "children": {
        "client": {"hosts": client_hosts}, "web": {"hosts": host(machines["web"])},
        "db": {"hosts": host(machines["db"])}}}}


class SshHosts(NamedTuple):
    destinations: tuple = ()  # (host, ssh destination) of the web and db hosts
    load_clients: tuple = ()  # the load client hosts' ssh destinations
    ssh_options: str = ""


def ssh_hosts(mode, link):
    """TOPOLOGY=ssh's hosts as the knobs name them: INVENTORY's groups, else WEB_HOST, DB_HOST and
    CLIENT_HOSTS (none for another topology); a ValueError says what does not go together."""
    if settings.knob("INVENTORY"):
        if mode not in ("ssh", "loopback") or link:
            raise ValueError(f"INVENTORY= names the hosts of TOPOLOGY=ssh, not of TOPOLOGY={mode}")
        if any(settings.knob(name) for name in ("WEB_HOST", "DB_HOST", "CLIENT_HOSTS")):
            raise ValueError("INVENTORY= names the hosts: WEB_HOST=, DB_HOST= and CLIENT_HOSTS= go with it, not beside it")
        machines, options = read(settings.knob("INVENTORY"))
        return SshHosts((("web", machines["web"].destination), ("db", machines["db"].destination)),
                        tuple(each.destination for each in machines["clients"]),
                        " ".join(filter(None, (options, settings.knob("SSH_OPTIONS")))))
    load_clients = tuple(settings.knob("CLIENT_HOSTS").replace(",", " ").split())
    if load_clients and mode != "ssh":
        raise ValueError("CLIENT_HOSTS= names load client machines reached with ssh: it needs TOPOLOGY=ssh")
    if mode != "ssh":
        return SshHosts(ssh_options=settings.knob("SSH_OPTIONS"))
    destinations = (("web", settings.knob("WEB_HOST")), ("db", settings.knob("DB_HOST")))
    missing = [f"{host.upper()}_HOST" for host, destination in destinations if not destination]
    if missing:
        raise ValueError(f"TOPOLOGY=ssh needs {' and '.join(missing)} (ssh destinations, e.g. root@192.0.2.10), "
                         f"or INVENTORY= (an Ansible inventory)")
    return SshHosts(destinations, load_clients, settings.knob("SSH_OPTIONS"))


def ssh_options(listing):
    """The ssh options the inventory gives every host (ansible_ssh_common_args of `all`), for the
    lab's own ssh sessions to the same hosts; "" when none."""
    return listing.get("all", {}).get("vars", {}).get("ansible_ssh_common_args", "") or next(
        (each.get("ansible_ssh_common_args") for each in listing.get("_meta", {}).get("hostvars", {}).values()
         if each.get("ansible_ssh_common_args")), "")


# --- the edge: ansible-inventory ---------------------------------------------------------------------

def listing(path):
    """`ansible-inventory --list` of an inventory file: every group and host, its variables resolved."""
    path = Path(path)
    if not path.is_file():
        raise InventoryError(f"INVENTORY={path}: no such file (an Ansible inventory with the groups "
                             f"{', '.join(GROUPS)}; docs/topologies.md shows one)")
    try:
        result = subprocess.run(ansible("inventory", "-i", str(path), "--list"), capture_output=True,
                                text=True, timeout=60, env=quiet_environment())
    except subprocess.TimeoutExpired:
        raise InventoryError(f"INVENTORY={path}: ansible-inventory took over 60 s to read it") from None
    if "No module named ansible" in result.stderr:
        raise InventoryError("Ansible is not installed: `make setup` installs ansible-core")
    problems = [line for line in result.stderr.splitlines() if "WARNING" in line or "ERROR" in line]
    if result.returncode or any("Unable to parse" in line or "ERROR" in line for line in problems):
        raise InventoryError(f"INVENTORY={path}: Ansible could not read it: "
                             + (" ".join(problems) or result.stderr.strip() or f"exit code {result.returncode}"))
    return json.loads(result.stdout)


def ansible(tool, *arguments):
    """An Ansible command (inventory, playbook) run by this interpreter, wherever its scripts went."""
    return [sys.executable, "-m", "ansible", tool, *arguments]


def quiet_environment():
    """The environment of Ansible's commands: the lab's configuration (ansible/ansible.cfg), no colours."""
    return {**os.environ, "ANSIBLE_CONFIG": str(ROOT / "ansible" / "ansible.cfg"), "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_NOCOWS": "1", "ANSIBLE_FORCE_COLOR": "0"}


@functools.lru_cache(maxsize=None)
def read(path):
    """The machines of the inventory at `path`, with the ssh options it gives them."""
    listed = listing(path)
    return machines(listed, f"INVENTORY={path}"), ssh_options(listed)
