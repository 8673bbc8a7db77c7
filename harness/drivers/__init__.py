"""The load drivers: each load generator a binding behind one interface, pure.

Every binding has `NAME`; `LOOP`, "open" (requests sent at an offered rate, whatever the replies do)
or "closed" (connections each waiting for its reply); a command line for one measured window; and its
output read as figures in the lab's own words, with the driver's own beside them. Where a binding's
version is worth a manifest's line it declares how to read it (`VERSIONS`).

- Closed loop (`wrk`, `ab`): `invocation(window, workdir)`, the command line and input files for one
  `Window`, and `figures(text)`, a window's figures in the lab's words (harness/results/figures.py
  `WINDOW_FIGURES`: replies_per_s, requests answered whole, seconds, non2xx, errors by the driver's own
  kinds, error_count; p50_ms, p90_ms and p99_ms where it gives them), the driver's own beside them (ab's
  keepalive_requests); ValueError when the output holds no report. Running one is
  the edge's (harness/measure/load.py `run_window`), which adds the client's own CPU time.
- Open loop (`httperf`, the sweeps' driver, and `oha`, the cross-check's second opinion): `command`, its
  command line for one step at an offered rate, and its output read as a step's figures
  (harness/results/figures.py: every binding gives at least its `JUDGED`). Running one is the one
  step's (harness/run/step.py `take_step`, its `OPEN_LOOP`), which watches, judges and records every
  driver's steps alike. Which build of a driver runs is a value passed in (httperf's: the plan's
  `httperf_build`), never read from the environment."""
from dataclasses import dataclass

from harness.drivers import ab, httperf, oha, wrk


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
    drawn: tuple = ()                # a drawing workload's requests, sent in turn (stack.registry.drawn_requests); () : request


DRIVERS = {binding.NAME: binding for binding in (httperf, oha, wrk, ab)}
CLOSED_LOOP = {name: binding for name, binding in DRIVERS.items() if binding.LOOP == "closed"}


def closed_loop(name):
    """The closed-loop binding called `name`; ValueError naming the others."""
    if name not in CLOSED_LOOP:
        raise ValueError(f"no closed-loop driver {name!r}: one of {', '.join(CLOSED_LOOP)}")
    return CLOSED_LOOP[name]


def driver(name):
    """The binding called `name`; ValueError naming the others."""
    if name not in DRIVERS:
        raise ValueError(f"no load driver {name!r}: one of {', '.join(DRIVERS)}")
    return DRIVERS[name]


def checked_build(name, build):
    """`build` when driver `name` has it (httperf: auto or always); ValueError otherwise."""
    return driver(name).checked_build(build)


def versions():
    """{what: how to read its version} of every driver that declares it."""
    return {what: how for binding in DRIVERS.values() for what, how in getattr(binding, "VERSIONS", {}).items()}
