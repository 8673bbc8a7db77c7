"""Every HTML app answers the contract: the database's rows, in id order, on both engines."""
import pytest

from harness.run.verify import html_rows
from stack import registry, targets, workload_names

from .conftest import db_rows, html_apps, sample_ids, send

ENGINES = targets.registry()["engines"]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("app", html_apps())
def test_single_returns_exactly_the_row_the_database_holds(stack, db, app, engine):
    ids = sample_ids()
    expected = {int(row[0]): row for row in db_rows(db, engine, f"id IN ({','.join(map(str, ids))})")}
    assert sorted(expected) == ids
    for player_id in ids:
        reply = send(registry.request(app, "single", id=player_id, engine=engine))
        assert reply.status == 200, (player_id, reply.body)
        assert reply.headers["Content-Type"].lower().replace(" ", "") == "text/html;charset=utf-8"
        assert html_rows(reply.body) == [expected[player_id]]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("app", html_apps())
def test_large_returns_all_16000_rows_in_id_order(stack, db, app, engine):
    reply = send(registry.request(app, "large", engine=engine))
    assert reply.status == 200
    rows = html_rows(reply.body)
    assert len(rows) == 16000
    assert rows == db_rows(db, engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("app", html_apps())
def test_rows_returns_the_first_count_rows_by_id(stack, db, app, engine):
    for count in (1, 37, 16000):
        reply = send(registry.request(app, workload_names.sized(count), engine=engine))
        assert reply.status == 200, (count, reply.body[:300])
        assert "<title>rows</title>" in reply.body
        assert html_rows(reply.body) == db_rows(db, engine, limit=count)


@pytest.mark.parametrize("app", html_apps())
def test_large_pattern_selects_like_the_database_and_escapes_html(stack, db, app):
    reply = send(registry.request(app, "large", name="O'%", engine="innodb"))
    assert reply.status == 200
    assert "O&#039;" in reply.body
    assert html_rows(reply.body) == db_rows(db, "innodb", "nameLast LIKE 'O''%'")


@pytest.mark.parametrize("app", html_apps())
def test_a_pattern_matching_nothing_is_an_empty_table(stack, app):
    reply = send(registry.request(app, "large", name="no such name"))
    assert reply.status == 200
    assert html_rows(reply.body) == []


@pytest.mark.parametrize("app", html_apps())
def test_a_missing_player_is_404(stack, app):
    reply = send(registry.request(app, "single", id=16001))
    assert reply.status == 404
    assert "no player with this id" in reply.body


def test_all_html_apps_answer_byte_for_byte_the_same(stack):
    for workload, parameters in (("single", {"id": 4242}), ("large", {"name": "Sm%"}), ("rows", {"count": 250})):
        bodies = {app: send(registry.request(app, workload, **parameters)).body for app in html_apps()}
        assert len(set(bodies.values())) == 1, f"{workload}: apps differ: {sorted(bodies)}"
