"""Every pool is watched (issue 36): gSOAP's, Go's, Node.js's and Rust's database connections through the record the
server keeps of them each second, PHP-FPM's workers through the queue on their socket, as HikariCP's
through its wait log. A pool of one, driven by 16 connections at once, is seen starved and named as the
bottleneck; the same pool at its usual size under light load is not."""
import pytest

from harness.drivers import Window
from harness.judge.bottleneck import POOL, diagnosis
from harness.measure import load, monitors
from harness.results.manifest import Manifest
from harness.results.records import FAIL, Step
from stack import lifecycle, registry, settings, targets


def watched(server, app, connections, tmp_path):
    """The pool monitor's figures over 2 s of wrk at `connections` on the app's single row."""
    monitor = monitors.pool_monitor(server)
    monitor.start()
    load.run_window(Window(registry.request(app, "single", engine="innodb"), 2, connections),
                    settings.knob("CLIENT_CPUS"), tmp_path)
    return monitor.finish()


@pytest.fixture
def restarted(stack, monkeypatch):
    """Restart a server with knobs set, and as it was at the end of the test."""
    changed = []

    def restart(server, **knobs):
        for name, value in knobs.items():
            monkeypatch.setenv(name, value)
        changed.append(server)
        lifecycle.restart(server, settings.knob("SERVER_CPUS"))
    yield restart
    monkeypatch.undo()
    for server in changed:
        lifecycle.restart(server, settings.knob("SERVER_CPUS"))


@pytest.mark.parametrize("server, knob, app", [("gsoap", "POOL_SIZE", "soap-gsoap"),
                                               ("php-fpm", "PHP_FPM_WORKERS", "php-fpm"),
                                               ("go", "POOL_SIZE", "go"), ("node", "POOL_SIZE", "node"),
                                               ("node-mysql2", "POOL_SIZE", "node-mysql2"),
                                               ("rust", "POOL_SIZE", "rust")])
def test_a_pool_of_one_is_seen_starved_and_named_as_the_bottleneck(restarted, tmp_path, server, knob, app):
    # One connection at a time at the usual size: nothing waits, but a sample of PHP-FPM's socket may
    # catch the one connection between its connect and a worker's accept (seen once in CI).
    assert watched(server, app, 1, tmp_path).get("pool_waiting_max", 0) <= 1
    restarted(server, **{knob: "1"})
    figures = watched(server, app, 16, tmp_path)
    assert figures.get("pool_waiting_max", 0) > 1, figures
    step = Step(step=1, offered_rate=500, timeout_s=5, num_conns=1000, verdict=FAIL, reason="", raw="", figures=figures)
    # Judged as a run on one server CPU records it: with the registry as it declares the servers now.
    run = Manifest({"registry": targets.registry(), "pinning": {"server_cpus": "1"}})
    name, why = diagnosis([step], app, run)
    assert name == POOL and why.startswith(f"up to {figures['pool_waiting_max']:.0f} requests waited for "
                                           f"{registry.pool(server)['what']}")
