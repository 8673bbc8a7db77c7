"""TOPOLOGY=netns on the real kernel: a lab of its own (its own var/, MariaDB and Apache) with the
client, web and db hosts in network namespaces and 100 Mbit links. The large page's throughput must
be the link's, and clearly higher once the links are unshaped; nothing routes out; a sweep
with two clients runs across the link; `down` leaves no namespace behind."""
import json
import os
import subprocess
import sys

import pytest

from harness.drivers import driver
from harness.measure import clients
from harness.results.records import PASS
from harness.results.store import RunFiles, read_steps, read_summaries, read_tsv
from stack import exposure, registry, settings, topology
from stack.settings import ROOT, knob
from tests import margins
from tests.integration.conftest import measured_rate

HTTPERF = driver("httperf")

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="network namespaces need root")

LINK_BITS = 100e6


class NetnsLab:
    def __init__(self, var):
        self.var = var
        self.topology = topology.Topology("netns", "100mbit", topology.prefix_for(var))
        self.env = {**os.environ, "TOPOLOGY": "netns", "LINK": "100mbit", "LAB_VAR": str(var),
                    "PYTHONPATH": str(ROOT)}

    def python(self, *args, timeout=300):
        result = subprocess.run([sys.executable, *args], env=self.env, cwd=ROOT, capture_output=True, text=True,
                                timeout=timeout)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def lab(self, *args):
        return self.python("-m", "stack.lab", *args)

    def on(self, host, *command, timeout=60, env=None):
        """A command run on one of the lab's hosts."""
        return subprocess.run(topology.run_in(self.topology.namespace(host), command),
                              capture_output=True, text=True, timeout=timeout, env=env)

    def namespaces(self):
        listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
        return [line.split()[0] for line in listed.splitlines() if line.startswith(self.topology.prefix)]

    def listening(self, host):
        """The local addresses a host's TCP sockets listen on."""
        return {address for address, _ in exposure.listening(self.topology.namespace(host))}

    def url(self, workload):
        request = registry.request("php", workload, engine="myisam")
        return f"http://{self.topology.address('web')}:{request.port}{request.path}"

    def wrk_rate(self, url, seconds=8):
        """Closed-loop pages per second from the client host (4 connections, a new one per request)."""
        result = self.on("client", "taskset", "-c", knob("CLIENT_CPUS"), "wrk", "-t1", "-c4", f"-d{seconds}s",
                         "-H", "Connection: close", url, timeout=seconds + 30)
        line = next(line for line in result.stdout.splitlines() if line.startswith("Requests/sec:"))
        return float(line.split()[1])


@pytest.fixture(scope="module")
def netns_lab(tmp_path_factory):
    lab = NetnsLab(tmp_path_factory.mktemp("netns") / "var")
    lab.python("-c", "from stack import settings; settings.ensure_password()")
    try:
        lab.lab("up", "apache")
        lab.lab("import")
        yield lab
    finally:
        lab.lab("down")


def test_each_server_listens_on_its_own_hosts_address_only(netns_lab):
    assert netns_lab.listening("web") == {f"198.18.0.2:{knob('APACHE_PORT')}"}
    assert netns_lab.listening("db") == {f"198.18.0.3:{knob('MARIADB_PORT')}"}
    assert netns_lab.listening("client") == set()


def test_the_app_account_logs_in_from_the_web_host_only(netns_lab):
    password = (netns_lab.var / "secrets" / "db-password").read_text().strip()

    def count_from(host):
        return netns_lab.on(host, "mariadb", "--no-defaults", "--protocol=TCP", "-h", "198.18.0.3",
                            "-P", knob("MARIADB_PORT"), "-u", "lab_app", "lab", "--batch", "--skip-column-names",
                            "-e", "SELECT COUNT(*) FROM people_myisam", env={**os.environ, "MYSQL_PWD": password})
    assert count_from("web").stdout.strip() == "16000"
    refused = count_from("client")
    assert refused.returncode != 0 and "Host '198.18.0.1' is not allowed" in refused.stderr, refused.stderr


def test_every_host_reuses_time_wait_ports(netns_lab):
    for host in topology.HOSTS:
        assert netns_lab.on(host, "sysctl", "-n", "net.ipv4.tcp_tw_reuse").stdout.strip() == "1", host


