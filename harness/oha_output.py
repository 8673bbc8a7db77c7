"""oha's JSON report, read as the figures the sweep's judge reads from httperf (harness/verdict.py),
so that the cross-check's open-loop runs are judged by exactly the sweep's rules. Pure."""


def figures(report, offered, planned):
    """The judge's figures for `planned` requests sent by oha at `offered` req/s (-n, -q).

    oha reports the whole run's wall time, including the tail after the last request was sent: as for
    httperf, the slowest request (at most the timeout) is taken off to get the window in which the
    requests were issued; its rate tells whether oha kept its schedule. Replies are counted over the
    schedule (planned / offered), or that window when longer."""
    summary = report["summary"]
    codes = {int(code): count for code, count in report.get("statusCodeDistribution", {}).items()}
    errors = report.get("errorDistribution", {})
    replies = sum(codes.values())
    issued = replies + sum(errors.values())
    total_s = summary["total"]
    tail_s = summary.get("slowest") or 0.0
    window_s = max(total_s - tail_s, 1e-9)
    latency = report.get("latencyPercentiles", {})

    def status(low):
        return sum(count for code, count in codes.items() if low <= code < low + 100)

    return {
        "connections": issued,
        "replies": replies,
        "status_2xx": status(200), "status_4xx": status(400), "status_5xx": status(500),
        "errors_total": sum(errors.values()),
        "client_timo": sum(count for kind, count in errors.items() if "timeout" in kind.lower()),
        "test_duration_s": total_s,
        "conn_time_max_ms": tail_s * 1000,
        "request_rate": issued / total_s if total_s else 0.0,
        "reply_rate": replies / max(planned / offered, window_s),
        **{f"p{name[1:]}_ms": round(seconds * 1000, 2) for name, seconds in latency.items()
           if name in ("p50", "p90", "p99") and seconds is not None},
    }
