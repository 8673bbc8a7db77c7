"""The write workloads' pages on every app that declares them: each update POST raises exactly one
row's version and shows that row with it, each updates POST its count of distinct rows drawn by the
app, on both engines; hostile input and the wrong method get the contract's 4xx and write nothing.
Under load, update's drawn ids spread the updates over the table, one version a reply, by httperf's
sessions and by wrk's script alike, and an updates step raises its count a reply, exactly."""
import re
import subprocess
from collections import Counter
from urllib.parse import quote

import pytest

from harness.drivers import Window, httperf
from harness.measure import load
from harness.run.verify import html_rows, judge_repeated, versioned_rows
from stack import lab, registry, targets, workload_names
from tests.hostile_cases import LEAKS, LONG, QUERY_CASES, VALUE_CASES, parameters_with

from .conftest import db_rows, fetch, html_apps, sample_ids, send

ENGINES = targets.registry()["engines"]
UPDATE = "update"
UPDATES = "updates-5"


def writing_apps():
    return [app for app in html_apps() if registry.serves(app, UPDATE)]


def version(db, engine, player_id):
    return int(db.sql(f"SELECT ver FROM lab.people_{engine} WHERE id = {int(player_id)}").strip())


def post(app, query, workload=UPDATE):
    base = registry.request(app, workload, queries="1")
    return fetch(base.port, base.path.split("?")[0] + ("?" + query if query else ""), method="POST")


def test_the_studys_apps_and_their_java_25_and_php_fpm_twins_declare_the_update_page():
    assert {"php", "php-persistent", "php-fpm", "servlet", "pooled-servlet", "servlet-java25",
            "pooled-servlet-java25"} <= set(writing_apps())
    assert UPDATE in workload_names.write_workloads() and UPDATE not in workload_names.workloads()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("app", writing_apps())
def test_each_update_raises_its_rows_version_by_one_and_shows_the_row_with_it(stack, db, app, engine):
    ids = sample_ids()
    expected = {int(row[0]): row for row in db_rows(db, engine, f"id IN ({','.join(map(str, ids))})")}
    other = "innodb" if engine == "myisam" else "myisam"
    others_before = lab.table_versions(db) - sum(version(db, engine, player_id) for player_id in ids)
    for player_id in ids:
        before = version(db, engine, player_id)
        reply = send(registry.request(app, UPDATE, id=player_id, engine=engine))
        assert reply.status == 200, (player_id, reply.body[:300])
        assert reply.headers["Content-Type"].lower().replace(" ", "") == "text/html;charset=utf-8"
        assert versioned_rows(reply.body) == [expected[player_id]]
        shown = int(reply.body.rsplit("<td>", 1)[1].split("<", 1)[0])
        assert shown == before + 1 == version(db, engine, player_id), (player_id, before, shown)
    untouched = lab.table_versions(db) - sum(version(db, engine, player_id) for player_id in ids)
    assert untouched == others_before, f"an update wrote outside its row (the {other} table or another id)"


@pytest.mark.parametrize("app", writing_apps())
def test_an_id_no_row_has_is_404_and_writes_nothing(stack, db, app):
    before = lab.table_versions(db)
    reply = send(registry.request(app, UPDATE, id=16001))
    assert reply.status == 404 and "no player with this id" in reply.body
    assert lab.table_versions(db) == before


@pytest.mark.parametrize("app", writing_apps())
def test_the_update_page_takes_post_alone_and_the_read_pages_refuse_it(stack, db, app):
    before = lab.table_versions(db)
    base = registry.request(app, UPDATE)
    for method in ("GET", "HEAD", "PUT", "DELETE"):
        reply = fetch(base.port, base.path, method=method)
        assert reply.status == 405 and reply.headers["Allow"] == "POST", (method, reply.status)
    single = registry.request(app, "single")
    assert fetch(single.port, single.path, method="POST").headers["Allow"] == "GET, HEAD"
    assert lab.table_versions(db) == before, "a refused method wrote"


SINGLE_VALUES = [case for case in VALUE_CASES if case[0] == "single"]
SINGLE_QUERIES = [case for case in QUERY_CASES if case[0] == "single" and case[2] != 200]


@pytest.mark.parametrize("workload,parameter,value,message", SINGLE_VALUES,
                         ids=[f"{c[1]}={c[2][:30]!r}" for c in SINGLE_VALUES])
