"""MariaDB's counters around a step, on two real readings taken before and after 150 requests to
the plain servlet (wrk, 1 s, a new database connection per request)."""
from pathlib import Path

from harness.measure.mariadb_status import handler_reads, parse_status, status_deltas

FIXTURES = Path(__file__).parent.parent / "fixtures" / "mariadb"


def reading(name):
    return parse_status((FIXTURES / name).read_text())


def test_a_reading_holds_every_counter_asked_for():
    before = reading("status-before.txt")
    assert before["Connections"] == 16 and before["Threads_connected"] == 6 and len(before) == 8


def test_the_step_counts_the_apps_connections_without_the_readings_own():
    columns = status_deltas(reading("status-before.txt"), reading("status-after.txt"))
    # 171 - 16 logins, one of them the second reading's own; wrk completed 150 requests and cut
    # off the few in flight at its end.
    assert columns["db_connections"] == 154
    assert columns["db_questions"] == 485 - 21 - 2
    assert columns["db_threads_created"] == 3
    assert columns["db_aborted_connects"] == 0 and columns["db_refused_max_connections"] == 0
    assert columns["db_threads_connected_after"] == 6 and columns["db_max_used_connections"] == 9


def test_a_failed_reading_gives_no_columns_rather_than_made_up_ones():
    assert status_deltas({}, reading("status-after.txt")) == {}
    assert status_deltas(reading("status-before.txt"), {}) == {}


def test_lines_that_are_not_counters_are_skipped():
    assert parse_status("Connections\t7\nnoise\nUptime\tnot-a-number\n") == {"Connections": 7}


# Readings of MariaDB 10.11 with the work counters, recorded on the lab's stack: two back to back
# (idle), around 20 single-row requests to the plain servlet on MyISAM (single), and around 3
# 16,000-row requests to the pooled servlet on InnoDB (large).
def deltas(name):
    return status_deltas(reading(f"work-{name}-before.txt"), reading(f"work-{name}-after.txt"))


def test_a_reading_costs_no_select_no_row_and_no_handler_read_once_its_own_are_taken_off():
    idle = deltas("idle")
    assert idle["db_selects"] == idle["db_rows_read"] == idle["db_handler_reads"] == 0
    assert idle["db_connections"] == idle["db_questions"] == 0


def test_a_reading_read_raw_would_have_spoiled_a_short_steps_handler_count():
    """The SHOW's temporary table moves Handler_read_rnd_next once per variable, plus one: over 20
    single-row requests that is 41 handler reads for 20 rows, unless it is taken off."""
    before, after = reading("work-single-before.txt"), reading("work-single-after.txt")
    raw = handler_reads(after) - handler_reads(before)
    assert raw == 20 + len(after) + 1
    assert deltas("single")["db_handler_reads"] == 20


def test_every_request_ran_its_select_and_read_its_rows_on_either_engine():
    single, large = deltas("single"), deltas("large")
    assert (single["db_selects"], single["db_rows_read"], single["db_connections"]) == (20, 20, 20)
    # The pool's connections were open already; InnoDB's scan is read_first plus next per row.
    assert (large["db_selects"], large["db_rows_read"], large["db_connections"]) == (3, 48000, 0)
    assert large["db_handler_reads"] == 3 * 16001


def test_a_counter_the_server_lacks_gets_no_column_rather_than_a_zero():
    # MariaDB 10.11 has no Innodb_rows_read; a reading from before the work counters has no handler's.
    assert "Innodb_rows_read" not in reading("work-idle-after.txt")
    assert "db_innodb_rows_read" not in deltas("idle")
    older = status_deltas(reading("status-before.txt"), reading("status-after.txt"))
    assert "db_selects" not in older and "db_handler_reads" not in older


def test_every_command_beside_the_select_is_counted_as_the_app_sent_it():
    """Around 20 warm single-row requests to the Rust app (recorded on the lab's stack): sqlx executes
    its statement, prepared once per connection, and pings the connection as it is handed out and as it
    comes back; nothing else."""
    commands = status_deltas(reading("work-commands-before.txt"), reading("work-commands-after.txt"))
    assert commands["db_selects"] == commands["db_executes"] == 20
    assert commands["db_pings"] == 40
    assert commands["db_prepares"] == commands["db_statement_closes"] == commands["db_statement_resets"] == 0
    assert commands["db_session_sets"] == commands["db_connections"] == 0
