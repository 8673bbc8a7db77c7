"""The Go server's command line: each of its settings is the lab's knob, and a knob it cannot take is
refused before anything starts."""
import subprocess

import pytest

from stack import registry, runtime_servers, settings
from stack.server import LabError


@pytest.fixture
def launched(monkeypatch):
    """The command lines the Go server would have started, none started."""
    commands = []
    monkeypatch.setattr(runtime_servers.GoHttp, "detached", lambda self, command, cpus: commands.append(command))
    return commands


def option(command, name):
    return command[command.index(name) + 1]


def test_the_go_server_takes_the_labs_knobs(launched, monkeypatch):
    monkeypatch.setenv("POOL_SIZE", "7")
    monkeypatch.setenv("KEEPALIVE_REQUESTS", "250")
    monkeypatch.setenv("KEEPALIVE_TIMEOUT_S", "3")
    monkeypatch.setenv("GO_PORT", "18999")
    runtime_servers.GoHttp("go").launch(cpus="0")
    [command] = launched
    assert command[0].endswith("target/go/lab-go")
    assert (option(command, "-bind"), option(command, "-port")) == ("127.0.0.1", "18999")
    assert (option(command, "-pool-size"), option(command, "-keep-alive-requests")) == ("7", "250")
    assert option(command, "-idle-timeout") == "3s" and "-interpolate-params=false" in command
    assert option(command, "-config") == str(settings.APP_CONFIG)
    assert option(command, "-pool-log") == str(registry.pool_log("go"))


def test_interpolate_params_is_the_knobs_and_nothing_else(launched, monkeypatch):
    monkeypatch.setenv("GO_INTERPOLATE_PARAMS", "true")
    runtime_servers.GoHttp("go").launch(cpus="0")
    assert "-interpolate-params=true" in launched[0]
    monkeypatch.setenv("GO_INTERPOLATE_PARAMS", "yes")
    with pytest.raises(LabError, match="GO_INTERPOLATE_PARAMS must be true or false, not 'yes'"):
        runtime_servers.GoHttp("go").launch(cpus="0")
    assert len(launched) == 1


def test_each_go_server_owns_its_own_process_and_not_its_variants():
    """The variant runs the same binary: a server that took the other's process for its own would
    kill it as a leftover when it restarts."""
    variant = runtime_servers.GoHttp("go-interpolate")
    # A process whose command line reads as the variant's server (bash keeps its arguments while it sleeps).
    process = subprocess.Popen(["bash", "-c", "echo started; sleep 30; :", str(variant.binary), "-config",
                                str(settings.APP_CONFIG), "-pidfile", str(variant.pidfile)], stdout=subprocess.PIPE)
    try:
        assert process.stdout.readline() == b"started\n"  # bash, not the fork before it, is the process now
        assert variant.owns(process.pid)
        assert not runtime_servers.GoHttp("go").owns(process.pid)
    finally:
        process.kill()
        process.wait()