@pytest.mark.parametrize("app", writing_apps())
def test_hostile_values_get_the_single_pages_answer_and_write_nothing(stack, db, app, workload, parameter, value,
                                                                      message):
    before = lab.table_versions(db)
    reply = post(app, "&".join(f"{key}={quote(text, safe='')}"
                               for key, text in parameters_with(workload, parameter, value).items()))
    if value == "9" * 10000:
        assert reply.status in (400, 414), reply.status  # refused by httpd or Tomcat before the app runs
    else:
        assert reply.status == 400 and message in reply.body, reply.body[:300]
    assert not [leak for leak in LEAKS if leak in reply.body] and "X-Powered-By" not in reply.headers
    assert lab.table_versions(db) == before


@pytest.mark.parametrize("workload,query,status,message", SINGLE_QUERIES, ids=[c[1][:30] for c in SINGLE_QUERIES])
@pytest.mark.parametrize("app", writing_apps())
def test_hostile_query_strings_get_a_4xx_and_write_nothing(stack, db, app, workload, query, status, message):
    before = lab.table_versions(db)
    reply = post(app, query)
    assert (400 <= reply.status < 500) if status is None else reply.status == status, reply.body[:300]
    assert message is None or message in reply.body
    assert lab.table_versions(db) == before


def id_of(request):
    """The id a drawn request names: in its query string, or in its SOAP envelope's id element."""
    found = re.search(r"[?&]id=(\d+)", request.path) or re.search(r"<lab:id>(\d+)<", request.body or "")
    return int(found.group(1))


def versions_by_id(db, engine):
    return {int(player_id): int(ver) for player_id, ver in
            (line.split("\t") for line in db.sql(f"SELECT id, ver FROM lab.people_{engine}").splitlines())}


@pytest.mark.parametrize("driver", ["httperf", "wrk"])
def test_a_loads_drawn_ids_spread_its_updates_over_the_table_one_version_a_reply(stack, db, tmp_path, driver):
    request = registry.request("php", UPDATE, engine="innodb")
    drawn = registry.drawn_requests("php", UPDATE, "innodb", f"spread by {driver}")
    ids = [id_of(each) for each in drawn]
    before = versions_by_id(db, "innodb")
    if driver == "httperf":
        session = tmp_path / "session.txt"
        session.write_text(httperf.session_file_text(request, drawn=drawn))
        completed = subprocess.run(httperf.command(request, 150, 300, 5, session), capture_output=True, text=True,
                                   timeout=60)
        replies = sent = int(httperf.figures(completed.stdout)["status_2xx"])
    else:
        connections = 2
        window = load.run_window(Window(request, 1, connections, drawn=drawn), None, tmp_path)
        replies, sent = window["requests"], window["requests"] + connections  # those cut off may have written
    after = versions_by_id(db, "innodb")
    raised = Counter({player_id: after[player_id] - before[player_id] for player_id in after
                      if after[player_id] != before[player_id]})
    assert replies > 50 and replies <= raised.total() <= sent, (replies, raised.total())
    # httperf's sessions are taken in turn from the first: each of their rows raised once a time it
    # was sent. wrk's script walks the paths in turn too, but wrk asks it for requests it does not send
    # (measured: its rows raised skip some of the first paths): no row more often than the paths hold it.
    if driver == "httperf":
        assert raised == Counter(ids[:sent])
    else:
        assert not raised - Counter(ids), "a row raised more often than the paths hold its id"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("app", ["php", "pooled-servlet", "soap"])
def test_a_mixs_httperf_step_raises_exactly_the_rows_of_its_writes_and_its_reads_none(stack, db, tmp_path, app, engine):
    workload = "mixed-10"
    drawn = registry.drawn_requests(app, workload, engine, f"mixed on {engine}")
    sessions = httperf.sessions_of(registry.request(app, workload, engine=engine), 1, drawn)
    session = tmp_path / "session.txt"
    session.write_text(httperf.sessions_text(sessions))
    before = versions_by_id(db, engine)
    completed = subprocess.run(httperf.command(registry.request(app, workload, engine=engine), 200, 400, 5, session),
                               capture_output=True, text=True, timeout=60)
    figures = httperf.figures(completed.stdout)
    assert figures["status_2xx"] == figures["requests"] == 400, completed.stdout[-600:]
    after = versions_by_id(db, engine)
    raised = Counter({player_id: after[player_id] - before[player_id] for player_id in after
                      if after[player_id] != before[player_id]})
    # httperf takes the sessions in turn: the first 400 hold 40 writes, whose ids alone were raised.
    assert raised == Counter(id_of(each) for each in drawn[:400] if each.updates)
    assert httperf.updates_owed(sessions, 400) == (raised.total(), 1) == (40, 1)


def updating_apps():
    return [app for app in html_apps() if registry.serves(app, UPDATES)]


def raised_since(before, after):
    return {player_id: after[player_id] - before[player_id] for player_id in after if after[player_id] != before[player_id]}


