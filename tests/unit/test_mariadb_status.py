"""MariaDB's counters around a step, on two real readings taken before and after 150 requests to
the plain servlet (wrk, 1 s, a new database connection per request)."""
from pathlib import Path

from harness.measure.mariadb_status import parse_status, status_deltas

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
