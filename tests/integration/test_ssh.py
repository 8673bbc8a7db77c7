"""TOPOLOGY=ssh against real OpenSSH: the lab runs an sshd of its own in the web and the db host's
network namespaces and drives them from the client's, as it would two remote machines. The
namespaces share one filesystem, so each host gets a REMOTE_ROOT of its own: the servers run from
the copies the lab shipped there, not from this checkout."""
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from harness.drivers import driver
from harness.measure import clients
from harness.results.records import DISTURBED, PASS
from harness.results.store import RunFiles, read_steps, read_summaries, read_tsv
from stack import lifecycle, registry, settings, topology
from stack.procfs import cmdline, is_zombie, parent_of, stat_fields
from stack.server import read_pid
from stack.settings import ROOT, knob
from tests import margins
from tests.integration.conftest import measured_rate

HTTPERF = driver("httperf")

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces and sshd need root")

SSHD = "/usr/sbin/sshd"
SSH_HOSTS = ("client", "web", "db")  # the client's sshd serves CLIENT_HOSTS


def keypair(path):
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "lab-test", "-f", str(path)], check=True)
    return path


def sshd_config(folder, host, address):
    config = folder / f"sshd-{host}.conf"
    config.write_text("\n".join([
        f"ListenAddress {address}", "Port 22", f"HostKey {folder / 'host_key'}",
        f"AuthorizedKeysFile {folder / 'client_key.pub'}", "PermitRootLogin prohibit-password",
        "PasswordAuthentication no", "KbdInteractiveAuthentication no", "UsePAM no", "StrictModes no",
        f"PidFile {folder / f'sshd-{host}.pid'}", "Subsystem sftp internal-sftp", ""]))
    return config


