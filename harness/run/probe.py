"""Before a cell's steps: warm it up until it is steady, and take its closed-loop capacity from the
steady windows, which seeds the plan. A JVM starts interpreted, and even a warm server varies from
window to window: one short probe measured the JIT as often as the server."""
import math
import statistics
import time

from harness.drivers import Window
from harness.hosts import servers
from harness.measure import jit, load
from harness.run.context import profile_for
from stack import registry


def steady(windows, count, tolerance, window_s=1, counting_sds=0):
    """Pure: whether the last `count` windows' replies/s agree, none of them zero: the largest within
    `tolerance` of the smallest, or, in replies per window, within `counting_sds` times the counting
    noise of the largest (its square root). A 16,000-row cell's window holds a few dozen replies,
    which chance alone spreads by more than 10 %."""
    last = windows[-count:]
    if len(last) < count or min(last) <= 0:
        return False
    spread = (max(last) - min(last)) * window_s
    return spread <= max(tolerance * min(last) * window_s, counting_sds * math.sqrt(max(last) * window_s))


def warm_enough(windows, compile_seconds, warmup, window_s):
    """Pure: steady (the warm-up's warmup_windows, warmup_tolerance and warmup_counting_sds), and on a JIT server
    (`compile_seconds` sampled around each window, else None) its compiler quiet over those windows
    (jit_quiet_share): a JVM's windows can agree while its compiler still has minutes of work ahead."""
    if not steady(windows, warmup.warmup_windows, warmup.warmup_tolerance, window_s, warmup.warmup_counting_sds):
        return False
    return compile_seconds is None or jit.compiler_quiet(compile_seconds, window_s, warmup.warmup_windows,
                                                         warmup.jit_quiet_share)


def warm_up(cell, context):
    """Closed-loop windows until warm (steady, and on a JIT server its compiler quiet) or the cap, the
    connections kept alive when the run's steps keep them; the curve, whether it got warm, and the
    median of the last windows. None when warm-up is off."""
    warmup = context.warmup
    if not warmup.warmup_cap_s:
        return None
    profile = profile_for(cell.key.workload)
    window_s = profile.warmup_window_s
    server = servers.server(cell.server) if registry.jit(cell.key.app) else None
    compiled = [server.compile_seconds()] if server else None
    if compiled == [None]:
        cell.event("the JVM's compile time cannot be read (hsperfdata); warm-up judged by its windows alone")
        compiled = None
    cap_s = warmup.jit_warmup_cap_s if compiled else warmup.warmup_cap_s
    windows, non2xx, started = [], 0, time.monotonic()
    while True:
        result = load.run_window(Window(cell.request, window_s, profile.probe_connections, context.plan.keepalive,
                                        drawn=cell.drawn),
                                 context.pinning.client_cpus, cell.directory)
        windows.append(result["replies_per_s"])
        non2xx += result["non2xx"]
        if compiled:
            compiled.append(server.compile_seconds())
        done = warm_enough(windows, compiled, warmup, window_s)
        if done or time.monotonic() - started + window_s > cap_s:
            break
    return {"windows": windows, "window_s": window_s, "steady": done,
            "seconds": round(time.monotonic() - started, 1), "connections": profile.probe_connections,
            "replies_per_s": round(statistics.median(windows[-warmup.warmup_windows:]), 2),
            "compile_s": compiled, "non2xx": non2xx, "command": result["command"]}


def probe(cell, context):
    """The cell's steady closed-loop capacity in replies/s (kept in cell.json, so a resumed cell keeps
    its plan), or None when the plan is not seeded by one (no warm-up, the linear plan, errors)."""
    warmup = context.warmup
    if cell.state.warmup is None:
        curve = warm_up(cell, context)
        if curve is None:
            return None
        cell.update(warmup=curve, probe={key: curve[key] for key in ("replies_per_s", "non2xx")})
        if not curve["steady"]:
            compiler = (f", compiler's cumulative seconds {curve['compile_s'][-warmup.warmup_windows - 1:]}"
                        if curve["compile_s"] else "")
            cell.event(f"not warm after {curve['seconds']:g} s of warm-up (last windows "
                       f"{curve['windows'][-warmup.warmup_windows:]} replies/s{compiler}); measured anyway")
    if context.plan.mode == "linear" or cell.state.probe is None:
        return None
    result = cell.state.probe
    return result["replies_per_s"] if result["non2xx"] == 0 and result["replies_per_s"] > 0 else None
