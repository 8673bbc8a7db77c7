"""The engine-less SOAP baselines (ICWS'08, Figs. 1-2): getQuote's canned answer on each SOAP
engine's server, as a static file and from a page that reads the envelope and runs no engine, byte
for byte the contract's file; and the SOAP papers' operations, like them, need no database."""
import pytest

from harness.run.verify import judge_echo
from stack import registry
from stack.settings import ROOT

from .conftest import fetch, send

SOAP_BASELINES = registry.set_members("soap-baselines")
SOAP_APPS = [name for name in registry.apps() if registry.app(name)["kind"] == "soap"]
CANNED = (ROOT / "contract" / "quote-response.xml").read_text()


def test_every_soap_engines_server_has_both_baselines():
    servers = {registry.server_of(app) for app in SOAP_APPS}
    for server in servers:
        kinds = sorted(app.split("-")[0] for app in SOAP_BASELINES if registry.server_of(app) == server)
        assert kinds == ["canned", "static"], server


@pytest.mark.parametrize("app", SOAP_BASELINES)
def test_a_soap_baseline_answers_the_canned_quote_byte_for_byte(stack, app):
    reply = send(registry.request(app, "quote"))
    assert reply.status == 200 and reply.body == CANNED
    assert reply.headers["Content-Type"].startswith("text/xml")
    assert judge_echo("quote", reply.status, reply.body)[0]


@pytest.mark.parametrize("app", [app for app in SOAP_BASELINES if app.startswith("canned-")])
def test_a_canned_page_takes_only_posts(stack, app):
    request = registry.request(app, "quote")
    assert fetch(request.port, request.path).status == 405


def test_the_papers_operations_and_the_baselines_need_no_database(stack):
    mariadb = stack["mariadb"]
    mariadb.stop()
    try:
        for app in SOAP_APPS + SOAP_BASELINES:
            for workload in ("quote",) if app in SOAP_BASELINES else ("echo-10", "list-5", "quote"):
                reply = send(registry.request(app, workload), timeout=30)
                assert judge_echo(workload, reply.status, reply.body)[0], (app, workload, reply.body[:300])
    finally:
        mariadb.start()
