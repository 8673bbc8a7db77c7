"""The baselines: the single-row page without a database, on each server, as a static file and as a
constant-row page. Each answers byte for byte what the apps answer for the registry's default id."""
import pytest

from stack import registry
from stack.settings import ROOT

from .conftest import db_rows, fetch, send

BASELINES = registry.set_members("baselines")


def test_the_static_page_is_the_apps_page_for_the_default_id(stack):
    page = send(registry.request("php", "single")).body
    assert (ROOT / "php" / "baseline.html").read_text() == page


@pytest.mark.parametrize("app", BASELINES)
def test_a_baseline_answers_the_single_row_page_byte_for_byte(stack, db, app):
    reply = send(registry.request(app, "single"))
    assert reply.status == 200
    assert reply.body == send(registry.request("php", "single")).body
    assert reply.headers["Content-Type"].startswith("text/html")
    assert "<td>adamswi02</td>" in reply.body and db_rows(db, "myisam", "id = 100")[0][1] == "adamswi02"


@pytest.mark.parametrize("app", BASELINES)
def test_a_baseline_answers_without_the_database(stack, app):
    mariadb = stack["mariadb"]
    mariadb.stop()
    try:
        assert send(registry.request(app, "single"), timeout=30).status == 200
    finally:
        mariadb.start()


@pytest.mark.parametrize("app", [app for app in BASELINES if app.startswith("constant-")])
def test_a_constant_row_page_refuses_other_methods(stack, app):
    request = registry.request(app, "single")
    reply = fetch(request.port, request.path, "DELETE")
    assert reply.status == 405 and reply.headers.get("Allow") == "GET, HEAD"
