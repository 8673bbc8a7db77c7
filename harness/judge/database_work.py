"""Whether a step's replies did the database work their workload declares (the registry's
`database_work`: SELECTs and rows per reply), counted by MariaDB itself around the step
(harness/measure/mariadb_status.py). Pure: a step's figures in, a reason out.

Only 2xx replies owe the work (records.answered). More than declared is never flagged: a request
that timed out at the client still ran its SELECT. A passing step's replies that did more (two
SELECTs a request, say) keep their figure, and the step says so with what the database spent a reply."""
from harness.results.records import answered, database_work_per_reply

FLAG = "database work missing"


def compared(counted, declared, keep):
    """"0.00 selects per reply, not 1" for each of SELECTs and rows whose count `keep(count, declared)` picks."""
    return [f"{counted[name]:.2f} {name} per reply, not {declared[name]:,}"
            for name in ("selects", "rows") if name in counted and declared.get(name) and keep(counted[name], declared[name])]


def missing_work(figures, declared, max_missing_ratio):
    """None when the step's replies did at least their declared work less the margin (or nothing is
    declared, or the database was not read); else why the step is flagged, with its figures."""
    counted = database_work_per_reply(figures)
    if not declared or not counted:
        return None
    short = compared(counted, declared, lambda count, owed: count < (1 - max_missing_ratio) * owed)
    if not short:
        return None
    return (f"{FLAG}: {'; '.join(short)} (MariaDB's own count over {answered(figures):.0f} 2xx replies, "
            f"margin {max_missing_ratio:.0%}); not the app's figure")


def extra_work(figures, declared, margin, database_cpu_s=None):
    """None unless the step's replies did more than their declared work beyond the margin; else what
    they did and, where the database's CPU was sampled, what it spent a reply. Judge it on a passing
    step alone: a failing step's timed-out requests ran their SELECTs without a 2xx reply."""
    counted = database_work_per_reply(figures)
    if not declared or not counted:
        return None
    over = compared(counted, declared, lambda count, owed: count > (1 + margin) * owed)
    if not over:
        return None
    cost = (f"; the database's CPU {1000 * database_cpu_s / answered(figures):.3f} ms a reply"
            if database_cpu_s is not None else "")
    return f"more database work than declared: {'; '.join(over)}{cost}"
