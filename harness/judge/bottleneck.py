"""What ran out first in a cell, named from what its steps measured. Pure: a cell's summary and
steps in, (bottleneck, why) out.

The servers share their pinned CPUs, so "the CPU" is one resource whatever server used it: the
bottleneck is the CPU when it was nearly all busy at the saturation step (or at the lowest failing
step above it, where whatever ran out ran out for good), and the database when mariadbd used the
most of it. Below that, the other resources that can cap a rate without a busy CPU: the writes'
waits in the database (a MyISAM table lock, an InnoDB row lock, InnoDB's commits waiting for the
disk's fsync), requests waiting for the pool, connections dropped at a listen queue, MariaDB refusing
connections. The database's waits come first: a pool's requests queue behind its connections'
commits. A cell
that saturates with none of these is "unexplained": a figure to look into before believing it.
Before all of them, on a shaped link (TOPOLOGY=netns LINK=), the link: the replies' bytes filled
most of its rate.

A cell is judged by its run's own manifest (harness/results/manifest.py): the cores and the link its
servers had, and the registry as the run declared it (the servers' titles, which one is the database,
the pools), so an old run is judged by the servers it ran, not by today's."""
from dataclasses import dataclass

from harness.results.records import BASELINE, CLIENT_BOUND, FAIL, LOCATED, PLAN_LIMIT, answered
from harness.results.saturation import latest_verdicts

CLIENT, CPU, DATABASE, POOL, ACCEPT_QUEUE, LINK, UNEXPLAINED = (
    "client", "server CPU", "database", "pool wait", "accept queue", "link", "unexplained")
TABLE_LOCK, ROW_LOCK, DISK = "table lock", "row lock", "disk"
DATABASE_WAITS = (TABLE_LOCK, ROW_LOCK, DISK)  # the order they are named in


@dataclass(frozen=True)
class BottleneckLimits:
    # The servers' CPUs at least this busy (% of all of them) are the bottleneck.
    busy_cpu_pct: float = 85.0
    # The replies' bytes at least this share of a shaped link's rate: the link is the bottleneck.
    full_link_pct: float = 80.0
    # Below a busy CPU: a lock waited for by at least this share of the replies (MariaDB's count of
    # waits, any statement's, per 2xx reply), or InnoDB's fsyncs at least this many per reply (a
    # commit that waits for the disk; group commit lets several share one).
    lock_waits_per_reply: float = 0.1
    fsyncs_per_reply: float = 0.25
    # ...or the disk under MariaDB's data busy with I/O at least this share of the step (the
    # kernel's count, /proc/diskstats: its queue was never empty that long).
    disk_busy_share: float = 0.8


def link_pct(step, link_bits_per_s):
    """The replies' bits per second over a step, in % of the link's rate (HTTP bytes: the headers
    of TCP, IP and Ethernet add about 4 % more on the wire)."""
    if not link_bits_per_s:
        return 0.0
    return 100 * (step.figures.get("reply_total_b") or 0) * 8 * (step.reply_rate or 0) / link_bits_per_s


def cpu_pct(step, server_cores):
    """The servers' CPU time over a step, in % of the CPUs they were pinned to."""
    duration = step.figures.get("test_duration_s") or 0
    if not duration or not server_cores:
        return 0.0
    return 100 * step.server_total("_cpu_s") / duration / server_cores


def cpu_shares(step):
    """Each server's CPU seconds over the step, busiest first (a server idle in this cell left out)."""
    used = {name: step.figures.get(f"{name}_cpu_s") or 0.0 for name in step.servers}
    return sorted(((seconds, name) for name, seconds in used.items() if seconds >= 0.05), reverse=True)


def telling_steps(summary, steps):
    """The saturation step, then the latest try at the overload rate (the lowest failing one above)."""
    judged = [step for step in steps if step.role != BASELINE and step.reply_rate is not None]
    # saturation.tsv keeps the reply rate to two decimals.
    saturation = [step for step in judged if step.offered_rate == summary.saturation_offered
                  and round(step.reply_rate, 2) == summary.saturation_rps]
    latest = latest_verdicts((step.offered_rate, step.verdict) for step in judged)
    overload = [step for step in judged if step.offered_rate == summary.overload_offered
                and latest.get(step.offered_rate) == FAIL]
    return saturation[-1:] + overload[-1:]


def bottleneck(summary, steps, run, limits=BottleneckLimits()):
    """(name, why) for one cell of the run whose manifest is `run`; ("", "") when it has no saturation
    point to explain."""
    if summary.status == CLIENT_BOUND:
        return CLIENT, "the load generator could not keep its schedule above the last passing rate"
    if summary.status not in (LOCATED, PLAN_LIMIT):
        return "", ""
    told = telling_steps(summary, steps)
    name, why = diagnosis(told, summary.app, run, limits)
    return name, "; ".join([why] + [note for step in told for note in full_collections(step, run.server_title)])


