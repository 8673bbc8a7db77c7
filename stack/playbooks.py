"""TOPOLOGY=ssh's hosts driven by Ansible: the playbooks in ansible/ set each host up (packages,
kernel settings, the lab's files, the app password) and run the lab's own lifecycle there.

What each host gets comes from the registry's server declarations (stack/remote.py's `shipped`),
handed to the playbooks as extra variables; the lab's files travel as one archive per lab copy, with
the digest of its content, so that a host whose copy is current is left alone and a second `make up`
changes nothing. A play's outcome comes back through the lab's callback
(ansible/plugins/callback/lab_record.py): the lab's commands' output per host, and each host's
changes."""
import hashlib
import json
import subprocess
import tarfile
from pathlib import Path

from stack import inventory, remote, settings
from stack.server import LabError
from stack.settings import ROOT, VAR

PLAYBOOKS = ROOT / "ansible"
WORK = VAR / "ansible"
# Each role's host as the last `make up` found it (machines_by_role): a run's manifest reads it.
MACHINES = WORK / "machines.json"
# The kernel settings the servers' and clients' hosts need: a client that opens a connection per
# request runs out of ports without reusing TIME_WAIT ones (harness/measure/ports.py reads it back).
SYSCTLS = {"net.ipv4.tcp_tw_reuse": "1"}
# Never shipped: the interpreter's caches differ from machine to machine.
SKIPPED = ("__pycache__",)
# The task of ansible/lab.yml, whose output is the lab's own.
LAB_TASK = "The lab's command"


# --- the archive's content (read from the files), the play's outcome (pure) ------------------------

def files_under(base, paths):
    """(path relative to base, absolute path) of every file under the given paths, sorted, caches left out."""
    found = []
    for relative in paths:
        top = base / relative
        candidates = [top] if top.is_file() else sorted(top.rglob("*")) if top.is_dir() else []
        found += [(str(path.relative_to(base)), path) for path in candidates
                  if path.is_file() and not any(part in SKIPPED for part in path.parts)]
    return sorted(found)


def digest(entries):
    """The sha256 of the files' names, modes and contents: what decides whether a host's copy is current."""
    summed = hashlib.sha256()
    for name, path in entries:
        summed.update(f"{name}\0{path.stat().st_mode & 0o777:o}\0".encode())
        summed.update(hashlib.sha256(path.read_bytes()).digest())
    return summed.hexdigest()


def outcome(lines):
    """From the callback's record: {"lines": the lab commands' output as "[role] line", "changed":
    {host: changes}, "failures": [what failed, in words], "facts": {host: the facts gathered}}."""
    records = [json.loads(line) for line in lines if line.strip()]
    results = [record for record in records if "task" in record]
    return {
        "lines": [f"[{record.get('role') or record['host']}] {line}" for record in results
                  if record["task"] == LAB_TASK for line in record["stdout_lines"]],
        "changed": {record["host"]: record["stats"]["changed"] for record in records if "stats" in record},
        "failures": [f"{record['host']}: {record['task']}: "
                     + (record["msg"] or "").strip() + ("\n" + record["stderr"].strip() if record["stderr"] else "")
                     + ("\n" + "\n".join(record["stdout_lines"][-20:]) if record["stdout_lines"] else "")
                     for record in results if record["outcome"] in ("failed", "unreachable")],
        "facts": {record["host"]: record["facts"] for record in results if "facts" in record},
    }


def machine(facts):
    """A host's machine as a run's manifest describes it, from the facts Ansible gathered there
    (ansible/ship.yml): its CPUs (ansible_processor lists index, vendor and model of each), memory,
    system and kernel."""
    models = facts.get("ansible_processor", [])[2::3]
    return {"cores": facts["ansible_processor_vcpus"], "memory_gib": round(facts["ansible_memtotal_mb"] / 1024, 1),
            "cpu_model": ", ".join(dict.fromkeys(models)) or "unknown",
            "system": f"{facts['ansible_distribution']} {facts['ansible_distribution_version']}",
            "kernel": facts["ansible_kernel"], "architecture": facts["ansible_architecture"],
            "described_by": "Ansible's facts, gathered by `make up`"}


def machines_by_role(facts, copies, destinations):
    """{role: {"destination": where the role's copy is, "machine": its host's machine}} of every lab
    copy (`copies`, lab_roles' value) on a host whose facts were gathered."""
    return {copy["role"]: {"destination": destinations[copy["role"]], "machine": machine(facts[host])}
            for host, each in copies.items() if host in facts for copy in each}


def changes_in_words(changed):
    total = sum(changed.values())
    if not total:
        return f"changed nothing on {', '.join(sorted(changed))}"
    return f"{total} change{'s' if total > 1 else ''} ({', '.join(f'{host} {n}' for host, n in sorted(changed.items()) if n)})"


# --- the edges: archives, the inventory in use, ansible-playbook ---------------------------------------