def test_nothing_routes_out_of_the_namespaces(netns_lab):
    root_addresses = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    for host in topology.HOSTS:
        routes = netns_lab.on(host, "ip", "-4", "route").stdout.splitlines()
        assert routes == [f"198.18.0.0/24 dev eth0 proto kernel scope link src {netns_lab.topology.address(host)} "], routes
        for address in ["8.8.8.8", *root_addresses]:
            probe = netns_lab.on(host, "ip", "route", "get", address)
            assert probe.returncode != 0 and "unreachable" in probe.stderr, (host, address)
    # The root namespace got nothing: no link and no route of the lab's.
    assert "198.18." not in subprocess.run(["ip", "-4", "route"], capture_output=True, text=True).stdout
    assert "198.18." not in subprocess.run(["ip", "-4", "addr"], capture_output=True, text=True).stdout


def test_the_app_answers_from_the_client_host_with_the_database_across_the_links(netns_lab):
    reply = netns_lab.on("client", "curl", "-s", "-w", "\n%{http_code}", netns_lab.url("single"))
    body, status = reply.stdout.rsplit("\n", 1)
    assert status == "200" and "<td>" in body
    assert netns_lab.on("client", "curl", "-s", "-m", "3", f"http://127.0.0.1:{knob('APACHE_PORT')}/").returncode != 0


@pytest.mark.timing
def test_the_large_page_crosses_the_shaped_link_at_the_links_rate(netns_lab):
    size = netns_lab.on("client", "curl", "-s", "-o", "/dev/null", "-w", "%{size_download}", netns_lab.url("large"))
    page_bits = 8 * int(size.stdout)
    assert page_bits > 8 * 2_000_000  # the 16,000-row page
    ceiling = LINK_BITS / page_bits  # about 5.3 pages/s
    topology.shape(netns_lab.topology, "")
    try:
        unshaped = netns_lab.wrk_rate(netns_lab.url("large"))
    finally:
        topology.shape(netns_lab.topology, "100mbit")
    # PHP's CPU serves the page at 15-21/s on the slower host kind: well above the link's rate, so the
    # shaped link, not the app, must set the shaped rate.
    margins.at_least("the large page unshaped, in links' ceilings", unshaped / ceiling, 1.5)
    shaped = netns_lab.wrk_rate(netns_lab.url("large"))
    assert 0.8 * ceiling <= shaped <= 1.0 * ceiling, (shaped, ceiling, unshaped)


# The two-client sweep's page: 1,000 rows (about 0.15 MB, some 80 a second across the link). The
# 16,000-row page would hold its low-rate steps (the baseline, the gate checks) at 0.5 a second, about
# 20 s each for their ten requests.
SWEPT = "rows-1000"


def test_a_sweep_with_two_clients_runs_from_the_client_host_across_the_link(netns_lab, tmp_path):
    size = netns_lab.on("client", "curl", "-s", "-o", "/dev/null", "-w", "%{size_download}", netns_lab.url(SWEPT))
    netns_lab.python("httperf-scripts/sweep.py", "--apps", "php", "--engines", "myisam", "--workloads", SWEPT,
                     "--quick", "--duration", "2", "--precision", "0.5", "--clients", "2", "--max-other-pct", "100", "--max-steal-pct", "100", "--price-list", "0",
                     "--quiet-check", "0.5", "--run", "netns", "--results", str(tmp_path), timeout=600)
    files = RunFiles(tmp_path / "netns")
    manifest = json.loads(files.manifest.read_text())
    assert manifest["topology"]["mode"] == "netns" and manifest["topology"]["link"] == "100mbit"
    assert manifest["topology"]["hosts"]["web"] == {"address": "198.18.0.2",
                                                    "namespace": netns_lab.topology.namespace("web")}
    assert manifest["options"]["clients"] == 2
    [row] = read_summaries(files.saturation)
    # Whatever the plan's steps, no passing rate can beat the link.
    assert 0 < measured_rate(files, row) <= LINK_BITS / (8 * int(size.stdout)) * 1.02, (row, size.stdout)
    steps = read_steps(files.cell(row.key) / "steps.tsv")
    for step in steps:
        parts = clients.split_output((files.cell(row.key) / step.raw).read_text())
        assert len(parts) == 2 and all("--server 198.18.0.2" in part for part in parts)
        if step.verdict == PASS:
            assert step.figures["connections"] == sum(HTTPERF.figures(part)["connections"] for part in parts)