class SshHosts:
    def __init__(self, folder):
        self.folder = folder
        self.topology = topology.Topology("netns", "", topology.prefix_for(folder / "var"))
        self.roots = {host: folder / "hosts" / host for host in ("web", "db", "client1", "client2")}
        self.ssh_config = folder / "ssh_config"
        self.env = {**os.environ, "PYTHONPATH": str(ROOT), "LAB_VAR": str(folder / "var"), "TOPOLOGY": "ssh",
                    "WEB_HOST": f"root@{self.topology.address('web')}",
                    "DB_HOST": f"root@{self.topology.address('db')}",
                    "REMOTE_ROOT": str(folder / "hosts" / "{host}"), "SSH_OPTIONS": f"-F {self.ssh_config}"}

    def start_sshds(self):
        keypair(self.folder / "host_key")
        keypair(self.folder / "client_key")
        self.ssh_config.write_text("\n".join([
            "Host *", f"  IdentityFile {self.folder / 'client_key'}", "  IdentitiesOnly yes",
            f"  UserKnownHostsFile {self.folder / 'known_hosts'}", "  StrictHostKeyChecking accept-new",
            "  ConnectTimeout 5", ""]))
        Path("/run/sshd").mkdir(mode=0o755, exist_ok=True)  # sshd's privilege separation folder
        for host in SSH_HOSTS:
            config = sshd_config(self.folder, host, self.topology.address(host))
            subprocess.run(topology.run_in(self.topology.namespace(host), [
                SSHD, "-f", str(config), "-E", str(self.folder / f"sshd-{host}.log")]), check=True)

    def stop_sshds(self):
        for host in SSH_HOSTS:
            pid = read_pid(self.folder / f"sshd-{host}.pid")
            if pid and SSHD in cmdline(pid):
                os.kill(pid, 15)

    def on_client(self, *command, **knobs):
        """A command run on the client host (it drives the others over ssh), with more knobs: its output."""
        result = subprocess.run(topology.run_in(self.topology.namespace("client"), list(command)),
                                env={**self.env, **knobs}, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def lab(self, *args, **knobs):
        return self.on_client(sys.executable, "-m", "stack.lab", *args, **knobs)

    def team_inventory(self):
        """The knobs that name these hosts through an inventory of a team's own (INVENTORY=), written anew."""
        inventory = self.folder / "team.ini"
        inventory.write_text("\n".join([
            "[web]", f"app1 ansible_host={self.topology.address('web')} ansible_user=root",
            "[db]", f"db1 ansible_host={self.topology.address('db')} ansible_user=root",
            "[client]", "localhost ansible_connection=local",
            "[all:vars]", f"ansible_ssh_common_args=-F {self.ssh_config}", ""]))
        return dict(INVENTORY=str(inventory), WEB_HOST="", DB_HOST="", SSH_OPTIONS="", TOPOLOGY="loopback")

    def pid_of(self, host, server):
        return read_pid(self.roots[host] / "var" / "run" / f"{server}.pid")


@pytest.fixture(scope="module")
def ssh_hosts(tmp_path_factory):
    hosts = SshHosts(tmp_path_factory.mktemp("ssh"))
    subprocess.run([sys.executable, "-c", "from stack import settings; settings.ensure_password()"],
                   env=hosts.env, cwd=ROOT, check=True)
    (hosts.folder / "var" / "opt").symlink_to(settings.OPT)  # the Tomcat `make setup` installed, shipped from here
    topology.create(hosts.topology, lifecycle.host_cpus())
    try:
        hosts.start_sshds()
        hosts.up_output = hosts.lab("up", "apache")
        hosts.import_output = hosts.lab("import")
        yield hosts
        hosts.lab("down")
    finally:
        hosts.stop_sshds()
        time.sleep(0.5)
        topology.remove(hosts.topology)


def test_each_host_gets_the_files_its_servers_need_under_its_own_root(ssh_hosts):
    web, db = ssh_hosts.roots["web"], ssh_hosts.roots["db"]
    assert (web / "php" / "single.php").is_file() and list((web / "target" / "webapps").glob("*.war"))
    assert (web / "var" / "opt" / f"apache-tomcat-{knob('TOMCAT_VERSION')}" / "bin" / "catalina.sh").is_file()
    assert (db / "sql" / "people.tsv").is_file() and not (db / "php").exists() and not (web / "sql").exists()
    for root in (web, db):
        assert (root / "var" / "secrets" / "db-password").read_text() == \
            (ssh_hosts.folder / "var" / "secrets" / "db-password").read_text()
    assert "[web] " in ssh_hosts.up_output and "[db] " in ssh_hosts.up_output
    assert "[db] import: 16000 rows" in ssh_hosts.import_output


def test_ansible_sets_the_hosts_up_with_their_kernel_setting_and_password(ssh_hosts):
    """`make up` runs ansible/up.yml on the one-off inventory WEB_HOST= and DB_HOST= describe: the
    first changes each host (its copy, the password, tcp_tw_reuse in its namespace, its servers). The
    second, through a team's inventory, changes nothing (the next test)."""
    first = ssh_hosts.up_output.splitlines()[-1]
    assert re.fullmatch(r"ansible: up\.yml: \d+ changes \(db \d+, web \d+\)", first), first
    for host in ("web", "db"):
        reuse = subprocess.run(topology.run_in(ssh_hosts.topology.namespace(host), ["sysctl", "-n", "net.ipv4.tcp_tw_reuse"]),
                               capture_output=True, text=True, check=True)
        assert reuse.stdout.strip() == "1"
    secrets = ssh_hosts.roots["web"] / "var" / "secrets"
    assert secrets.stat().st_mode & 0o777 == 0o700 and (secrets / "db-password").stat().st_mode & 0o777 == 0o600


def test_a_second_up_through_a_teams_inventory_changes_nothing_on_the_hosts(ssh_hosts):
    """INVENTORY= in place of WEB_HOST= and DB_HOST=: the hosts under the team's own names, the
    ssh options in the inventory; the copies, servers, data and settings are the ones the first up
    made, and Ansible reports no change."""
    from_inventory = ssh_hosts.team_inventory()
    again = ssh_hosts.lab("up", "apache", **from_inventory)
    assert again.splitlines()[-1] == "ansible: up.yml: changed nothing on app1, db1, localhost", again
    assert "[db] mariadb: already running (pid " in again and "[web] apache: already running (pid " in again
    status = ssh_hosts.lab("status", **from_inventory)
    assert re.search(r"^\[db\] mariadb +running", status, re.M) and re.search(r"^\[web\] apache +running", status, re.M)
    imported = ssh_hosts.lab("import", "--if-needed", **from_inventory)
    assert "[db] import: data already in place" in imported
    assert imported.splitlines()[-1] == "ansible: import.yml: changed nothing on db1", imported
    inventory = Path(from_inventory["INVENTORY"])
    inventory.write_text("[web]\napp1\n[client]\nlocalhost ansible_connection=local\n")
    refused = subprocess.run(topology.run_in(ssh_hosts.topology.namespace("client"), [sys.executable, "-m", "stack.lab", "up"]),
                             env={**ssh_hosts.env, **from_inventory}, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and refused.stderr.strip() == (
        f"ERROR INVENTORY={inventory}: no host in group db (the lab needs the groups client, web, db, each with a host)")


def test_the_servers_run_from_the_shipped_copies_bound_to_their_hosts_addresses(ssh_hosts):
    mariadb, apache = ssh_hosts.pid_of("db", "mariadb"), ssh_hosts.pid_of("web", "apache")
    assert str(ssh_hosts.roots["db"]) in cmdline(mariadb) and str(ssh_hosts.roots["web"]) in cmdline(apache)
    assert ssh_hosts.pid_of("web", "mariadb") is None and ssh_hosts.pid_of("db", "apache") is None
    config = (ssh_hosts.roots["web"] / "var" / "run" / "apache.conf").read_text()
    assert "Listen 198.18.0.2:" in config and 'LAB_DB_HOST "198.18.0.3"' in config


def test_the_page_is_served_from_the_web_host_with_the_rows_of_the_db_host(ssh_hosts):
    request = registry.request("php", "single", engine="innodb")
    url = f"http://{ssh_hosts.topology.address('web')}:{request.port}{request.path}"
    reply = subprocess.run(topology.run_in(ssh_hosts.topology.namespace("client"), ["curl", "-s", "-w", "\n%{http_code}", url]),
                           capture_output=True, text=True, timeout=30)
    body, status = reply.stdout.rsplit("\n", 1)
    assert status == "200" and "<td>" in body


def test_status_asks_each_host_and_down_stops_exactly_what_up_started(ssh_hosts):
    status = ssh_hosts.lab("status")
    assert re.search(r"^\[db\] mariadb +running", status, re.M) and re.search(r"^\[web\] apache +running", status, re.M)
    assert "[web] mariadb" not in status and "[db] apache" not in status
    pids = [ssh_hosts.pid_of("db", "mariadb"), ssh_hosts.pid_of("web", "apache")]
    # Down and up again through a team's inventory: the same playbooks on the hosts it names.
    down = ssh_hosts.lab("down", **ssh_hosts.team_inventory())
    assert down.splitlines()[-1] == "ansible: down.yml: 2 changes (app1 1, db1 1)", down
    assert all(not Path(f"/proc/{pid}").exists() or is_zombie(pid) for pid in pids)
    assert ssh_hosts.pid_of("db", "mariadb") is None and ssh_hosts.pid_of("web", "apache") is None
    ssh_hosts.lab("up", "apache", **ssh_hosts.team_inventory())  # as the module found it, for the fixture's own `down`


def test_a_sweep_over_ssh_verifies_and_watches_each_host_through_its_agent(ssh_hosts, tmp_path):
    # Here the hosts share one machine: each host's watch sees the other hosts' servers and agents, and
    # the client's httperf (reaped by the sweep), as other work. That is no disturbance to judge here:
    # with 400 % allowed, the AMD EPYC host read 401-410 % at every step from 1,715 req/s on (apache2
    # 2 s, each other host's agent 3.5 s) and no step above the first two was judged. Nor is the
    # hypervisor's steal this test's subject (it failed once in a full run on Intel Xeon, passing alone).
    ssh_hosts.on_client(sys.executable, "httperf-scripts/sweep.py", "--apps", "php", "--engines", "innodb",
                        "--workloads", "single", "--quick", "--duration", "2", "--precision", "0.5",
                        "--max-other-pct", "100000", "--max-steal-pct", "100", "--quiet-check", "0.5", "--run", "ssh",
                        "--results", str(tmp_path))
    files = RunFiles(tmp_path / "ssh")
    manifest = json.loads(files.manifest.read_text())
    web = manifest["topology"]["hosts"]["web"]
    assert manifest["topology"]["mode"] == "ssh" and web["address"] == "198.18.0.2"
    assert web["ssh"] == ssh_hosts.env["WEB_HOST"] and "Apache" in web["versions"]["httpd"]
    # Each host's machine from the facts Ansible gathered at `make up`, its kernel settings from its agent.
    db_machine = manifest["topology"]["hosts"]["db"]["machine"]
    assert db_machine["cores"] == os.cpu_count() and db_machine["system"].startswith("Debian ")
    assert db_machine["cpu_model"] in Path("/proc/cpuinfo").read_text() and db_machine["tcp_tw_reuse"] == 1
    [row] = read_summaries(files.saturation)
    assert measured_rate(files, row) > 0
    # The answer was checked against the db host's rows, read by its agent.
    assert "rows equal to the database" in json.loads(files.cell_state(row.key).read_text())["verification"]
    passed = [step for step in read_steps(files.cell(row.key) / "steps.tsv") if step.verdict == PASS]
    assert passed
    for step in passed:
        # Apache's processes exist only on the web host, MariaDB's counters only on the db host's.
        assert step.figures["apache_cpu_s"] > 0 and step.figures["db_questions"] >= step.num_conns
        assert {name.split("_")[0] for name in step.figures if "_softirq_cpu" in name} == {"web", "db"}
        assert step.figures["free_local_ports_before"] > 0
    # The price list read where each role's CPUs are: the client's here, the servers' on each host by its agent.
    priced = {(row["host"], row["role"]) for row in read_tsv(files.prices)}
    assert {("", "client"), ("web", "servers"), ("db", "servers")} <= priced, priced


def test_a_server_restarts_through_its_hosts_agent_and_a_bad_call_is_refused_there(ssh_hosts):
    output = ssh_hosts.on_client(sys.executable, "-c", """if True:
        from harness.hosts import channel, servers
        from stack.server import LabError
        apache = servers.server("apache")
        before = apache.pid()
        print("restart:", apache.restart("none"))
        print("pids:", before, apache.pid(), apache.answers())
        try:
            channel.agent("web").call("server", "apache", "stop")
        except LabError as error:
            print("refused:", error)
        print("after:", apache.pid() is not None)
        channel.stop_agents()""")
    before, after, answers = output.split("pids: ")[1].split("\n")[0].split()
    assert before != after and after == str(ssh_hosts.pid_of("web", "apache")) and answers == "True"
    assert "refused: web host (root@198.18.0.2): ValueError: no call stop of a server apache" in output
    assert "after: True" in output


@pytest.mark.timing
def test_the_channel_costs_a_step_milliseconds_and_the_agent_checks_its_version(ssh_hosts):
    """What the agents add to a step: each host's watch started before the load and read after it,
    timed over 20 steps; and the version handshake the first call made."""
    output = ssh_hosts.on_client(sys.executable, "-c", """if True:
        import statistics, time
        from harness.hosts import channel, watch
        watches = [watch.HostWatch(host, "none") for host in ("web", "db")]
        for each in watches:
            each.start(), each.finish()  # the agents up, their versions checked
        steps = []
        for _ in range(20):
            started = time.monotonic()
            for each in watches:
                each.start()
            for each in watches:
                each.finish()
            steps.append(1000 * (time.monotonic() - started))
        print("step ms:", round(statistics.median(steps), 1), round(max(steps), 1))
        calls = []
        for _ in range(20):
            started = time.monotonic()
            channel.agent("db").call("server", "mariadb", "pid")
            calls.append(1000 * (time.monotonic() - started))
        print("call ms:", round(statistics.median(calls), 1), round(max(calls), 1))
        print("version:", channel.agent("web").call("version") == channel.code_version())
        channel.stop_agents()""")
    median_ms, most_ms = map(float, output.split("step ms: ")[1].split("\n")[0].split())
    call_ms, call_most_ms = map(float, output.split("call ms: ")[1].split("\n")[0].split())
    assert "version: True" in output
    margins.at_most("the step watch over ssh, two hosts, median (ms)", median_ms, 1000)
    # A step makes four calls with two hosts (each watch started and read): the channel's own share.
    margins.at_most("the channel's share of a step over ssh, two hosts (ms)", 4 * call_ms, 50)
    print(f"\nthe step watch over ssh, two hosts: median {median_ms} ms, at most {most_ms} ms; "
          f"one call's round trip: median {call_ms} ms, at most {call_most_ms} ms")


def test_load_client_hosts_each_run_their_share_of_httperf_over_ssh(ssh_hosts, tmp_path):
    load_clients = f"root@{ssh_hosts.topology.address('client')}, root@{ssh_hosts.topology.address('client')}"
    up = ssh_hosts.lab("up", "apache", CLIENT_HOSTS=load_clients)
    assert re.fullmatch(r"ansible: up\.yml: \d+ changes \(client1 \d+, client2 \d+\)", up.splitlines()[-1]), up
    client1 = ssh_hosts.roots["client1"]
    assert (client1 / "stack" / "setup.sh").is_file() and (client1 / "harness" / "hosts" / "agent.py").is_file()
    assert not (client1 / "var" / "secrets").exists()
    # Each host's watch sees every host's processes on this one machine, the other load client's
    # busy-polling httperf among them: other work is not judged here.
    ssh_hosts.on_client(sys.executable, "httperf-scripts/sweep.py", "--apps", "soap-php", "--engines", "innodb",
                        "--workloads", "single", "--quick", "--duration", "2", "--precision", "0.5", "--max-other-pct", "100000",
                        "--price-list", "0",
                        "--quiet-check", "0.5", "--run", "clients", "--results", str(tmp_path), CLIENT_HOSTS=load_clients)
    files = RunFiles(tmp_path / "clients")
    manifest = json.loads(files.manifest.read_text())
    assert manifest["options"]["clients"] == 2 and len(manifest["topology"]["load_clients"]) == 2
    described = manifest["topology"]["load_client_hosts"]
    assert described["client2"]["ssh"] == f"root@{ssh_hosts.topology.address('client')}"
    assert described["client2"]["machine"]["cores"] == os.cpu_count() and "httperf" in described["client2"]["versions"]
    [row] = read_summaries(files.saturation)
    assert measured_rate(files, row) > 0
    # Each client host's agent wrote the POST's session it was sent, and its httperf read it there.
    session = HTTPERF.session_file_text(registry.request("soap-php", "single", engine="innodb"))
    for number in (1, 2):
        assert (ssh_hosts.roots[f"client{number}"] / f"session-{number}.txt").read_text() == session
    steps = read_steps(files.cell(row.key) / "steps.tsv")
    for step in steps:
        parts = clients.split_output((files.cell(row.key) / step.raw).read_text())
        assert len(parts) == 2
        for number, part in enumerate(parts, start=1):
            where, command = part.splitlines()[:2]
            assert where == f"# on the client{number} host (root@{ssh_hosts.topology.address('client')})"
            assert command.startswith("$ timeout -s KILL ") and " httperf " in command
            assert f",0,session-{number}.txt " in command  # in its agent's folder there
        if step.verdict == PASS:
            assert step.figures["connections"] == sum(HTTPERF.figures(part)["connections"] for part in parts)
    # Every host was watched, the load client hosts too: their interrupts and free ports each under their name.
    watched = next(step.figures for step in steps if step.verdict == PASS)
    assert {name.split("_")[0] for name in watched if "_softirq_cpu" in name} == {"web", "db", "client1", "client2"}
    assert watched["client1_free_local_ports_before"] >= 0 and watched["client2_free_local_ports_before"] >= 0


# --- Faults across machines: each injected 1 s into the first step of a short sweep run from the
# client host. The step is then settled and redone, or the run stops with a clear message, within
# 60 s of the fault; nothing saved is lost, and the run resumes.

FAULT_SWEEP = """if True:
    import sys
    from pathlib import Path
    from harness.run.context import RunContext
    from harness.run.sweep import run_sweep
    from stack import topology
    # Two 2 s steps of single rows from 100 req/s, nothing warmed or probed, no price list: the fault is
    # the subject. Every host's watch sees every host's processes on this one machine, so other work is
    # not judged.
    context = RunContext.of(("php",), engines=("innodb",), workloads=("single",), duration_s=2, precision=0.5,
                            warmup_cap_s=0, jvm_warmup_cap_s=0, max_steps=2, recovery_wait_s=5, rounds=1,
                            aa_control="", max_steal_pct=100000, max_other_pct=100000, price_list=False,
                            quiet_check_s=0.5, topology=topology.current())
    sys.exit(run_sweep(context, sys.argv[1], Path(sys.argv[2])))"""

FAULT_BOUND_S = 60


def processes():
    """{pid: its argv} of every process (the namespaces share one /proc)."""
    found = {}
    for entry in Path("/proc").iterdir():
        try:
            found[int(entry.name)] = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except (ValueError, OSError):
            continue
    return found


def started(pid):
    """When a process started, in clock ticks since boot (stat's field 22); -1 once it has ended."""
    fields = stat_fields(pid)
    return int(fields[19]) if fields else -1


def cwd(pid):
    try:
        return os.readlink(f"/proc/{pid}/cwd")
    except OSError:
        return None


def httperf_to(address, since):
    """The httperf processes loading `address` that started at `since` or later (none of an earlier test)."""
    return [pid for pid, argv in processes().items()
            if Path(argv[0]).name == "httperf" and address in argv and started(pid) >= since]


def agent_of(ssh_hosts, host, since):
    """The pid of the lab's agent serving `host` (it runs in that host's folder) that started at
    `since` or later. An agent forked for a child has the agent's argv until the child execs, and an
    earlier run's agent may still be ending: neither is the one."""
    agents = {pid for pid, argv in processes().items()
              if "harness.hosts.agent" in argv and cwd(pid) == str(ssh_hosts.roots[host])}
    [pid] = [pid for pid in agents if parent_of(pid) not in agents and started(pid) >= since]
    return pid


def ssh_session_of(pid):
    """The sshd session process a process runs under (its closest sshd ancestor)."""
    while pid > 1:
        if Path(f"/proc/{pid}/stat").read_text().split(" (", 1)[1].startswith("sshd)"):
            return pid
        pid = parent_of(pid) or 0
    raise AssertionError("no sshd session above the agent")


def sweep_with_fault(ssh_hosts, results, fault, run_id="faulted", **knobs):
    """The short sweep, with `fault(since)` done 1 s into its first httperf run (none when fault is
    None), `since` the sweep's start in clock ticks since boot: (seconds from the fault to the
    outcome, the sweep's exit code, its output, its steps). The outcome is the faulted step's redo
    recorded, or the sweep's end."""
    log, steps_file = results / f"{run_id}.log", results / run_id / "cells" / "php-innodb-single" / "steps.tsv"
    with open(log, "a") as output:
        sweep = subprocess.Popen(topology.run_in(ssh_hosts.topology.namespace("client"),
                                                 [sys.executable, "-c", FAULT_SWEEP, run_id, str(results)]),
                                 env={**ssh_hosts.env, **knobs}, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT,
                                 start_new_session=True)
    since, outcome_s = started(sweep.pid), None
    try:
        if fault:
            deadline = time.monotonic() + 120
            while not httperf_to(ssh_hosts.topology.address("web"), since):
                assert sweep.poll() is None and time.monotonic() < deadline, log.read_text()
                time.sleep(0.05)
            time.sleep(1)
            faulted = time.monotonic()
            fault(since)
            while sweep.poll() is None and (not steps_file.exists() or len(read_steps(steps_file)) < 2):
                time.sleep(0.2)
            outcome_s = time.monotonic() - faulted
        sweep.wait(timeout=240)
    finally:
        if sweep.poll() is None:  # its httperf and ssh clients too, so that none outlives this test
            os.killpg(sweep.pid, signal.SIGKILL)
            sweep.wait()
    return outcome_s, sweep.returncode, log.read_text(), read_steps(steps_file) if steps_file.exists() else []


def assert_redone(steps, outcome_s, why, what):
    faulted, redo = steps[:2]
    assert faulted.verdict == DISTURBED and why in faulted.reason, faulted.reason
    assert redo.offered_rate == faulted.offered_rate and redo.verdict != DISTURBED, redo.reason
    margins.at_most(f"{what}: from the fault to the step's redo (s)", outcome_s, FAULT_BOUND_S)


@pytest.mark.parametrize("killed", ["sshd session", "agent"])
def test_a_web_host_whose_channel_is_killed_mid_step_has_the_step_settled_and_redone(ssh_hosts, tmp_path, killed):
    def fault(since):
        pid = agent_of(ssh_hosts, "web", since)
        os.kill(ssh_session_of(pid) if killed == "sshd session" else pid, signal.SIGKILL)
    outcome_s, code, output, steps = sweep_with_fault(ssh_hosts, tmp_path, fault)
    assert code == 0, output
    assert_redone(steps, outcome_s, "a host's step monitors were lost", f"the web host's {killed} killed")


def test_a_web_host_cut_off_for_20_s_mid_step_is_redone_or_stops_the_run_which_then_resumes(ssh_hosts, tmp_path):
    link = ["ip", "-n", ssh_hosts.topology.switch, "link", "set", "web"]
    restored = threading.Timer(20, subprocess.run, [[*link, "up"]], {"check": True})

    def fault(_since):
        subprocess.run([*link, "down"], check=True)
        restored.start()
    try:
        outcome_s, code, output, steps = sweep_with_fault(ssh_hosts, tmp_path, fault)
    finally:
        if restored.ident:  # the fault was done: the link comes back before anything else
            restored.join()
    margins.at_most("the web host's link down for 20 s: from the fault to the redo or the stop (s)",
                    outcome_s, FAULT_BOUND_S)
    if code:
        assert "sweep stopped: web host (" in output and "resume with RUN=faulted" in output, output
    else:
        assert_redone(steps, outcome_s, "a host's step monitors were lost", "the web host's link down for 20 s")
    kept = [(step.step, step.verdict, step.raw) for step in steps]
    _, code, output, resumed = sweep_with_fault(ssh_hosts, tmp_path, None)
    assert code == 0, output
    assert [(step.step, step.verdict, step.raw) for step in resumed][:len(kept)] == kept
    assert len(resumed) >= max(2, len(kept)) and resumed[-1].verdict != DISTURBED


def test_a_load_client_hosts_session_killed_mid_step_has_the_step_settled_and_redone(ssh_hosts, tmp_path):
    load_client = f"root@{ssh_hosts.topology.address('client')}"
    ssh_hosts.lab("up", "apache", CLIENT_HOSTS=load_client)

    def fault(since):
        os.kill(ssh_session_of(agent_of(ssh_hosts, "client1", since)), signal.SIGKILL)
    outcome_s, code, output, steps = sweep_with_fault(ssh_hosts, tmp_path, fault, CLIENT_HOSTS=load_client)
    assert code == 0, output
    assert_redone(steps, outcome_s, "a load client host was lost during the step: client1 host",
                  "a load client host's session killed")


# --- Lockdown on the hosts Ansible set up: last, as it brings every server up on the web host.

def test_the_lockdown_suite_holds_on_the_hosts_ansible_set_up(ssh_hosts):
    """tests/integration/test_lockdown.py from the client host, through a team's inventory: every
    server up on its host by ansible/up.yml, what each host exposes read there (ansible/exposure.yml),
    the apps' account tried over ssh from the web host, the pages fetched across the link."""
    output = ssh_hosts.on_client(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 "tests/integration/test_lockdown.py", **ssh_hosts.team_inventory())
    assert re.search(r"^\d+ passed in ", output, re.MULTILINE) and "failed" not in output, output
