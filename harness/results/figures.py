"""The load drivers' figures in the lab's own words, whichever driver gave them: what every open-loop
binding (harness/drivers) reads a step's output as, the columns of steps.tsv after the step's own, and
what is derived from them; what every closed-loop binding reads a window's as. Pure.

A step's words are the ones the lab began with, httperf 0.9's summary lines named one by one; a binding
gives those it can (oha: the counts, the rates, the timeouts and its percentiles) and adds its own
beside them. A window's are fewer: at a number of connections rather than an offered rate there is no
offered or request rate to set a reply rate against, so it gives its replies per second, what it
counted and its latency; its driver's own figures (ab's kept-alive requests) beside them."""

# steps.tsv's figure columns, in this order whichever driver took the step, so that a run's file
# keeps its finished rows cell for cell; a binding's further figures follow them.
STEP_FIGURES = [
    "max_connect_burst", "connections", "requests", "replies", "test_duration_s", "connection_rate",
    "ms_per_connection", "max_concurrent_connections", "conn_time_min_ms", "conn_time_avg_ms",
    "conn_time_max_ms", "conn_time_median_ms", "conn_time_stddev_ms", "connect_time_ms", "request_rate",
    "request_size_b", "reply_rate_min", "reply_rate_avg", "reply_rate_max", "reply_rate_stddev",
    "reply_rate_samples", "response_time_ms", "transfer_time_ms", "reply_header_b", "reply_content_b",
    "reply_footer_b", "reply_total_b", "status_1xx", "status_2xx", "status_3xx", "status_4xx", "status_5xx",
    "client_cpu_user_s", "client_cpu_system_s", "client_cpu_user_pct", "client_cpu_system_pct",
    "client_cpu_total_pct", "net_io_kb_s", "client_minflt", "client_vcsw", "client_ivcsw", "errors_total",
    "client_timo", "socket_timo", "connrefused", "connreset", "fd_unavail", "addrunavail", "ftab_full",
    "errors_other", "session_rate_min", "session_rate_avg", "session_rate_max", "session_rate_stddev",
    "sessions_completed", "sessions_total", "offered_rate", "reply_rate",
]
# What every open-loop binding gives: what the judge (harness/judge/verdict.py) reads.
JUDGED = ["connections", "replies", "status_2xx", "status_4xx", "status_5xx", "errors_total", "client_timo",
          "test_duration_s", "request_rate", "reply_rate"]

# What every closed-loop binding gives for a window, whatever it printed: replies per second, requests
# answered whole, the window's seconds, the non-2xx replies, errors by the driver's own kinds and their
# count; p50_ms, p90_ms and p99_ms where it measured them.
WINDOW_FIGURES = ["replies_per_s", "requests", "seconds", "non2xx", "errors", "error_count"]


def reply_time_ms(figures):
    """Request sent to last reply byte: the response time (to the first byte) plus the transfer time,
    which is most of the time for a 16,000-row page. None when the driver gave no response time."""
    try:
        return round(float(figures["response_time_ms"]) + float(figures.get("transfer_time_ms") or 0), 1)
    except (KeyError, TypeError, ValueError):
        return None


def percentiles(bins, failed, timeout_ms, quantiles=(0.5, 0.9, 0.99)):
    """{quantile: ms} over every request of a step: completed ones from a histogram [(bin's upper edge
    in ms, count)] (each at its bin's upper edge, so a sub-millisecond app reads 1 ms with 1 ms bins),
    failed ones (errors, timeouts, never sent) as lasting the whole timeout. A quantile at the timeout
    means beyond it."""
    total = sum(count for _, count in bins) + failed
    if total == 0:
        return {}
    found = {}
    for quantile in quantiles:
        rank, seen = quantile * total, 0
        found[quantile] = timeout_ms
        for edge, count in bins:
            seen += count
            if seen >= rank:
                found[quantile] = min(edge, timeout_ms)
                break
    return found
