"""MariaDB's own counters around each step: how many connections the apps opened, how many it
refused or dropped, how many threads it had to create. Parsing is pure; the monitor (in
harness/measure/monitors.py) asks the server at the edge."""

# SHOW GLOBAL STATUS counter -> column in steps.tsv, grown over the step.
GROWING = {
    "Connections": "db_connections",
    "Aborted_connects": "db_aborted_connects",
    "Aborted_clients": "db_aborted_clients",
    "Connection_errors_max_connections": "db_refused_max_connections",
    "Threads_created": "db_threads_created",
    "Questions": "db_questions",
}
# ...and the ones read as they stand at the step's end.
STANDING = {
    "Threads_connected": "db_threads_connected_after",
    "Max_used_connections": "db_max_used_connections",
}
QUERY = ("SHOW GLOBAL STATUS WHERE Variable_name IN ("
         + ", ".join(f"'{name}'" for name in [*GROWING, *STANDING]) + ")")


def parse_status(text):
    """{name: value} from the batch output of SHOW GLOBAL STATUS (name TAB value per line)."""
    found = {}
    for line in text.splitlines():
        name, _, value = line.partition("\t")
        try:
            found[name.strip()] = int(value)
        except ValueError:
            continue
    return found


def status_deltas(before, after):
    """The step's columns, less what the reading at the step's end cost itself: one login and two
    questions (the client asks for the server's version comment, then the status). Empty when either
    reading failed (the server was down)."""
    if not before or not after:
        return {}
    columns = {column: after.get(name, 0) - before.get(name, 0) for name, column in GROWING.items()}
    for column, own in (("db_connections", 1), ("db_questions", 2)):
        columns[column] = max(0, columns[column] - own)
    columns.update({column: after.get(name, 0) for name, column in STANDING.items()})
    return columns
