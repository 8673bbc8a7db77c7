"""Whether a step's replies did the database work their workload declares (the registry's
`database_work`: SELECTs and rows per reply), counted by MariaDB itself around the step
(harness/measure/mariadb_status.py). Pure: a step's figures in, a reason out.

Only 2xx replies owe the work (records.answered). More than declared is never flagged: a request
that timed out at the client still ran its SELECT, and the report gives the count."""
from harness.results.records import answered, database_work_per_reply

FLAG = "database work missing"


def missing_work(figures, declared, max_missing_ratio):
    """None when the step's replies did at least their declared work less the margin (or nothing is
    declared, or the database was not read); else why the step is flagged, with its figures."""
    counted = database_work_per_reply(figures)
    if not declared or not counted:
        return None
    short = [f"{counted[name]:.2f} {name} per reply, not {declared[name]:,}"
             for name in ("selects", "rows") if name in counted and declared.get(name)
             and counted[name] < (1 - max_missing_ratio) * declared[name]]
    if not short:
        return None
    return (f"{FLAG}: {'; '.join(short)} (MariaDB's own count over {answered(figures):.0f} 2xx replies, "
            f"margin {max_missing_ratio:.0%}); not the app's figure")
