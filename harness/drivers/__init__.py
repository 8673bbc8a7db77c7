"""The load drivers: each load generator a binding behind one interface, pure.

A closed-loop binding (`wrk`, `ab`) has `NAME`, `invocation(window, workdir)`, the command line and
input files for one `Window`, and `figures(text)`, its output read as the same figures for every
driver: replies_per_s, requests (answered whole), seconds, non2xx, errors (by the driver's own
kinds), error_count, p50_ms, p90_ms and p99_ms where it gives them, and keepalive_requests where it
counts them; ValueError when the output holds no report. Running one is the edge's
(harness/measure/load.py `run_window`), which adds the client's own CPU time.

The open-loop bindings (`httperf`, the sweeps' driver, and `oha`, the cross-check's second opinion)
have `NAME`, their command line for one step at an offered rate, and their output read as the
judge's figures (harness/judge/verdict.py). Running one is the one step's (harness/run/step.py
`take_step`, its `OPEN_LOOP`), which watches, judges and records every driver's steps alike."""
from dataclasses import dataclass

from harness.drivers import ab, wrk


@dataclass(frozen=True)
class Window:
    """One closed-loop run: `connections` kept busy for `seconds`, each sending its next request once
    the last one's reply is in; a new connection per request unless `keepalive`."""
    request: object  # stack.registry.Request
    seconds: float
    connections: int
    keepalive: bool = False
    latency: bool = False            # ask for the latency distribution where the driver makes it optional
    timeout_s: float | None = None   # a request unanswered this long is an error (the driver's default if None)


CLOSED_LOOP = {binding.NAME: binding for binding in (wrk, ab)}


def closed_loop(name):
    """The closed-loop binding called `name`; ValueError naming the others."""
    if name not in CLOSED_LOOP:
        raise ValueError(f"no closed-loop driver {name!r}: one of {', '.join(CLOSED_LOOP)}")
    return CLOSED_LOOP[name]