def test_down_leaves_no_namespace_behind(netns_lab):
    assert len(netns_lab.namespaces()) == 4
    netns_lab.lab("down")
    assert netns_lab.namespaces() == []
    assert not topology.existing(netns_lab.topology)
    netns_lab.lab("up", "apache")  # as the module found it, for the fixture's own `down`


def test_the_lockdown_suite_holds_with_every_server_on_its_hosts_address_a_tomcat_per_app_and_soap_phases_on(
        tmp_path):
    """tests/integration/test_lockdown.py again, every server in its host's namespace (a lab of its own),
    every Java app in a Tomcat of its own (TOMCAT_LAYOUT=per-app; the loopback run of the suite has the
    shared one) and every SOAP engine's phase hooks installed (SOAP_PHASES=on); then `make soap-phases`
    on that lab: each engine's own hooks time every request it answered."""
    var = tmp_path / "var"
    var.mkdir()
    (var / "opt").symlink_to(settings.OPT)  # the Tomcat `make setup` installed
    env = {**os.environ, "TOPOLOGY": "netns", "TOMCAT_LAYOUT": "per-app", "SOAP_PHASES": "on", "LAB_VAR": str(var),
           "PYTHONPATH": str(ROOT)}

    def run(*arguments, timeout=900):
        result = subprocess.run([sys.executable, *arguments], env=env, cwd=ROOT, capture_output=True, text=True,
                                timeout=timeout)
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
        return result.stdout
    run("-c", "from stack import settings; settings.ensure_password()")
    # Lighttpd's workers cannot reach PHP-FPM's socket in a lab under pytest's 0700 folder: its SOAP
    # engine is timed on the loopback lab (docs/soap-engines.md) and its record read in the unit tests.
    engines = [app for app in registry.apps() if registry.app(app)["kind"] == "soap" and app != "soap-php-lighttpd"]
    try:
        run("-m", "stack.lab", "up")
        run("-m", "stack.lab", "import")
        assert " passed" in run("-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/integration/test_lockdown.py")
        run("-m", "harness", "soap-phases", "--results", str(tmp_path), "--run", "phases", "--sizes", "1,100",
            "--count", "3", "--warmup", "0.2", "--jvm-warmup", "0", "--apps", ",".join(engines))
    finally:
        run("-m", "stack.lab", "down")
    rows = read_tsv(tmp_path / "phases" / "soap-phases.tsv")
    assert sorted((row["app"], row["workload"], row["n"]) for row in rows) == sorted(
        (app, kind, n) for app in engines for kind in ("rows", "echo") for n in ("1", "100"))
    # An echo's logic returns what it was given: gSOAP's takes well under a microsecond.
    assert all(row["samples"] == "3" and float(row["unmarshal_us"]) > 0 and float(row["logic_us"]) >= 0
               and float(row["marshal_us"]) > 0 for row in rows)
    # The engine's three phases lie within the round trip the client measured, where no collector can
    # pause the engine between its reply's last write and its "sent" mark: this lab's JVMs are cold
    # (CXF's echo-100 once read 7.8 ms of phases in a 6.1 ms round trip).
    assert all(float(row["total_us"]) < float(row["round_trip_us"]) for row in rows if not registry.jit(row["app"]))
    assert (tmp_path / "phases" / "soap-phases.pdf").stat().st_size > 0
    # Each call's segments, read from the client's socket: over a 1,500-byte veth link one struct's
    # echo (343 bytes of envelope) goes in one segment and a hundred (12,997 bytes) in nine or more,
    # counted per MSS though the kernel offloads the segmenting.
    assert json.loads((tmp_path / "phases" / "soap-phases.json").read_text())["client_link_mtu"] == 1500
    calls = read_tsv(tmp_path / "phases" / "soap-phases-calls.tsv")
    gsoap = {row["n"]: row for row in calls if (row["app"], row["workload"]) == ("soap-gsoap", "echo")}
    assert (gsoap["1"]["data_sent"], gsoap["1"]["data_received"]) == ("1", "1")
    assert int(gsoap["100"]["data_sent"]) >= 9 and int(gsoap["100"]["data_received"]) >= 9
    # A run of the phases alone is browsed as any run: its table and its figure on its page, and in the index.
    front = (tmp_path / "phases" / "report" / "index.html").read_text()
    assert "<table>" in front and 'src="figures/soap-phases-1.svg"' in front
    assert 'href="phases/report/index.html"' in (tmp_path / "index.html").read_text()
    assert not topology.existing(topology.Topology("netns", "", topology.prefix_for(var)))
