"""The wrk binding (harness/drivers): a closed-loop window's command line (one thread, `connections`
each waiting for its reply; a POST's body from a Lua script) and wrk's text report read as figures.
Pure.

wrk prints its throughput (`Requests/sec`), its socket errors and non-2xx replies, and with
`--latency` the 50/75/90/99 % points of every answered request's latency, timed from the request's
write to its reply (a connection's handshake is outside it: a new connection's latency starts once
it is open). A request that outlives `--timeout` is counted as a timeout error and left out of the
latency."""
import re
from pathlib import Path

from harness.drivers.invocation import Invocation

NAME = "wrk"
LOOP = "closed"
UNITS_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0, "h": 3_600_000.0}
ERROR_KINDS = ("connect", "read", "write", "timeout")
VERSIONS = {"wrk": ["dpkg", "wrk"]}  # how the manifest reads its version (harness/hosts/inventory.py)


def duration_ms(text):
    """wrk's printed duration ("812.00us", "1.23ms", "2.01s", "1.00m") in milliseconds."""
    match = re.fullmatch(r"([\d.]+)(us|ms|s|m|h)", text.strip())
    if not match:
        raise ValueError(f"not a wrk duration: {text!r}")
    return round(float(match.group(1)) * UNITS_MS[match.group(2)], 6)


def figures(text):
    """{replies_per_s, requests, seconds, non2xx, errors (per kind), error_count, p50_ms ... p99_ms
    when the report has a latency distribution}; ValueError when it is no wrk report."""
    rate = re.search(r"^Requests/sec:\s+([\d.]+)", text, re.MULTILINE)
    total = re.search(r"^\s*(\d+) requests in ([\d.]+\w+),", text, re.MULTILINE)
    if not rate or not total:
        raise ValueError("no wrk report (no Requests/sec or request count)")
    errors = dict.fromkeys(ERROR_KINDS, 0)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if socket_errors:
        errors = dict(zip(ERROR_KINDS, map(int, socket_errors.groups())))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    result = {"replies_per_s": float(rate.group(1)), "requests": int(total.group(1)),
              "seconds": duration_ms(total.group(2)) / 1000, "non2xx": int(non2xx.group(1)) if non2xx else 0,
              "errors": errors, "error_count": sum(errors.values())}
    distribution = text.partition("Latency Distribution")[2]
    # wrk pads a unit to two characters: "1.15s " ends in a space.
    for percent, value in re.findall(r"^\s+(50|75|90|99)%\s+(\S+)\s*$", distribution, re.MULTILINE):
        result[f"p{percent}_ms"] = round(duration_ms(value), 3)
    return result


def invocation(window, workdir):
    """wrk for one window: a new connection per request (Connection: close), or its connections kept
    alive; with the window's `latency`, its latency distribution; a request that outlives the window's
    `timeout_s` counts as a timeout error."""
    argv = ["wrk", "-t1", f"-c{window.connections}", f"-d{window.seconds:g}s"]
    argv += [] if window.keepalive else ["-H", "Connection: close"]
    argv += (["--latency"] if window.latency else []) + ([f"--timeout={window.timeout_s:g}s"] if window.timeout_s else [])
    request, inputs = window.request, {}
    if request.method != "GET" or window.drawn:
        script = Path(workdir) / "wrk-post.lua"
        lines = [f'wrk.method = "{request.method}"', f"wrk.body = [==[{request.body}]==]"]
        lines += [f'wrk.headers["{name}"] = [==[{value}]==]' for name, value in request.headers.items()]
        inputs[script] = "\n".join(lines + requests_in_turn(window.drawn)) + "\n"
        argv += ["-s", str(script)]
    return Invocation(argv + [request.url], inputs)


def requests_in_turn(drawn):
    """wrk's Lua for a drawing workload: each request the next of `drawn`, its method and path, from
    the first again after the last (wrk's request(), with one thread: one sequence over all its
    connections). A mix's reads and writes share the window's headers and body: the HTML apps' are
    empty."""
    if not drawn:
        return []
    if any("]==]" in each.path or "]==]" in each.method for each in drawn):
        raise ValueError("a path cannot hold ]==], which ends its Lua string")
    return ["local requests = {", *(f'  {{"{each.method}", [==[{each.path}]==]}},' for each in drawn), "}",
            "local taken = 0", "request = function()", "  taken = taken % #requests + 1",
            "  return wrk.format(requests[taken][1], requests[taken][2])", "end"]