def test_every_app_that_answers_update_answers_updates_too():
    assert updating_apps() == writing_apps()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("app", updating_apps())
def test_each_updates_request_raises_its_count_of_distinct_rows_by_one_and_shows_them_raised(stack, db, app, engine):
    before = versions_by_id(db, engine)
    others_before = lab.table_versions(db) - sum(before.values())
    reply = send(registry.request(app, UPDATES, engine=engine))
    assert reply.status == 200, reply.body[:300]
    assert reply.headers["Content-Type"].lower().replace(" ", "") == "text/html;charset=utf-8"
    after = versions_by_id(db, engine)
    shown = {int(row[0]): int(row[-1]) for row in html_rows(reply.body, [*lab.COLUMN_NAMES, lab.VERSION_COLUMN])}
    raised = raised_since(before, after)
    assert len(shown) == 5 and set(raised) == set(shown) and set(raised.values()) == {1}, (shown, raised)
    assert shown == {player_id: after[player_id] for player_id in shown}, "a row shown without its raised version"
    assert judge_repeated(reply.status, reply.body, UPDATES,
                          lambda player_id: db_rows(db, engine, f"id = {int(player_id)}"))[0]
    assert lab.table_versions(db) - sum(after.values()) == others_before, "an updates request wrote the other table"


UPDATES_COUNT = "queries must be an integer from 1 to 20"
HOSTILE_UPDATES = [("queries=0", UPDATES_COUNT), ("queries=21", UPDATES_COUNT), ("queries=01", UPDATES_COUNT),
                   ("queries=1.5", UPDATES_COUNT), ("queries=-1", UPDATES_COUNT), ("queries=abc", UPDATES_COUNT),
                   ("queries=20%20OR%201%3D1", UPDATES_COUNT), ("queries=%EF%BF%BD", UPDATES_COUNT),
                   ("queries=" + LONG, UPDATES_COUNT), ("", UPDATES_COUNT), ("engine=innodb", UPDATES_COUNT),
                   ("queries=1%", UPDATES_COUNT), ("queries=1&queries=2", "parameter queries given more than once"),
                   ("queries=1&engine=memory", "engine must be myisam or innodb"),
                   ("queries=x&engine=memory", UPDATES_COUNT)]


@pytest.mark.parametrize("query,message", HOSTILE_UPDATES, ids=[case[0][:30] for case in HOSTILE_UPDATES])
@pytest.mark.parametrize("app", updating_apps())
def test_hostile_counts_and_engines_of_updates_get_the_contracts_400_and_write_nothing(stack, db, app, query, message):
    before = lab.table_versions(db)
    reply = post(app, query, UPDATES)
    if LONG in query:
        assert reply.status in (400, 414), reply.status  # refused by httpd or Tomcat before the app runs
    else:
        assert reply.status == 400 and message in reply.body, (reply.status, reply.body[:300])
    assert not [leak for leak in LEAKS if leak in reply.body] and "X-Powered-By" not in reply.headers
    assert lab.table_versions(db) == before


@pytest.mark.parametrize("app", updating_apps())
def test_the_updates_page_takes_post_alone(stack, db, app):
    before = lab.table_versions(db)
    base = registry.request(app, UPDATES)
    for method in ("GET", "HEAD", "PUT"):
        reply = fetch(base.port, base.path, method=method)
        assert reply.status == 405 and reply.headers["Allow"] == "POST", (method, reply.status)
    assert lab.table_versions(db) == before, "a refused method wrote"


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("app", ["php", "pooled-servlet", "go"])
def test_an_updates_httperf_step_raises_the_versions_by_exactly_its_count_a_reply(stack, db, tmp_path, app, engine):
    workload = "updates-20"
    request = registry.request(app, workload, engine=engine)
    session = tmp_path / "session.txt"
    session.write_text(httperf.session_file_text(request))
    before = versions_by_id(db, engine)
    completed = subprocess.run(httperf.command(request, 50, 200, 5, session), capture_output=True, text=True, timeout=60)
    figures = httperf.figures(completed.stdout)
    assert figures["status_2xx"] == figures["requests"] == 200, completed.stdout[-600:]
    raised = raised_since(before, versions_by_id(db, engine))
    # Each reply raised 20 rows once, exactly. Its draws spread over the table: 4,000 uniform draws of
    # 16,000 ids meet about 3,540 distinct rows (a row's draws are Poisson of mean 0.25; the chance that
    # any row is drawn 8 times is 6e-6), where draws from a few rows would meet far fewer.
    assert sum(raised.values()) == 20 * 200
    assert len(raised) > 3300 and max(raised.values()) < 8, (len(raised), max(raised.values()))
