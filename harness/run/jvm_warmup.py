"""A fresh JVM's warm-up, once for all its cells: before a round's first cell (its servers were just
restarted) and after the guard restarts a JIT server, every app x workload that server runs is driven
in turn (wrk, closed loop) until its compiler stays quiet over a whole rotation.

Why once, and why wider: pinned to its one CPU, Tomcat's compiler shares that CPU with the requests,
so compiling the three apps took 390 s after a restart (cumulative compile time 200 s, measured
here); each cell waiting for quiet on its own paths took 30-200 s and left the JIT's state depending on
which cell a round's random order put first. For the warm-up alone the JVM may also use the client's
CPUs (nothing is measured meanwhile): quiet after 100-190 s, then pinned back before any cell. The
cells' own warm-ups still check that the compiler is quiet."""
import time

from harness.drivers import Window
from harness.hosts import servers
from harness.measure import jit, load
from harness.run.context import profile_for
from stack import registry, settings

WINDOW_S = 2  # long enough for dozens of 16,000-row replies, short enough to rotate often


def rotation(cells):
    """Pure: one cell per app x workload, in first-seen order: the engines differ only in the table
    the same JVM code reads."""
    chosen = {}
    for key in cells:
        chosen.setdefault((key.app, key.workload), key)
    return list(chosen.values())


def widened(client_cpus, server_cpus):
    """Pure: the CPU list a JVM may use while it warms up: its own and the client's."""
    lists = [text for text in (server_cpus, client_cpus) if settings.pinned_to(text)]
    return ",".join(lists) if len(lists) == 2 else None


def servers_of(cells):
    """{JIT server name: its cells} among the run's cells, in first-seen order."""
    servers = {}
    for key in cells:
        if registry.jit(key.app):
            servers.setdefault(registry.server_of(key.app), []).append(key)
    return servers


def warm_jvm(server_name, cells, context, directory):
    """Drive the server's cells in rotation (connections kept alive when the run's steps keep them)
    until its compiler gained at most jit_quiet_share of a rotation's time over the last rotation, or
    jvm_warmup_cap_s; None when off, down or unreadable."""
    warmup, pinning = context.warmup, context.pinning
    server = servers.server(server_name)
    pid = server.pid()
    compiled = [server.compile_seconds()] if warmup.jvm_warmup_cap_s and pid else [None]
    if compiled[0] is None:
        return None
    targets = rotation(cells)
    cpus = widened(pinning.client_cpus, pinning.cpus_of(server_name))
    drawn = {key: registry.drawn_requests(key.app, key.workload, key.engine, key.name) for key in targets}
    windows, started = [], time.monotonic()
    if cpus:
        server.pin(cpus)
    try:
        while True:
            for key in targets:
                request = registry.request(key.app, key.workload, engine=key.engine)
                window = Window(request, WINDOW_S, profile_for(key.workload).probe_connections, context.plan.keepalive,
                                drawn=drawn[key])
                result = load.run_window(window, pinning.client_cpus, directory)
                windows.append([key.name, result["replies_per_s"]])
                compiled.append(server.compile_seconds())
            if compiled[-1] is None:  # the JVM is gone: the guard's readiness check recovers it
                quiet = False
                break
            judged = max(len(targets), warmup.warmup_windows)  # a one-target rotation judged on more than one window
            quiet = jit.compiler_quiet(compiled, WINDOW_S, judged, warmup.jit_quiet_share)
            elapsed = time.monotonic() - started
            if quiet or elapsed * (len(windows) + len(targets)) / len(windows) > warmup.jvm_warmup_cap_s:
                break
    finally:
        if cpus:
            server.pin(pinning.cpus_of(server_name))
    return {"server": server_name, "pid": pid, "quiet": quiet, "seconds": round(time.monotonic() - started, 1),
            "cpus_while_warming": cpus or pinning.cpus_of(server_name), "window_s": WINDOW_S, "windows": windows,
            "compile_s": [None if value is None else round(value, 2) for value in compiled]}


def describe(record):
    """One line for a JVM warm-up."""
    return (f"{record['server']} warmed for {record['seconds']:g} s on CPUs {record['cpus_while_warming']} "
            f"({len(record['windows'])} windows, compiler's time {record['compile_s'][-1]} s): "
            + ("its compiler is quiet" if record["quiet"] else "its compiler is NOT quiet (cap reached)"))
