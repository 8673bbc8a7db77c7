"""Every database-backed app sends the database, per reply, what its registry entry declares: its
SELECT (and the write workloads' UPDATEs) and each command beside them (connections opened, prepares,
executes, statement closes and resets, pings, SETs), by MariaDB's own counters read as a sweep's
step reads them."""
import pytest

from harness.measure.mariadb_status import QUERY, parse_status, status_deltas
from harness.results.records import DATABASE_WORK
from stack import registry

from .conftest import send

REQUESTS = 40
# What an app sends once warm: a pool or a PHP worker connects as its first requests come (and a new
# connection needs no ping), and the mariadb Node.js driver pings a connection that idled past its
# minDelayValidation (500 ms) as it hands it out. The first window after the app idled shows both;
# the app is warm once a window sends what it declares. Prefork's workers take sequential requests in
# turn, so php-persistent's may take a few windows.
WINDOWS = 6
# Other clients of the database (a pool's keepalive, a connection reaching its lifetime) may add a
# command now and then over a window, never take one away.
STRAY = 2


def counted(db, app, workload="single"):
    """{DATABASE_WORK's name: how many} over REQUESTS pages of the workload, a row's id each."""
    before = parse_status(db.sql(QUERY))
    for player in range(1, REQUESTS + 1):
        assert send(registry.request(app, workload, id=player, engine="innodb")).status == 200
    grown = status_deltas(before, parse_status(db.sql(QUERY)))
    return {name: grown[column] for name, column in DATABASE_WORK.items()}


def off_declared(grown, declared):
    """{name: count per reply} of those that are not what the app declares, beyond STRAY."""
    return {name: count / REQUESTS for name, count in grown.items()
            if not declared[name] * REQUESTS <= count <= declared[name] * REQUESTS + STRAY}


def database_apps():
    return [app for app in registry.apps() if registry.reads_database(app)]


def pages():
    """(app, workload): every database-backed app's single row, and the update and five updates of
    those that write."""
    return [(app, workload) for app in database_apps() for workload in ("single", "update", "updates-5")
            if workload == "single" or registry.serves(app, workload)]


@pytest.mark.parametrize("app,workload", pages())
def test_each_reply_sends_the_database_exactly_the_commands_its_app_declares(stack, db, app, workload):
    declared = registry.database_work(app, workload)
    assert set(declared) == set(DATABASE_WORK), f"{app} declares {sorted(declared)}"
    windows = []
    for _ in range(WINDOWS):
        windows.append(off_declared(counted(db, app, workload), declared))
        if not windows[-1]:
            break
    assert not windows[-1], f"{app}, declared {declared}, sent per reply beside it in each window: {windows}"
