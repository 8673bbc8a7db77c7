"""The command lines of the servers that are their app (Go, Node.js, Rust): each of their settings is the
lab's knob, a knob they cannot take is refused before anything starts, and each owns its own process."""
import subprocess

import pytest

from stack import registry, runtime_servers, settings
from stack.server import LabError


class Launches(list):
    """The command lines the servers would have started, and in `environments` the environment each
    was given (None: the lab's own)."""

    def __init__(self):
        super().__init__()
        self.environments = []

    def detached(self, server, command, cpus, env=None):
        self.append(command)
        self.environments.append(env)


@pytest.fixture
def launched(monkeypatch):
    """The servers' launches, none started."""
    launches = Launches()
    monkeypatch.setattr(runtime_servers.OwnProcess, "detached", lambda self, *args, **kwargs: launches.detached(
        self, *args, **kwargs))
    return launches


def option(command, name):
    return command[command.index(name) + 1]


@pytest.mark.parametrize("server_class, name, port_knob, timeout", [
    (runtime_servers.GoHttp, "go", "GO_PORT", "3s"), (runtime_servers.NodeHttp, "node", "NODE_PORT", "3"),
    (runtime_servers.RustAxum, "rust", "RUST_PORT", "3")])
def test_each_server_takes_the_labs_knobs(launched, monkeypatch, server_class, name, port_knob, timeout):
    monkeypatch.setenv("POOL_SIZE", "7")
    monkeypatch.setenv("KEEPALIVE_REQUESTS", "250")
    monkeypatch.setenv("KEEPALIVE_TIMEOUT_S", "3")
    monkeypatch.setenv(port_knob, "18999")
    server_class(name).launch(cpus="0")
    [command] = launched
    assert command[0] == str(server_class.program)
    assert (option(command, "--bind"), option(command, "--port")) == ("127.0.0.1", "18999")
    assert (option(command, "--pool-size"), option(command, "--keep-alive-requests")) == ("7", "250")
    assert option(command, "--idle-timeout") == timeout
    assert option(command, "--config") == str(settings.APP_CONFIG)
    assert option(command, "--pool-log") == str(registry.pool_log(name))
    assert option(command, "--pidfile") == str(server_class(name).pidfile)


def test_the_garbage_collected_runtimes_trace_their_collections(launched):
    runtime_servers.GoHttp("go").launch(cpus="0")
    runtime_servers.NodeHttp("node").launch(cpus="0")
    assert launched.environments[0]["GODEBUG"] == "gctrace=1" and launched.environments[0]["PATH"]
    assert launched[1][1] == "--trace-gc"


def test_v8_names_its_code_for_perf_only_when_a_profile_asks(launched):
    runtime_servers.NodeHttp("node").launch(cpus="0")
    with settings.chosen(JIT_PROFILING="on"):
        runtime_servers.NodeHttp("node").launch(cpus="0")
    swept, profiled = launched
    assert not any(argument.startswith(("--perf", "--logfile")) for argument in swept), swept
    assert profiled[2] == "--perf-basic-prof-only-functions"
    assert profiled[3] == f"--logfile={settings.LOG / 'node-v8.log'}"  # V8's code log, not in the cwd
    # make profile restarts it for that, as it restarts a JVM; not the runtimes that need no restart.
    assert registry.restarted_to_profile("node") and registry.restarted_to_profile("node-arrays")
    assert registry.restarted_to_profile("tomcat") and not registry.restarted_to_profile("go")


def test_interpolate_params_is_the_knobs_and_nothing_else(launched, monkeypatch):
    runtime_servers.GoHttp("go").launch(cpus="0")
    monkeypatch.setenv("GO_INTERPOLATE_PARAMS", "true")
    runtime_servers.GoHttp("go").launch(cpus="0")
    assert "--interpolate-params=false" in launched[0] and "--interpolate-params=true" in launched[1]
    monkeypatch.setenv("GO_INTERPOLATE_PARAMS", "yes")
    with pytest.raises(LabError, match="GO_INTERPOLATE_PARAMS must be true or false, not 'yes'"):
        runtime_servers.GoHttp("go").launch(cpus="0")
    assert len(launched) == 2


def test_the_rust_pools_ping_on_acquire_is_the_knobs_and_its_variant_turns_it_off(launched, monkeypatch):
    runtime_servers.RustAxum("rust").launch(cpus="0")
    runtime_servers.RustAxum("rust-no-acquire-ping").launch(cpus="0")
    assert "--test-before-acquire=true" in launched[0] and "--test-before-acquire=false" in launched[1]
    monkeypatch.setenv("RUST_TEST_BEFORE_ACQUIRE", "no")
    with pytest.raises(LabError, match="RUST_TEST_BEFORE_ACQUIRE must be true or false, not 'no'"):
        runtime_servers.RustAxum("rust").launch(cpus="0")


def test_the_node_servers_driver_and_rows_are_the_knobs(launched, monkeypatch):
    runtime_servers.NodeHttp("node").launch(cpus="0")
    monkeypatch.setenv("NODE_DRIVER", "mysql2")
    monkeypatch.setenv("NODE_ROWS_AS_ARRAY", "true")
    runtime_servers.NodeHttp("node").launch(cpus="0")
    (default, chosen) = launched
    assert default[2].endswith("node/server.js")
    assert option(default, "--driver") == "mariadb" and "--rows-as-array" not in default
    assert option(chosen, "--driver") == "mysql2" and "--rows-as-array" in chosen
    monkeypatch.setenv("NODE_DRIVER", "pg")
    with pytest.raises(LabError, match="NODE_DRIVER must be mariadb or mysql2, not 'pg'"):
        runtime_servers.NodeHttp("node").launch(cpus="0")
    assert len(launched) == 2


@pytest.mark.parametrize("server_class, name, variant_name", [
    (runtime_servers.GoHttp, "go", "go-interpolate"), (runtime_servers.NodeHttp, "node", "node-mysql2"),
    (runtime_servers.RustAxum, "rust", "rust-no-acquire-ping")])
def test_each_server_owns_its_own_process_and_not_its_variants(server_class, name, variant_name):
    """The variant runs the same program: a server that took the other's process for its own would
    kill it as a leftover when it restarts."""
    variant = server_class(variant_name)
    # A process whose command line reads as the variant's server (bash keeps its arguments while it sleeps).
    process = subprocess.Popen(["bash", "-c", "echo started; sleep 30; :", str(variant.program),
                                variant.binary_marker, "--config", str(settings.APP_CONFIG), "--pidfile",
                                str(variant.pidfile)], stdout=subprocess.PIPE)
    try:
        assert process.stdout.readline() == b"started\n"  # bash, not the fork before it, is the process now
        assert variant.owns(process.pid)
        assert not server_class(name).owns(process.pid)
    finally:
        process.kill()
        process.wait()
