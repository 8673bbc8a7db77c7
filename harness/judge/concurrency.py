"""The concurrency sweep's judge: a level's figures from its windows, what bound a level other than the
app (the client, a server's connection cap, errors, other work), and each app's peak and knee. Pure.

A level is a closed-loop driver (wrk or ab) at one concurrency, measured in several windows: its throughput and its
latency points are the medians of the windows' (one unlucky window moves no figure). A flagged level
is plotted, and named with what bound it, but is never an app's peak or knee: its figure describes
the client or the server's configuration, not the app."""
import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Limits:
    client_cpu_share: float  # the driver's CPU time over a window's, of its one CPU, from which the client ran out
    error_share: float       # failed requests (socket errors, non-2xx) over all, beyond which the level failed
    knee_factor: float       # the knee: the first level whose p99 exceeds this many times the lowest level's


def level_figures(windows):
    """A level's figures from its windows (a closed-loop driver's figures each, with client_cpu_s and
    seconds): the medians of replies/s and of each latency point, the largest share of its CPU the
    driver used in any window, the share of requests that failed over all windows and, where the
    driver counts them (ab), the share of answered requests that went over a kept connection."""
    figures = {"windows": len(windows),
               "replies_per_s": round(statistics.median(window["replies_per_s"] for window in windows), 2)}
    for point in ("p50_ms", "p90_ms", "p99_ms"):
        values = [window[point] for window in windows if point in window]
        figures[point] = round(statistics.median(values), 3) if values else None
    figures["client_cpu_share"] = round(max(window.get("client_cpu_s", 0) / window["seconds"]
                                            for window in windows), 3)
    failed = sum(window.get("error_count", 0) + window.get("non2xx", 0) for window in windows)
    attempted = sum(window.get("requests", 0) + window.get("error_count", 0) for window in windows)
    figures["error_share"] = round(failed / attempted, 4) if attempted else None
    if all("keepalive_requests" in window for window in windows):
        answered = sum(window.get("requests", 0) for window in windows)
        kept = sum(window["keepalive_requests"] for window in windows)
        figures["keepalive_share"] = round(kept / answered, 4) if answered else None
    return figures


def level_flags(figures, connections, cap, limits, disturbed=None, client="wrk"):
    """What bound the level other than the app, in words (none: the level is the app's):
    `cap`, the server's (connections, what) from the registry, or None."""
    flags = []
    if not figures["replies_per_s"]:
        flags.append("no replies")
    if figures["client_cpu_share"] >= limits.client_cpu_share:
        flags.append(f"the client ran out: {client} used {figures['client_cpu_share']:.0%} of its CPU")
    if cap and connections > cap[0]:
        flags.append(f"above the server's cap of {cap[0]} connections, {cap[1]}: the rest wait in the backlog")
    if figures["error_share"] is not None and figures["error_share"] > limits.error_share:
        flags.append(f"{figures['error_share']:.1%} of requests failed")
    if disturbed:
        flags.append(f"disturbed: {disturbed}")
    return flags


def peak(levels):
    """The concurrency of the highest throughput among the unflagged levels; None without one.
    `levels`: dicts with connections, replies_per_s and flags."""
    clean = [level for level in levels if not level["flags"]]
    return max(clean, key=lambda level: level["replies_per_s"])["connections"] if clean else None


def knee(levels, factor):
    """The concurrency of the first unflagged level whose p99 exceeds `factor` x the lowest level's
    (the lowest concurrency's, itself unflagged); None when none does or the lowest has no p99."""
    ordered = sorted(levels, key=lambda level: level["connections"])
    if not ordered or ordered[0]["flags"] or not ordered[0].get("p99_ms"):
        return None
    bound = factor * ordered[0]["p99_ms"]
    return next((level["connections"] for level in ordered[1:]
                 if not level["flags"] and level.get("p99_ms") and level["p99_ms"] > bound), None)
