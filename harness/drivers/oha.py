"""The oha binding (harness/drivers): the cross-check's open-loop command line, and oha's JSON report
read as the figures the sweep's judge reads from httperf (harness/judge/verdict.py), so that the
cross-check's open-loop runs are judged by exactly the sweep's rules. Pure."""
import math

NAME = "oha"
LOOP = "open"

# httperf's own reply rate is the mean of its samples of replies per 5 s window from the run's
# start (replies still in flight at the end of the last whole window are not counted). The sweep
# reads it only for runs with timeouts (harness/drivers/httperf.py reply_rate); oha's are read the same way.
HTTPERF_SAMPLE_S = 5.0


def sampled_reply_rate(reply_ends, total_s, sample_s=HTTPERF_SAMPLE_S):
    """Replies per second as httperf samples them: those that ended within the run's whole sample
    windows, over their length; over the whole run when it was shorter than one window."""
    windows = math.floor(total_s / sample_s)
    if windows < 1:
        return len(reply_ends) / total_s if total_s else 0.0
    sampled_s = windows * sample_s
    return sum(1 for end in reply_ends if end <= sampled_s) / sampled_s


def reply_rate(reply_ends, total_s, timed_out):
    """As the sweep reads httperf's (harness/drivers/httperf.py reply_rate): without timeouts, the
    replies after the first over the span from the first reply's end to the last's; with timeouts,
    httperf's sampling."""
    if not timed_out and len(reply_ends) >= 2 and max(reply_ends) > min(reply_ends):
        return (len(reply_ends) - 1) / (max(reply_ends) - min(reply_ends))
    return sampled_reply_rate(reply_ends, total_s)


def figures(report, offered, planned, reply_ends):
    """The judge's figures for `planned` requests sent by oha at `offered` req/s (-n, -q);
    `reply_ends`: when each reply ended, in seconds from the run's start (oha's --db-url).

    oha reports the whole run's wall time, including the tail after the last request was sent: as for
    httperf, the slowest request (at most the timeout) is taken off to get the window in which the
    requests were issued; its rate tells whether oha kept its schedule."""
    summary = report["summary"]
    codes = {int(code): count for code, count in report.get("statusCodeDistribution", {}).items()}
    errors = report.get("errorDistribution", {})
    replies = sum(codes.values())
    issued = replies + sum(errors.values())
    total_s = summary["total"]
    tail_s = summary.get("slowest") or 0.0
    latency = report.get("latencyPercentiles", {})
    timed_out = sum(count for kind, count in errors.items() if "timeout" in kind.lower())

    def status(low):
        return sum(count for code, count in codes.items() if low <= code < low + 100)

    return {
        "connections": issued,
        "replies": replies,
        "status_2xx": status(200), "status_4xx": status(400), "status_5xx": status(500),
        "errors_total": sum(errors.values()),
        "client_timo": timed_out,
        "test_duration_s": total_s,
        "conn_time_max_ms": tail_s * 1000,
        "request_rate": issued / total_s if total_s else 0.0,
        "reply_rate": reply_rate(reply_ends, total_s, timed_out),
        **{f"p{name[1:]}_ms": round(seconds * 1000, 2) for name, seconds in latency.items()
           if name in ("p50", "p90", "p99") and seconds is not None},
    }


def command(binary, request, rate, num_requests, timeout_s, max_connections, database, body_file,
            keepalive=False):
    """One open-loop oha run for the cross-check: `num_requests` at `rate` req/s, a new connection per
    request (or with `keepalive` its connections kept), latencies measured from each request's
    scheduled start (no coordinated omission). Enough connections that rate x timeout can be
    outstanding, as httperf allows, within `max_connections` (the descriptor limit; kept alive, also
    the server's connection cap). A POST's body is read from `body_file` (-D), which holds request.body:
    an argument may not pass 128 KB on Linux, and echo-1000's envelope is 128 KB."""
    connections = max(1, min(max_connections, math.ceil(rate * timeout_s)))
    command = [str(binary), "--no-tui", "--output-format", "json", "-n", str(num_requests), "-q", f"{rate:g}",
               "-c", str(connections), "-t", f"{timeout_s:g}s", "--latency-correction",
               "-m", request.method, "--db-url", str(database)] + ([] if keepalive else ["--disable-keepalive"])
    for name, value in request.headers.items():
        command += ["-H", f"{name}: {value}"]
    if request.body:
        command += ["-D", str(body_file)]
    return command + [request.url]
