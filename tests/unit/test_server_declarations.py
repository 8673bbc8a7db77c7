"""A server is declared once, in the registry's `servers` section: a fake one declared there (with a
real server's behaviour) is picked up by the lifecycle, MariaDB's connection budget, what a remote
host is shipped, the bottleneck's notes, the step monitors, the manifest's versions and setup.sh's
packages, with nothing else changed."""
import copy
import subprocess
import sys

import pytest

from harness.hosts import inventory
from harness.judge import bottleneck
from harness.measure import monitors, pinning
from harness.results.manifest import Manifest
from harness.results.records import Step
from stack import database_access, lifecycle, registry, remote, servers, settings, targets
from stack.settings import ROOT

FAKE = {"title": "Fake server", "class": "Gsoap", "host": "db", "port_knob": "FAKE_PORT", "needs": ["mariadb"],
        "packages": ["fake-server-bin", "gcc"], "ships": ["fake-server"], "ships_var": ["opt/fake-{TOMCAT_VERSION}"],
        "db_connections": ["FAKE_WORKERS"], "monitors": ["jvm"], "versions": {"fake": ["dpkg", "fake-server-bin"]}}


@pytest.fixture
def fake_server(monkeypatch):
    declared = copy.deepcopy(targets.registry())
    declared["servers"]["fake"] = FAKE
    monkeypatch.setenv("FAKE_PORT", "18099")
    monkeypatch.setenv("FAKE_WORKERS", "33")
    with targets.given(declared):
        built = lifecycle.declared_servers()
        monkeypatch.setattr(lifecycle, "lab_servers", lambda: built)
        yield


def test_the_lifecycle_starts_it_after_what_it_needs_on_its_hosts_cpus(fake_server, monkeypatch):
    fake = lifecycle.lab_servers()["fake"]
    assert isinstance(fake, servers.Gsoap) and (fake.host, fake.port, fake.needs) == ("db", 18099, ("mariadb",))
    assert fake.address == lifecycle.lab_servers()["mariadb"].address  # the db host's
    assert lifecycle.chosen(["fake"]) == ["mariadb", "fake"]
    assert "fake" in lifecycle.chosen(host="db") and "fake" not in lifecycle.chosen(host="web")
    monkeypatch.setenv("DB_CPUS", "1")
    monkeypatch.setenv("SERVER_CPUS", "0")
    assert lifecycle.server_cpus("fake") == "1"
    assert fake.recycle() is None  # declared without recycle


def test_its_connections_count_in_mariadbs_budget(fake_server, monkeypatch):
    with_fake = database_access.max_connections()
    monkeypatch.setenv("FAKE_WORKERS", "0")
    assert with_fake - database_access.max_connections() == 33


def test_a_remote_host_is_shipped_what_it_declares(fake_server):
    project, var = remote.shipped("db")
    assert project[:3] == ["stack", "contract", "harness"] and {"sql", "fake-server"} <= set(project)
    assert var == ["secrets", f"opt/fake-{settings.knob('TOMCAT_VERSION')}"]
    assert "fake-server" not in remote.shipped("web")[0]


def test_the_bottleneck_names_it_by_its_title(fake_server):
    step = Step(step=1, offered_rate=40, timeout_s=2, num_conns=80, verdict="fail", reason="", raw="",
                figures={"fake_gc_full_n": 1, "fake_gc_full_s": 0.5})
    run = Manifest({"registry": targets.registry()})  # as a run's manifest records the registry
    assert bottleneck.full_collections(step, run.server_title) == [
        "Fake server stopped 0.50 s for 1 full collection(s) at 40 req/s offered (its timeout 2 s)"]


def test_its_hosts_monitors_sample_it_and_run_the_monitors_it_names(fake_server):
    found = monitors.host_monitors("db", [0])
    sampler = next(monitor for monitor in found if isinstance(monitor, monitors.ServerSampler))
    assert sampler.names == ["mariadb", "fake"]
    assert [monitor.server for monitor in found if isinstance(monitor, monitors.JvmMonitor)] == ["fake"]
    web = monitors.host_monitors("web", [0])
    tomcat11 = ["tomcat11-servlet-java25", "tomcat11-pooled-servlet-java25", "tomcat11-baseline-java25",
                "tomcat11-platform-servlet-java25", "tomcat11-platform-pooled-servlet-java25"]
    assert [monitor.server for monitor in web if isinstance(monitor, monitors.JvmMonitor)] == ["tomcat", *tomcat11]
    assert [monitor.server for monitor in web if isinstance(monitor, pinning.PinnedMonitor)] == tomcat11


def test_the_manifest_reads_its_version_as_declared(fake_server, monkeypatch):
    monkeypatch.setattr(inventory, "package_version", lambda package: f"package {package}")
    monkeypatch.setattr(inventory, "first_line", lambda command: f"ran {command[0]}")
    versions = inventory.installed_versions()
    assert versions["fake"] == "package fake-server-bin" and versions["httpd"] == "ran /usr/sbin/apache2"


def test_setup_installs_its_packages_once(fake_server):
    assert registry.server_packages("db") == ["mariadb-server-core", "mariadb-client-core", "fake-server-bin", "gcc"]
    assert registry.server_packages().count("gcc") == 1  # gSOAP's build needs it too


def test_setup_reads_each_hosts_packages_from_the_registry():
    def packages(*host):
        result = subprocess.run([sys.executable, "-m", "stack.registry", "packages", *host], capture_output=True,
                                text=True, cwd=ROOT, check=True)
        return result.stdout.split()
    assert packages("db") == ["mariadb-server-core", "mariadb-client-core"]
    assert packages() == registry.server_packages() and "apache2-bin" in packages("web")
    assert packages("client1") == []


def test_a_declaration_naming_no_behaviour_is_refused_with_what_there_is(monkeypatch):
    declared = copy.deepcopy(targets.registry())
    declared["servers"]["nginx"] = {**FAKE, "class": "Nginx"}
    with targets.given(declared), pytest.raises(lifecycle.LabError, match="servers declared with class Nginx; "
                                                "stack/servers.py, stack/php_servers.py, stack/runtime_servers.py "
                                                "define Apache, .*Lighttpd, .*GoHttp, NodeHttp, RustAxum, MariaDB, .*Gsoap"):
        lifecycle.declared_servers()
