"""Hostile and malformed input gets the contract's 4xx from every HTML app - never a 5xx, a trace,
SQL, a path or a version - and the tables are untouched afterwards."""
from urllib.parse import quote

import pytest

from stack import lab, registry
from tests.hostile_cases import LEAKS, QUERY_CASES, VALUE_CASES, parameters_with

from .conftest import fetch, html_apps


def query_for(workload, parameter, value):
    return "&".join(f"{key}={quote(text, safe='')}"
                    for key, text in parameters_with(workload, parameter, value).items())


def get(app, workload, query):
    base = registry.request(app, workload)
    return fetch(base.port, base.path.split("?")[0] + ("?" + query if query else ""))


def assert_no_leaks(reply):
    for leak in LEAKS:
        assert leak not in reply.body, f"{leak!r} in body: {reply.body[:300]}"
    assert "X-Powered-By" not in reply.headers


@pytest.mark.parametrize("workload,parameter,value,message", VALUE_CASES,
                         ids=[f"{c[1]}={c[2][:30]!r}" for c in VALUE_CASES])
@pytest.mark.parametrize("app", html_apps())
def test_hostile_values_get_the_contract_answer(stack, app, workload, parameter, value, message):
    reply = get(app, workload, query_for(workload, parameter, value))
    if value == "9" * 10000:
        # Over the servers' request-line limit: refused by httpd or Tomcat before the app runs.
        assert reply.status in (400, 414), reply.status
    elif message is None:
        assert reply.status == 200
    else:
        assert reply.status == 400, reply.body[:300]
        assert message in reply.body
    assert_no_leaks(reply)


@pytest.mark.parametrize("workload,query,status,message", QUERY_CASES, ids=[c[1][:30] for c in QUERY_CASES])
@pytest.mark.parametrize("app", html_apps())
def test_hostile_query_strings_get_a_4xx(stack, app, workload, query, status, message):
    reply = get(app, workload, query)
    if status is None:
        assert 400 <= reply.status < 500, reply.status
    else:
        assert reply.status == status, reply.body[:300]
    if message:
        assert message in reply.body
    assert_no_leaks(reply)


@pytest.mark.parametrize("app", html_apps())
def test_other_methods_are_refused(stack, app):
    base = registry.request(app, "single")
    for method in ("POST", "PUT", "DELETE"):
        reply = fetch(base.port, base.path, method=method, body="id=1")
        assert reply.status == 405, (method, reply.status)
        assert "method not allowed" in reply.body


def test_tables_are_intact_after_hostile_input(stack, db):
    assert lab.verify(db) == []
