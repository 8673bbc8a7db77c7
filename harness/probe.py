"""Before a cell's steps: warm it up until it is steady, and take its closed-loop capacity from the
steady windows, which seeds the plan. A JVM starts interpreted, and even a warm server varies from
window to window: one short probe measured the JIT as often as the server."""
import statistics
import time

from harness import load
from harness.options import PROFILES


def steady(windows, count, tolerance):
    """Pure: whether the last `count` windows' replies/s agree within `tolerance` (largest over
    smallest), none of them zero."""
    last = windows[-count:]
    return len(last) == count and min(last) > 0 and max(last) <= min(last) * (1 + tolerance)


def warm_enough(windows, elapsed_s, options, at_least_s=0):
    """Pure: steady (harness options' warmup_windows and warmup_tolerance), and warmed at least
    at_least_s: a JVM's windows can agree while its compiler still has minutes of work ahead."""
    return steady(windows, options.warmup_windows, options.warmup_tolerance) and elapsed_s >= at_least_s


def warm_up(cell, options, at_least_s=0):
    """Closed-loop windows until steady (and at least at_least_s) or the cap; the curve, whether it
    got steady, and the median of the last windows. None when warm-up is off."""
    if not options.warmup_cap_s:
        return None
    profile = PROFILES[cell.key.workload]
    windows, non2xx, started = [], 0, time.monotonic()
    while True:
        result = load.wrk_throughput(cell.request, profile.warmup_window_s, profile.probe_connections,
                                     options.client_cpus, cell.directory)
        windows.append(result["replies_per_s"])
        non2xx += result["non2xx"]
        done = warm_enough(windows, time.monotonic() - started, options, at_least_s)
        if done or time.monotonic() - started + profile.warmup_window_s > options.warmup_cap_s:
            break
    return {"windows": windows, "window_s": profile.warmup_window_s, "steady": done,
            "seconds": round(time.monotonic() - started, 1), "connections": profile.probe_connections,
            "replies_per_s": round(statistics.median(windows[-options.warmup_windows:]), 2),
            "non2xx": non2xx, "command": result["command"]}


def probe(cell, options, at_least_s=0):
    """The cell's steady closed-loop capacity in replies/s (kept in cell.json, so a resumed cell keeps
    its plan), or None when the plan is not seeded by one (no warm-up, the linear plan, errors)."""
    if cell.state.warmup is None:
        warmup = warm_up(cell, options, at_least_s)
        if warmup is None:
            return None
        cell.update(warmup=warmup, probe={key: warmup[key] for key in ("replies_per_s", "non2xx")})
        if not warmup["steady"]:
            cell.event(f"not steady after {warmup['seconds']:g} s of warm-up (last windows "
                       f"{warmup['windows'][-options.warmup_windows:]} replies/s); measured anyway")
    if options.mode == "linear" or cell.state.probe is None:
        return None
    result = cell.state.probe
    return result["replies_per_s"] if result["non2xx"] == 0 and result["replies_per_s"] > 0 else None