def full_collections(step, title):
    """Pure: each JVM's full collections over a step, as notes: one longer than the step's timeout
    turns every request it holds up into a client timeout, a cliff rather than a queue."""
    notes = []
    for figure, count in step.figures.items():
        if figure.endswith("_gc_full_n") and count > 0:
            server = figure.removesuffix("_gc_full_n")
            seconds = step.figures.get(f"{server}_gc_full_s", 0.0)
            notes.append(f"{title(server)} stopped {seconds:.2f} s for {count:.0f} full "
                         f"collection(s) at {step.offered_rate:g} req/s offered (its timeout {step.timeout_s:g} s)")
    return notes


def seen_at(step, server_cores):
    return f"at {step.offered_rate:g} req/s offered, servers' CPU {cpu_pct(step, server_cores):.0f} % busy"


def database_waits(step, where, limits):
    """[(name, why)] of what a step's writes waited for in the database, past the limits: a table
    lock, a row lock, the disk's fsyncs, each per 2xx reply, or the disk's busy share of the step."""
    replies = answered(step.figures)
    if not replies:
        return []
    per_reply = {figure: step.figures.get(figure, 0) / replies
                 for figure in ("db_table_lock_waits", "db_row_lock_waits", "db_fsyncs")}
    found = []
    if per_reply["db_table_lock_waits"] >= limits.lock_waits_per_reply:
        found.append((TABLE_LOCK, f"{per_reply['db_table_lock_waits']:.2f} table lock waits per reply {where}"))
    if per_reply["db_row_lock_waits"] >= limits.lock_waits_per_reply:
        waited = step.figures.get("db_row_lock_ms", 0) / max(step.figures.get("db_row_lock_waits", 1), 1)
        found.append((ROW_LOCK, f"{per_reply['db_row_lock_waits']:.2f} row lock waits per reply, {waited:.1f} ms each, {where}"))
    busy = step.figures.get("db_disk_busy_share", 0)
    if per_reply["db_fsyncs"] >= limits.fsyncs_per_reply or busy >= limits.disk_busy_share:
        found.append((DISK, f"{per_reply['db_fsyncs']:.2f} InnoDB fsyncs per reply, the disk busy {busy:.0%} "
                            f"of the step, {where}"))
    return found


def diagnosis(told, app, run, limits=BottleneckLimits()):
    """(name, why) from the telling steps' link, CPU, database waits, pool, database and listen-queue
    figures of one of the app's cells in the run whose manifest is `run`."""
    server_cores, link_bits_per_s = run.server_cores, run.link_bits_per_s
    for step in told:
        carried = link_pct(step, link_bits_per_s)
        if carried >= limits.full_link_pct:
            return LINK, (f"the replies carried {carried:.0f} % of the {link_bits_per_s / 1e6:g} Mbit/s link "
                          f"at {step.offered_rate:g} req/s offered (servers' CPU {cpu_pct(step, server_cores):.0f} % busy)")
    for step in told:
        where = f"at {step.offered_rate:g} req/s offered"
        busy = cpu_pct(step, server_cores)
        if busy >= limits.busy_cpu_pct:
            shares = cpu_shares(step)
            split = ", ".join(f"{run.server_title(name)} {seconds:.1f} s" for seconds, name in shares)
            name = DATABASE if shares and shares[0][1] == run.database_server else CPU
            return name, f"servers' CPU {busy:.0f} % busy {where} ({split})"
    # A lock's queue caps the rate whatever the disk does: the locks first, at either step.
    waits = [found for step in told for found in database_waits(step, seen_at(step, server_cores), limits)]
    named = min(waits, key=lambda found: DATABASE_WAITS.index(found[0]), default=None)
    if named:
        return named
    evidence = []
    for step in told:
        if step.figures.get("pool_waiting_max", 0) > 0:
            evidence.append((POOL, f"up to {step.figures['pool_waiting_max']:.0f} requests waited for "
                                   f"{run.pool_what(app)} {seen_at(step, server_cores)}"))
        if step.figures.get("db_refused_max_connections", 0) > 0:
            evidence.append((DATABASE, f"MariaDB refused {step.figures['db_refused_max_connections']:.0f} "
                                       f"connections (max_connections) {seen_at(step, server_cores)}"))
        if step.figures.get("tcp_listen_overflows", 0) > 0:
            evidence.append((ACCEPT_QUEUE, f"{step.figures['tcp_listen_overflows']:.0f} connections dropped "
                                           f"at a full listen queue {seen_at(step, server_cores)}"))
    if evidence:
        return evidence[0]
    busiest = max((cpu_pct(step, server_cores) for step in told), default=0.0)
    return UNEXPLAINED, f"saturated with the servers' CPU at most {busiest:.0f} % busy and nothing else exhausted"
