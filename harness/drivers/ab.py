"""The Apache Bench binding (harness/drivers): ICWS'08's load generator. A closed-loop window's command
line (`ab -c N`, with `-k` its connections kept alive) and ab 2.3's report read as the figures every
closed-loop driver gives. Pure, tested on recorded outputs.

ab speaks HTTP/1.0: a connection is kept only when the server answers `Connection: Keep-Alive` with a
length it knows, so `keepalive_requests` says how many requests really went over a kept connection.
Its percentiles are whole milliseconds over each request's whole time (connect, send, wait, read)."""
import math
import re
from pathlib import Path

from harness.drivers.invocation import Invocation

NAME = "ab"
LOOP = "closed"
# ab allocates a record per request up front (-n, 32 bytes each): room for this many replies a second of
# the window, so that -t ends it. At 50,000 Lighttpd's static file (142,000 replies/s on kept connections,
# Intel Xeon) ran out of -n in 0.7 s of a 2 s window.
MOST_REPLIES_PER_S = 250_000
DEFAULT_TIMEOUT_S = 30  # ab's own -s
ERROR_KINDS = ("connect", "receive", "length", "exceptions")


def invocation(window, workdir):
    """ab for one window: `connections` at once for `seconds` (-t, with -n sized to stop on time), -r to
    carry on past a receive error, -l as every dynamic page's length varies; a POST's body from a file."""
    request = window.request
    if window.drawn:
        raise ValueError("ab sends one URL: a workload whose requests draw their ids takes wrk (DRIVER=wrk)")
    argv = ["ab", "-q", "-r", "-l", "-c", str(window.connections), "-t", f"{window.seconds:g}",
            "-n", str(math.ceil(window.seconds * MOST_REPLIES_PER_S)),
            "-s", f"{math.ceil(window.timeout_s or DEFAULT_TIMEOUT_S)}"] + (["-k"] if window.keepalive else [])
    headers = {name: value for name, value in request.headers.items() if name.lower() != "content-type"}
    for name, value in headers.items():
        argv += ["-H", f"{name}: {value}"]
    inputs = {}
    if request.method == "POST":
        body = Path(workdir) / "ab-body.txt"
        inputs[body] = request.body
        argv += ["-p", str(body), "-T", request.headers.get("Content-Type", "application/octet-stream")]
    elif request.method != "GET":
        raise ValueError(f"ab sends GET or POST, not {request.method}")
    return Invocation(argv + [request.url], inputs)


def number(text, label, default=None):
    found = re.search(rf"^{label}:\s+([\d.]+)", text, re.MULTILINE)
    if found:
        return float(found.group(1))
    if default is None:
        raise ValueError(f"no ab report (no {label!r} line)")
    return default


def figures(text):
    """{replies_per_s, requests, seconds, non2xx, errors (per kind), error_count, keepalive_requests,
    p50_ms, p90_ms, p99_ms}; ValueError when it is no ab report. ab counts a failed request among its
    complete ones and its own rate over both: here `requests` and `replies_per_s` are those answered
    whole, as wrk's are."""
    complete = int(number(text, "Complete requests"))
    seconds = number(text, "Time taken for tests")
    failed = int(number(text, "Failed requests"))
    errors = dict.fromkeys(ERROR_KINDS, 0)
    kinds = re.search(r"\(Connect: (\d+), Receive: (\d+), Length: (\d+), Exceptions: (\d+)\)", text)
    if kinds:
        errors = dict(zip(ERROR_KINDS, map(int, kinds.groups())))
    answered = complete - failed
    result = {"replies_per_s": round(answered / seconds, 2) if seconds else 0.0, "requests": answered,
              "seconds": seconds, "non2xx": int(number(text, "Non-2xx responses", 0)), "errors": errors,
              "error_count": failed, "keepalive_requests": int(number(text, "Keep-Alive requests", 0))}
    served_within = dict(re.findall(r"^\s+(\d+)%\s+(\d+)", text.partition("served within a certain time")[2],
                                    re.MULTILINE))
    for percent in ("50", "90", "99"):
        if percent in served_within:
            result[f"p{percent}_ms"] = float(served_within[percent])
    return result
