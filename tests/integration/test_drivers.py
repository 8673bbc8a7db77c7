"""The drivers' knobs, read in MariaDB's own counters and the servers' own words: go-sql-driver/mysql's
default prepares, executes and closes a statement for every query with an argument, and the
interpolateParams variant sends the query alone, its value escaped into the text; both Node.js
drivers send the query as text, and each Node.js server runs the driver and row shape it was given;
sqlx prepares a statement once on each connection and executes it for every query, and pings the
connection as the pool hands it out and as it takes it back."""
import pytest

from stack import lifecycle, registry, settings

from .conftest import send

REQUESTS = 50
COUNTERS = ("Com_select", "Com_stmt_prepare", "Com_stmt_execute", "Com_stmt_close", "Com_admin_commands")


def counters(db):
    shown = db.sql("SHOW GLOBAL STATUS WHERE Variable_name IN (%s)" % ", ".join(f"'{name}'" for name in COUNTERS))
    return {name: int(value) for name, value in (line.split("\t") for line in shown.strip().splitlines())}


def counted(db, app):
    """How much each counter grew over REQUESTS single-row pages of the app."""
    before = counters(db)
    for player in range(1, REQUESTS + 1):
        assert send(registry.request(app, "single", id=player, engine="innodb")).status == 200
    after = counters(db)
    return {name: after[name] - before[name] for name in COUNTERS}


@pytest.mark.parametrize("app, statements", [("go", REQUESTS), ("go-interpolate", 0), ("node", 0),
                                             ("node-mysql2", 0), ("node-arrays", 0)])
def test_interpolate_params_decides_whether_each_query_is_a_prepared_statement(stack, db, app, statements):
    grown = counted(db, app)
    assert grown["Com_select"] == REQUESTS, grown
    assert grown["Com_stmt_prepare"] == grown["Com_stmt_execute"] == grown["Com_stmt_close"] == statements, grown


@pytest.mark.parametrize("server, driver, rows_as_array", [("node", "mariadb", "false"), ("node-mysql2", "mysql2", "false"),
                                                           ("node-arrays", "mariadb", "true")])
def test_each_node_server_runs_the_driver_its_knobs_name(stack, server, driver, rows_as_array):
    started = [line for line in lifecycle.lab_servers()[server].log.read_text().splitlines() if "listening on" in line]
    assert f"driver {driver}, rowsAsArray={rows_as_array}" in started[-1], started[-1]


def test_sqlx_prepares_each_statement_once_per_connection_and_pings_it_twice_a_request(stack, db):
    # The pool connects lazily, so a connection may first serve (and prepare) in any window: over them
    # all, no more prepares than the pool has connections, where a statement per query would be 250.
    windows = [counted(db, "rust") for _ in range(5)]
    assert all(grown["Com_select"] == grown["Com_stmt_execute"] == REQUESTS for grown in windows), windows
    assert sum(grown["Com_stmt_prepare"] for grown in windows) <= settings.int_knob("POOL_SIZE"), windows
    assert all(grown["Com_stmt_close"] == 0 for grown in windows), windows
    # test_before_acquire (sqlx's default; a fresh connection skips it) and the ping every release
    # makes: COM_PING, an admin command. In windows whose connections were all used before, twice a
    # request; other clients may add one now and then, never take one away.
    settled = [grown for grown in windows if grown["Com_stmt_prepare"] == 0]
    assert settled and min(grown["Com_admin_commands"] for grown in settled) == 2 * REQUESTS, windows
