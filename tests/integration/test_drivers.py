"""The drivers' knobs, read in MariaDB's own counters and the servers' own words: Go's default and
sqlx prepare each statement once on each connection of their pools and execute it for every query
(what every reply sends is asserted in test_commands.py); each Node.js server runs the driver and row
shape it was given."""
import pytest

from stack import lifecycle, settings

from .test_commands import REQUESTS, counted


@pytest.mark.parametrize("app", ["go", "rust"])
def test_a_statement_is_prepared_once_per_pooled_connection_and_executed_for_every_query(stack, db, app):
    # The pools connect lazily, so a connection may first serve (and prepare) in any window: over them
    # all, no more prepares than the pool has connections, where a statement per query would be 250.
    windows = [counted(db, app) for _ in range(5)]
    assert all(grown["selects"] == grown["executes"] == REQUESTS for grown in windows), windows
    assert sum(grown["prepares"] for grown in windows) <= settings.int_knob("POOL_SIZE"), windows
    assert all(grown["statement_closes"] == 0 for grown in windows), windows


@pytest.mark.parametrize("server, driver, rows_as_array", [("node", "mariadb", "false"), ("node-mysql2", "mysql2", "false"),
                                                           ("node-arrays", "mariadb", "true")])
def test_each_node_server_runs_the_driver_its_knobs_name(stack, server, driver, rows_as_array):
    started = [line for line in lifecycle.lab_servers()[server].log.read_text().splitlines() if "listening on" in line]
    assert f"driver {driver}, rowsAsArray={rows_as_array}" in started[-1], started[-1]
