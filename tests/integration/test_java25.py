"""Today's Java (issue 77): Tomcat 11 on Java 25, a JVM of its own for each web application, its
requests on virtual threads unless VTHREADS=0, and its flight recording of pinned virtual threads."""
import subprocess
from pathlib import Path

import pytest

from stack import registry, settings
from stack.procfs import cmdline
from stack.server import LabError

from .conftest import fetch

APPS = ("servlet-java25", "pooled-servlet-java25", "servlet-java25-platform", "pooled-servlet-java25-platform")


def connector_threads(pid):
    """The names of the JVM's platform threads that run the connector's requests (jcmd's thread dump
    lists platform threads; a virtual thread runs on a ForkJoinPool carrier)."""
    dump = subprocess.run([str(settings.JDK25 / "bin" / "jcmd"), str(pid), "Thread.print"],
                          capture_output=True, text=True, check=True, timeout=60).stdout
    return [line.split('"')[1] for line in dump.splitlines() if line.startswith('"') and "-exec-" in line]


def test_each_app_runs_in_a_java_25_jvm_of_its_own_that_records_its_pinned_threads(stack):
    pids = [stack[registry.server_of(app)].pid() for app in APPS]
    assert len(set(pids)) == len(APPS)
    for pid in pids:
        assert Path(f"/proc/{pid}/exe").resolve() == (settings.JDK25 / "bin" / "java").resolve()
        assert "-XX:StartFlightRecording=name=lab,settings=" in cmdline(pid)


def test_requests_run_on_virtual_threads_and_on_platform_threads_with_vthreads_0(stack, monkeypatch):
    server = stack[registry.server_of("servlet-java25")]
    request = registry.request("servlet-java25", "single")

    def answered():
        assert fetch(request.port, request.path).status == 200
        return connector_threads(server.pid())
    assert answered() == []  # no platform thread of the connector: each request had a virtual thread
    monkeypatch.setenv("VTHREADS", "0")
    with pytest.raises(LabError, match="make down"):
        server.start()  # started with virtual threads, it says so rather than run on as it was
    try:
        server.stop()
        server.start()
        assert server.started_with()["VTHREADS"] == "0"
        assert answered() and all(name.startswith("http-nio-") for name in answered())
    finally:
        monkeypatch.delenv("VTHREADS")
        server.stop()
        server.start()


def test_the_platform_threads_variant_runs_on_platform_threads_whatever_the_labs_knob(stack):
    assert settings.knob("VTHREADS") == "1"
    server = stack[registry.server_of("servlet-java25-platform")]
    request = registry.request("servlet-java25-platform", "single")
    assert fetch(request.port, request.path).status == 200
    assert server.started_with()["VTHREADS"] == "0", "the knob the run's manifest records"
    assert connector_threads(server.pid()) and all(name.startswith("http-nio-") for name in connector_threads(server.pid()))
