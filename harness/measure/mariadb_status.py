"""MariaDB's own counters around each step: how many connections the apps opened, how many it
refused or dropped, how many threads it had to create, and the work the replies made it do: the
SELECTs it ran, the rows it read, the UPDATEs and the rows they changed, and every other command an app sends it (judged by
harness/judge/database_work.py). Parsing is pure; the
monitor (in harness/measure/monitors.py) asks the server at the edge."""

# SHOW GLOBAL STATUS counter -> column in steps.tsv, grown over the step.
GROWING = {
    "Connections": "db_connections",
    "Aborted_connects": "db_aborted_connects",
    "Aborted_clients": "db_aborted_clients",
    "Connection_errors_max_connections": "db_refused_max_connections",
    "Threads_created": "db_threads_created",
    "Questions": "db_questions",
    # A statement run, also a prepared one's execution (gSOAP's); not the reading's own SHOW.
    "Com_select": "db_selects",
    # MariaDB's requests to read a row of a table, on any engine, temporary tables aside: the
    # reading's own SHOW fills a temporary table, so it adds none.
    "Rows_read": "db_rows_read",
    # InnoDB's own row count (TechEmpower's verifier read it); MariaDB dropped it by 10.11, where
    # its column is left out rather than made up.
    "Innodb_rows_read": "db_innodb_rows_read",
    # The write workloads': UPDATE statements run, and the rows they changed on either engine (a row
    # whose value stayed the same is not counted; an increment always changes it).
    "Com_update": "db_updates",
    "Handler_update": "db_rows_changed",
    # What the writes waited for: a MyISAM table lock that was not free at once (any statement's), an
    # InnoDB row lock and its milliseconds, and InnoDB's fsyncs and redo log writes (MariaDB 10.11 has
    # no Innodb_os_log_fsyncs; Innodb_data_fsyncs counts the log's and the data files').
    "Table_locks_waited": "db_table_lock_waits",
    "Innodb_row_lock_waits": "db_row_lock_waits",
    "Innodb_row_lock_time": "db_row_lock_ms",
    "Innodb_data_fsyncs": "db_fsyncs",
    "Innodb_log_writes": "db_log_writes",
    # The commands beside the SELECT (docs/method.md): a prepared statement's prepare, execution, close
    # and reset; COM_PING, which MariaDB counts among its admin commands; a SET, as Connector/J sends
    # one on every new connection.
    "Com_stmt_prepare": "db_prepares",
    "Com_stmt_execute": "db_executes",
    "Com_stmt_close": "db_statement_closes",
    "Com_stmt_reset": "db_statement_resets",
    "Com_admin_commands": "db_pings",
    "Com_set_option": "db_session_sets",
}
# The handler calls that read a table's rows, on either engine: a MyISAM scan moves rnd_next (one
# call past the last row), InnoDB's moves next, a lookup by key moves key. Summed into one column.
HANDLER_READS = ("Handler_read_first", "Handler_read_key", "Handler_read_last", "Handler_read_next",
                 "Handler_read_prev", "Handler_read_rnd", "Handler_read_rnd_next")
HANDLER_COLUMN = "db_handler_reads"
# ...and the ones read as they stand at the step's end.
STANDING = {
    "Threads_connected": "db_threads_connected_after",
    "Max_used_connections": "db_max_used_connections",
}
QUERY = ("SHOW GLOBAL STATUS WHERE Variable_name IN ("
         + ", ".join(f"'{name}'" for name in [*GROWING, *HANDLER_READS, *STANDING]) + ")")
# What the reading at the step's end cost itself, measured on MariaDB 10.11 (three readings back to
# back, docs/method.md): one login and two questions (the client asks for the server's version
# comment, then the status; neither is a SELECT it counts), and the SHOW's temporary table read to
# its end: one rnd_next call per variable it held, plus one.
OWN_COST = {"db_connections": 1, "db_questions": 2}


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


def handler_reads(reading):
    return sum(reading.get(name, 0) for name in HANDLER_READS)


def status_deltas(before, after):
    """The step's columns, less what the reading at the step's end cost itself (OWN_COST, and its
    temporary table's handler reads). A counter the server does not have gets no column; no column
    at all when either reading failed (the server was down)."""
    if not before or not after:
        return {}
    columns = {column: after[name] - before[name] for name, column in GROWING.items()
               if name in before and name in after}
    for column, own in OWN_COST.items():
        columns[column] = max(0, columns[column] - own)
    if any(name in before and name in after for name in HANDLER_READS):
        columns[HANDLER_COLUMN] = max(0, handler_reads(after) - handler_reads(before) - (len(after) + 1))
    columns.update({column: after.get(name, 0) for name, column in STANDING.items()})
    return columns
