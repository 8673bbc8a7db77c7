"""Servers going away: the apps answer 503 while the database is down; down/up leave nothing behind;
Apache sheds the workers an overload grew; a memory limit on the servers' cgroup kills what outgrows
it, and the kill is counted."""
import re
import signal
import subprocess
import sys

import pytest

from stack import cgroup, lifecycle, registry

from .conftest import send, soap_fault


def test_apps_answer_503_while_the_database_is_down_and_recover(stack):
    mariadb = stack["mariadb"]
    mariadb.stop()
    try:
        for app in filter(registry.reads_database, registry.apps()):
            for workload in ("single", "large"):
                reply = send(registry.request(app, workload), timeout=30)
                if registry.app(app)["kind"] == "soap":
                    assert soap_fault(reply) == ("Server", "database unavailable"), app
                else:
                    assert reply.status == 503, (app, workload, reply.body[:200])
                    assert "database unavailable" in reply.body, (app, workload)
    finally:
        mariadb.start()
    for app in registry.apps():
        first_workload = next(iter(registry.workload_specs(app)))  # a SOAP baseline serves quote alone
        assert send(registry.request(app, first_workload)).status == 200, app


def test_stop_leaves_no_process_and_start_again_works(stack):
    apache = stack["apache"]
    assert len(apache.processes()) > 1, "prefork Apache should have a parent and workers"
    assert apache.stop().startswith("apache: stopped")
    assert apache.processes() == []
    assert apache.stop() == "apache: not running"
    assert apache.start().startswith("apache: up")
    assert "already running" in apache.start()
    assert send(registry.request("php", "single")).status == 200


def test_apache_sheds_the_workers_an_overload_grew_and_keeps_answering(stack):
    apache = stack["apache"]
    request = registry.request("php", "large", engine="myisam")
    # 48 connections at once on the 2.35 MB page: prefork has to start workers for them.
    subprocess.run(["wrk", "-t1", "-c48", "-d4s", "-H", "Connection: close", request.url],
                   capture_output=True, timeout=60, check=True)
    grown = len(apache.processes())
    assert grown > apache.start_servers + 1, grown
    parent = apache.pid()
    overload_workers = set(apache.processes()) - {parent}
    note = apache.recycle()
    # prefork may still be adding or retiring a worker between the count and the recycle.
    before, after = map(int, re.search(r"\((\d+) -> (\d+) processes\)", note).groups())
    assert before > apache.start_servers + 1 and after == apache.start_servers + 1, note
    assert not overload_workers & set(apache.processes()), "a worker of the overload outlived the restart"
    # The probe's request may have made prefork start a spare worker or two (MinSpareServers), no more.
    assert len(apache.processes()) <= apache.start_servers + 3
    assert apache.pid() == parent  # a graceful restart, not a new server
    assert send(registry.request("php", "single")).status == 200


def test_servers_without_workers_to_shed_say_so():
    assert lifecycle.lab_servers()["tomcat"].recycle() is None
    assert lifecycle.lab_servers()["mariadb"].recycle() is None
    assert lifecycle.lab_servers()["apache-fpm"].recycle() is None


def test_a_memory_limit_on_the_servers_cgroup_kills_what_outgrows_it_and_counts_the_kill(monkeypatch):
    """SERVERS_MEMORY_MB's mechanism, on a cgroup of its own beside the servers' (they keep theirs):
    a process started in it that writes 256 MiB under a 32 MiB limit is killed by the kernel."""
    monkeypatch.setattr(cgroup, "NAME", f"{cgroup.NAME}-memory-test")
    try:
        if not cgroup.ensure():
            pytest.skip("cgroups cannot be written here: the lab runs without its cgroup")
        try:
            cgroup.limit_memory(32)
        except SystemExit as error:
            pytest.skip(str(error))
        before = cgroup.oom_kills()
        grown = subprocess.run(cgroup.entered([sys.executable, "-c", "page = b'x' * (256 << 20)"]), timeout=60)
        assert grown.returncode == -signal.SIGKILL
        assert cgroup.oom_kills() == before + 1
        cgroup.limit_memory(None)
        assert subprocess.run(cgroup.entered([sys.executable, "-c", "page = b'x' * (256 << 20)"]), timeout=60).returncode == 0
    finally:
        cgroup.remove()
