"""Judge one sweep step: invalid (client-bound), pass or fail. Pure; thresholds documented below."""
from dataclasses import asdict, dataclass

from harness.results.records import CLIENT_LIMITED, FAIL, PASS

CLIENT_ADVICE = ("lower the timeout or the rate step, give httperf its own core (CLIENT_CPUS), "
                 "or drive the load from another client")


@dataclass(frozen=True)
class Thresholds:
    # The client must issue at least this share of the offered rate, or the step measured the client.
    min_issue_ratio: float = 0.98
    # A passing step's reply rate is at least this share of the offered rate...
    min_reply_ratio: float = 0.95
    # ...with at most this share of requests ending in an error (timeouts, resets, refusals)...
    max_error_ratio: float = 0.01
    # ...and at most this share of replies with a status other than 2xx.
    max_non2xx_ratio: float = 0.01
    # The share of its declared database work (SELECTs, rows) a step's 2xx replies may fall short of
    # before the step is flagged "database work missing" (harness/judge/database_work.py). Every honest
    # step measured read 1.000 or more, since MariaDB counts whole statements and rows; 1 % lets a
    # rounding through and no cache worth the name (docs/method.md, "The database's own count").
    max_missing_work_ratio: float = 0.01


def recorded_thresholds(options):
    """{threshold: value} a run's manifest options recorded, today's defaults for those added since."""
    return {**asdict(Thresholds()), **options.get("thresholds", {})}


def failed_requests(figures, planned_requests, calls=1):
    """With a connection per request: httperf's errors, and the planned requests it never opened a
    connection for (a killed or stalled client); both count as failed. Kept alive (`calls` per
    connection), httperf's errors count connections, and one timed out or reset takes the calls it
    had left with it, never sent: every planned request without a reply failed."""
    if calls > 1:
        return max(0.0, planned_requests - figures["replies"])
    return figures["errors_total"] + max(0.0, planned_requests - figures["connections"])


def issue_rate(figures, timeout_s, calls=1):
    """The rate at which httperf kept its schedule, in requests per second: connections opened per
    second, times the `calls` each carries (kept alive, a connection's later calls wait for the
    server's replies: only its opening is the client's schedule).

    httperf's own "Request rate" counts only requests actually written - a connection an overloaded
    server never accepted sends none - and divides by the whole test duration, which includes
    waiting for the last replies. Both make a saturated server look like a slow client. Connections
    initiated are the client's own doing; the tail after the last one is at most the longest
    connection (or the timeout, when some timed out), so it is taken off before dividing.
    """
    tail_ms = figures.get("conn_time_max_ms", 0.0)
    if figures.get("client_timo", 0) > 0:
        tail_ms = max(tail_ms, timeout_s * 1000)
    window = figures["test_duration_s"] - tail_ms / 1000
    if window <= 0:
        return figures["request_rate"]
    return max(figures["request_rate"], figures["connections"] * calls / window)


def judge(figures, offered, timeout_s, planned_requests, killed=False, thresholds=Thresholds(), calls=1):
    """(verdict, reason) for one step of `calls` requests per connection; figures is None when
    httperf printed no summary."""
    if killed or figures is None:
        return CLIENT_LIMITED, f"httperf killed by the watchdog or printed no summary; {CLIENT_ADVICE}"
    client_errors = {name: figures.get(name, 0) for name in ("fd_unavail", "addrunavail", "ftab_full")}
    if any(client_errors.values()):
        named = ", ".join(f"{name} {int(count)}" for name, count in client_errors.items() if count)
        return CLIENT_LIMITED, f"client ran out of descriptors or ports ({named}); {CLIENT_ADVICE}"
    issued = issue_rate(figures, timeout_s, calls)
    if issued < thresholds.min_issue_ratio * offered:
        return CLIENT_LIMITED, (f"client issued only {issued:.1f} of {offered:g} req/s "
                         f"(< {thresholds.min_issue_ratio:.0%}); {CLIENT_ADVICE}")
    reasons = []
    if figures["reply_rate"] < thresholds.min_reply_ratio * offered:
        reasons.append(f"reply rate {figures['reply_rate']:.1f} < {thresholds.min_reply_ratio:.0%} "
                       f"of {offered:g}")
    errors = failed_requests(figures, planned_requests, calls)
    if errors > thresholds.max_error_ratio * planned_requests:
        reasons.append(f"{int(errors)} errors of {int(planned_requests)} requests "
                       f"(client-timo {int(figures.get('client_timo', 0))}, "
                       f"connreset {int(figures.get('connreset', 0))}, "
                       f"connrefused {int(figures.get('connrefused', 0))})")
    replies = figures["replies"]
    non2xx = replies - figures.get("status_2xx", replies)
    if replies and non2xx > thresholds.max_non2xx_ratio * replies:
        reasons.append(f"{int(non2xx)} of {int(replies)} replies not 2xx "
                       f"(4xx {int(figures.get('status_4xx', 0))}, 5xx {int(figures.get('status_5xx', 0))})")
    if reasons:
        return FAIL, "; ".join(reasons)
    return PASS, f"reply rate {figures['reply_rate']:.1f} of {offered:g} req/s, no errors over the limits"
