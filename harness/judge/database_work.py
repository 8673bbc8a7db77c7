"""Whether a step's replies did the database work their app and workload declare (the registry's
`database_work`: SELECTs and rows per reply, and every other command the app sends: connections,
prepares, executes, pings...), counted by MariaDB itself around the step
(harness/measure/mariadb_status.py). Pure: a step's figures in, a reason out.

Only 2xx replies owe the work (records.answered), and only SELECTs and rows can fall short. More than
declared is never a failure: a request that timed out at the client still ran its SELECT. A passing
step's replies that did more (two SELECTs a request, a ping the app does not declare) keep their
figure, and the step names what they sent, with what the database spent a reply."""
from harness.results.records import DATABASE_WORK, answered, database_work_per_reply

FLAG = "database work missing"
# What a reply owes and can fall short of; the commands beside them can only be more than declared.
OWED = ("selects", "rows", "updates", "rows_changed")
# The step's rise in the versions of both tables (SUM(ver), read before and after it: harness/run/step.py).
VERSIONS_RAISED = "db_versions_raised"
# How long the versions' readings around a step wait for the servers' backlog of writes to end.
VERSIONS_SETTLE_S = 30
VERSIONS_INTERVAL_S = 0.5


def settled(readings):
    """The first of the versions' `readings` (SUM(ver), taken VERSIONS_INTERVAL_S apart) equal to the
    one before it: no write landed between them, so the servers' backlog has ended (after a step
    whose client gave up, or a probe's, requests still queued at the app go on writing, row by row);
    the last reading when none settled, None when one failed."""
    previous = None
    for reading in readings:
        if reading is None or reading == previous:
            return reading
        previous = reading
    return previous


# The UPDATEs the step's requests owe, counted from them (harness/run/step.py), and the most one owes.
UPDATES_OWED = "updates_owed"


def compared(counted, declared, keep, names):
    """"0.00 selects per reply, not 1" for each of `names` whose count `keep(count, declared)` picks
    (a mix's fractions of a count to three places)."""
    return [f"{counted[name]:.{3 if isinstance(declared[name], float) else 2}f} {name.replace('_', ' ')} per reply, "
            f"not {declared[name]:{'.3f' if isinstance(declared[name], float) else ','}}"
            for name in names if name in counted and declared.get(name) is not None
            and keep(counted[name], declared[name])]


def owed_work(declared, figures, planned):
    """The work a step's replies owe: the declared, but where the step counted the UPDATEs its own
    requests owe (a mix's: any run of its requests holds its share of writes, less one), its updates
    and rows changed per reply are those, over the `planned` requests, not the share's."""
    if not declared or not declared.get("updates") or UPDATES_OWED not in figures or not planned:
        return declared
    per_reply = figures[UPDATES_OWED] / planned
    return {**declared, **{name: per_reply * declared[name] / declared["updates"] for name in ("updates", "rows_changed")}}


def missing_work(figures, declared, max_missing_ratio):
    """None when the step's replies did at least their declared work less the margin (or nothing is
    declared, or the database was not read); else why the step is flagged, with its figures."""
    counted = database_work_per_reply(figures)
    if not declared or not counted:
        return None
    short = compared(counted, declared, lambda count, owed: count < (1 - max_missing_ratio) * owed, OWED)
    if not short:
        return None
    return (f"{FLAG}: {'; '.join(short)} (MariaDB's own count over {answered(figures):.0f} 2xx replies, "
            f"margin {max_missing_ratio:.0%}); not the app's figure")


def extra_work(figures, declared, margin, database_cpu_s=None):
    """None unless the step's replies did more than their declared work beyond the margin (of the
    declared count, or of one for a command declared none); else what they did and, where the
    database's CPU was sampled, what it spent a reply. Judge it on a passing step alone: a failing
    step's timed-out requests ran their SELECTs without a 2xx reply."""
    counted = database_work_per_reply(figures)
    if not declared or not counted:
        return None
    over = compared(counted, declared, lambda count, owed: count > owed + margin * max(owed, 1), DATABASE_WORK)
    if not over:
        return None
    cost = (f"; the database's CPU {1000 * database_cpu_s / answered(figures):.3f} ms a reply"
            if database_cpu_s is not None else "")
    return f"more database work than declared: {'; '.join(over)}{cost}"


def owed_bounds(figures, per_reply, planned):
    """(least, most) UPDATEs the step's requests owe. Where the step counted what its own requests
    owe (UPDATES_OWED, from the requests it sent: a mix's reads owe none), all of that once every
    request got its 2xx reply, and each request without one may not have written: as much less as it
    owes at most. Otherwise every 2xx reply owes `per_reply`, and every other request sent may."""
    replies = answered(figures)
    if UPDATES_OWED in figures:
        unanswered = max(0, (planned or replies) - replies)
        most = figures[UPDATES_OWED]
        return max(0, most - unanswered * figures["updates_most_per_request"]), most
    # httperf counts the requests it sent; oha, which gives no such count, the requests it issued as
    # its connections.
    sent = max(replies, figures.get("requests") or figures.get("connections") or 0)
    return replies * per_reply, sent * per_reply


def write_problem(figures, declared, planned=None):
    """None when the tables' versions rose by exactly the updates the step's 2xx replies owe, or within
    what its other requests leave open (each may or may not have written before it failed), of the
    `planned` requests; else why the step is flagged: "writes lost" below, "writes done twice" above.
    Not judged without the versions' reading or for a workload that declares no updates."""
    raised, per_reply = figures.get(VERSIONS_RAISED), (declared or {}).get("updates")
    if raised is None or not per_reply:
        return None
    least, most = owed_bounds(figures, per_reply, planned)
    replies = answered(figures)
    if raised < least:
        return (f"{FLAG}: writes lost: the versions rose by {raised:.0f}, the {replies:.0f} 2xx replies owe "
                f"at least {least:.0f} (SUM(ver) before and after the step)")
    if raised > most:
        return (f"{FLAG}: writes done twice: the versions rose by {raised:.0f}, the step's requests could "
                f"owe at most {most:.0f} (SUM(ver) before and after the step)")
    return None