def archive(role):
    """The lab's files for one copy as (archive path, digest): the project's files its servers need
    and theirs under var/, the secrets apart (the playbook copies the password with no_log). The archive is
    written again only when the digest changed."""
    project, var = remote.shipped(role)
    entries = files_under(ROOT, project) + [(f"var/{name}", path) for name, path in
                                             files_under(VAR, [each for each in var if each != "secrets"])]
    summed = digest(entries)
    WORK.mkdir(parents=True, exist_ok=True)
    path, known = WORK / f"ship-{role}.tar.gz", WORK / f"ship-{role}.digest"
    if not path.exists() or not known.exists() or known.read_text() != summed:
        with tarfile.open(path, "w:gz", compresslevel=1) as tar:
            for name, source in entries:
                tar.add(source, arcname=name, recursive=False)
        known.write_text(summed)
    return path, summed


def inventory_in_use():
    """(path of the inventory the playbooks run on, its machines): INVENTORY's, or one written from
    WEB_HOST, DB_HOST and CLIENT_HOSTS (written again only when it changed)."""
    given = settings.knob("INVENTORY")
    if given:
        return Path(given), inventory.read(given)[0]
    now = remote.topology.current()
    machines = inventory.one_off_machines(now.destination("web"), now.destination("db"), now.load_clients)
    WORK.mkdir(parents=True, exist_ok=True)
    path = WORK / "inventory.json"
    written = json.dumps(inventory.one_off(machines, settings.knob("SSH_OPTIONS")), indent=2)
    if not path.exists() or path.read_text() != written:
        path.write_text(written)
    return path, machines


def lab_roles(machines, servers_of=None):
    """{inventory host: [each lab copy there: role, folder, environment, password, and for `make up`
    (servers_of: role -> the servers to start) the archive, its digest and the servers]}: the web and
    db hosts' copies (for `make up`, those with servers to start), each load client's."""
    copies = {}
    hosts = remote.by_role()
    for role, machine in [("db", machines["db"]), ("web", machines["web"]),
                          *((f"client{number}", each) for number, each in enumerate(machines["clients"], start=1))]:
        serving = role in remote.ORDER
        copy = {"role": role, "root": hosts[role].root, "environment": remote.remote_environment(role),
                "password": str(settings.PASSWORD_FILE) if serving else ""}
        if servers_of:
            servers = servers_of(role) if serving else []
            if serving and not servers:
                continue
            path, summed = archive(role)
            copy.update(archive=str(path), digest=summed, servers=servers)
        copies.setdefault(machine.name, []).append(copy)
    return copies


def play(playbook, path, roles, **variables):
    """Run one of ansible/'s playbooks on the inventory at `path`: its outcome (see `outcome`); a failed
    play is a LabError that says which host and task failed and why."""
    WORK.mkdir(parents=True, exist_ok=True)
    record, extra = WORK / f"record-{Path(playbook).stem}.jsonl", WORK / "variables.json"
    record.write_text("")
    extra.write_text(json.dumps({"lab_roles": roles, "lab_sysctls": SYSCTLS, **variables}))
    extra.chmod(0o600)
    command = inventory.ansible("playbook", "-i", str(path), "-e", f"@{extra}", str(PLAYBOOKS / playbook))
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800,
                                env={**inventory.quiet_environment(), "LAB_ANSIBLE_RECORD": str(record)})
    except subprocess.TimeoutExpired:
        raise LabError(f"ansible-playbook {playbook} took over 30 min; its record: {record}") from None
    found = outcome(record.read_text().splitlines())
    if result.returncode:
        raise LabError(f"ansible-playbook {playbook} failed (exit code {result.returncode}):\n"
                       + ("\n".join(found["failures"]) or result.stdout[-3000:] + result.stderr[-2000:]))
    return found


def run(playbook, servers_of=None, **variables):
    """The lab's lines for one playbook: the commands' output per host, then what Ansible changed.
    The machines of hosts whose facts it gathered are kept for the manifest."""
    path, machines = inventory_in_use()
    copies = lab_roles(machines, servers_of)
    found = play(playbook, path, copies, **variables)
    if found["facts"]:
        destinations = {role: host.destination for role, host in remote.by_role().items()}
        kept = json.loads(MACHINES.read_text()) if MACHINES.exists() else {}
        MACHINES.write_text(json.dumps({**kept, **machines_by_role(found["facts"], copies, destinations)}, indent=2))
    return found["lines"] + [f"ansible: {playbook}: {changes_in_words(found['changed'])}"]


def machine_of(role):
    """The machine of a role's host (web, db, client1, ...) as the last `make up` gathered it; a
    LabError when that up was not of the host the role is on now."""
    destination = remote.by_role()[role].destination
    kept = json.loads(MACHINES.read_text()).get(role, {}) if MACHINES.exists() else {}
    if kept.get("destination") != destination:
        raise LabError(f"the {role} host ({destination}) is described from the facts `make up` gathers there, "
                       f"and no `make up` from here has set it up: run `make up` (it changes nothing on a host set up already)")
    return kept["machine"]


# --- the lab's commands on TOPOLOGY=ssh (stack/lab.py) -------------------------------------------------

def up(servers_of):
    """Set every host up and start its servers (servers_of: role -> the server names to start there;
    an empty list leaves the host out), database first; each load client host gets httperf."""
    return run("up.yml", servers_of)


def down():
    return run("down.yml")


def status():
    return run("status.yml")


def exposure():
    """Each host's report of what it exposes (stack/exposure.py), a JSON line prefixed "[role] "."""
    return run("exposure.yml")


def import_data(if_needed):
    return run("import.yml", lab_import_options="--if-needed" if if_needed else "")
