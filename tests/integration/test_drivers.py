"""The drivers' knobs, read in MariaDB's own counters and the servers' own words: go-sql-driver/mysql's
default prepares, executes and closes a statement for every query with an argument, and the
interpolateParams variant sends the query alone, its value escaped into the text; both Node.js
drivers send the query as text, and each Node.js server runs the driver and row shape it was given;
sqlx prepares a statement once on each connection and executes it for every query, and pings the
connection as the pool hands it out and as it takes it back."""
import pytest

from stack import lifecycle, registry

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


def quietest(db, app, windows=3):
    """The counters' growth over the quietest of a few windows of REQUESTS pages. The counters are the
    whole server's: its other clients (the other apps' pools, the lab's own checks) may add a ping now
    and then, and never take one away, so the fewest is the app's own."""
    return min((counted(db, app) for _ in range(windows)), key=lambda grown: grown["Com_admin_commands"])


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
    counted(db, "rust")  # the pool's connections have each prepared the single-row query once
    grown = quietest(db, "rust")
    assert grown["Com_select"] == grown["Com_stmt_execute"] == REQUESTS, grown
    assert grown["Com_stmt_prepare"] == grown["Com_stmt_close"] == 0, grown
    # test_before_acquire (sqlx's default) and the ping every release makes: COM_PING, an admin command
    assert grown["Com_admin_commands"] == 2 * REQUESTS, grown
