"""The registry resolves each app's workloads into concrete requests."""
import pytest

from stack import registry, targets, workload_names
from stack.settings import ROOT


def test_every_app_names_a_known_server_and_its_workloads():
    for name in registry.apps():
        app = registry.app(name)
        assert app["server"] in targets.registry()["servers"], name
        expected = ({"quote"} if name in registry.set_members("soap-baselines") else {"single"}
                    if app["kind"] == "baseline" else {*workload_names.workloads(), workload_names.size_workload()})
        served = set(registry.workload_specs(name))
        # Every app answers the reads; the write workloads, those that declare them, by POST.
        assert expected <= served and served - expected <= set(workload_names.write_workloads()), name
        assert all(registry.workload_specs(name)[write]["method"] == "POST" for write in served - expected), name
        assert (ROOT / app.get("folder", name)).is_dir(), f"app {name} has no folder"


def declared_as(server):
    """The declaration a server was made from: before its layout split it, and before it was a variant."""
    declared = targets.registry()["servers"][server]
    return declared.get("variant_of", declared.get("split_from", server))


def test_every_server_of_html_apps_names_its_two_baselines_and_they_are_its_own():
    page_servers = {registry.server_of(app) for app in registry.apps() if registry.app(app)["kind"] == "html"}
    assert page_servers < set(targets.registry()["servers"]), "a server that serves no pages (gSOAP) has none"
    for server, spec in targets.registry()["servers"].items():
        if server not in page_servers:
            continue
        references = spec["baselines"]
        assert set(references) == {"constant", "static"}, server
        for app in references.values():  # its own server, or, laid out a JVM per app, the same declaration's
            assert registry.app(app)["kind"] == "baseline" and declared_as(registry.server_of(app)) == declared_as(server), app
    assert registry.baselines_of("php-fpm") == {"constant": "constant-php-fpm", "static": "static-apache-fpm"}


def test_baselines_run_once_without_an_engine_and_only_the_single_row_page():
    chosen = ("myisam", "innodb")
    assert registry.engines_of("php", chosen) == chosen
    assert registry.engines_of("constant-servlet", chosen) == (registry.NO_ENGINE,)
    assert registry.workloads_of("static-apache", ("single", "large")) == ("single",)
    assert registry.workloads_of("soap", ("large",)) == ("large",)
    assert not registry.reads_database("static-tomcat") and registry.reads_database("php-fpm")


def test_the_sets_the_issue_names():
    sets = registry.sets()
    assert sets["study"] == ["php", "servlet", "pooled-servlet", "soap"]
    assert sets["pooling"] == ["php", "php-persistent", "php-fpm", "pooled-servlet"]
    assert sorted(sets["baselines"] + sets["soap-baselines"]) == sorted(
        app for app in registry.apps() if registry.app(app)["kind"] == "baseline")
    assert sets["all"] == registry.apps()
    # Today's variants run beside their originals, so that one run sets each setting against the other.
    assert {"pooled-servlet-java25-platform", "servlet-java25-platform", "php-fpm-jit"} <= set(sets["today"])
    assert all(registry.app(app).get("variant_of", app) in sets["today"] for app in sets["today"])


def test_path_parameters_are_percent_encoded():
    request = registry.request("php", "large", name="O'B%_ x&y", engine="innodb")
    assert request.method == "GET"
    assert request.path == "/large.php?name=O%27B%25_%20x%26y&engine=innodb"


def test_defaults_fill_unnamed_parameters(monkeypatch):
    monkeypatch.setenv("APACHE_PORT", "9123")
    request = registry.request("php", "single")
    assert request.url == "http://127.0.0.1:9123/single.php?id=100&engine=myisam"


def test_xml_bodies_are_escaped():
    assert registry.fill("<n>{name}</n>", {"name": "<&>"}, registry.escape) == "<n>&lt;&amp;&gt;</n>"


def test_unknown_app_is_a_clear_error():
    with pytest.raises(KeyError, match="unknown app 'cobol'"):
        registry.app("cobol")


def test_every_app_that_reads_the_database_says_how_it_holds_its_connections():
    """The vocabulary of contract/targets.json's about, and what each word asks of the app's servers: a
    pooled app's logs its pool, a per-worker app's count their workers' connections."""
    for name in [app for app in registry.apps() if registry.reads_database(app)]:
        held = registry.app(name)["connections"]
        servers = [registry.server(server) for server in registry.app_servers(name)]
        assert held in ("per-request", "per-worker", "pooled"), name
        if held == "pooled":
            assert any(server.get("pool", {}).get("watch") == "log" for server in servers), name
        if held != "per-request":
            assert any(server.get("db_connections") for server in servers), name
    # The study's four, as the study built them (002): a new connection per request but the pooled servlet's.
    assert [registry.app(name)["connections"] for name in registry.set_members("study")] == [
        "per-request", "per-request", "pooled", "per-request"]


def test_every_soap_app_posts_the_shared_envelopes_to_its_own_service():
    soap_apps = [name for name in registry.apps() if registry.app(name)["kind"] == "soap"]
    assert soap_apps == registry.sets()["soap"]
    for name in soap_apps:
        service = registry.app(name)["service"]
        assert registry.app(name)["wsdl"] == service + "?wsdl"
        for workload in ("single", "large", "rows-10"):
            request = registry.request(name, workload, engine="innodb")
            assert (request.method, request.path) == ("POST", service)
            assert request.body == registry.request("soap", workload, engine="innodb").body
            assert request.headers["SOAPAction"] == '""'
    assert "<lab:getPlayer><lab:id>7</lab:id>" in registry.request("soap-php", "single", id=7).body


def test_a_sized_workload_is_the_payload_workload_at_a_fixed_count():
    assert workload_names.sized(1000) == "rows-1000"
    assert workload_names.parse_workload("rows-1000") == ("rows", {"count": "1000"})
    assert workload_names.parse_workload("large") == ("large", {})
    assert [workload_names.row_count(name) for name in ("rows-16000", "single", "rows-x")] == [16000, None, None]
    assert workload_names.is_workload("rows-10") and workload_names.is_workload("single")
    assert not workload_names.is_workload("rows") and not workload_names.is_workload("rows-") and not workload_names.is_workload("huge")
    assert registry.request("servlet", "rows-10", engine="innodb").path == "/servlet/rows?count=10&engine=innodb"
    assert "<lab:count>16000</lab:count>" in registry.request("soap", "rows-16000").body
    assert registry.workloads_of("php", ("rows-1", "single")) == ("rows-1", "single")
    assert registry.workloads_of("static-apache", ("rows-1", "single")) == ("single",)


def drawn_paths(*arguments):
    return tuple(each.path for each in registry.drawn_requests(*arguments))


def test_the_update_workload_draws_its_ids_uniformly_by_the_seed_and_the_reads_draw_none():
    paths = drawn_paths("php", "update", "innodb", "php-innodb-update round 1")
    assert paths == drawn_paths("php", "update", "innodb", "php-innodb-update round 1")
    assert paths != drawn_paths("php", "update", "innodb", "php-innodb-update round 2")
    ids = [int(path.split("id=")[1].split("&")[0]) for path in paths]
    assert len(ids) == 16000 and min(ids) >= 1 and max(ids) <= 16000
    assert all(path == f"/update.php?id={player_id}&engine=innodb" for path, player_id in zip(paths, ids))
    # 16 bins of 1,000 ids hold 1,000 draws each, give or take 5 standard deviations (about 31 each).
    bins = [sum(1 for player_id in ids if (player_id - 1) // 1000 == place) for place in range(16)]
    assert all(abs(count - 1000) < 160 for count in bins), bins
    assert drawn_paths("php", "single", "innodb", "x") == ()
    assert drawn_paths("servlet", "update", "myisam", "x")[0].startswith("/servlet/update?id=")


def id_of(request):
    return request.path.split("id=")[1].split("&")[0]


def test_a_mix_spreads_its_share_of_writes_evenly_among_reads_each_on_a_drawn_id():
    drawn = registry.drawn_requests("servlet", "mixed-10", "innodb", "round 1")
    writes = [place for place, each in enumerate(drawn) if each.updates]
    assert len(drawn) == 16000 and len(writes) == 1600 and writes[:3] == [9, 19, 29]
    assert {drawn[place].method for place in writes} == {"POST"} and drawn[9].path.startswith("/servlet/update?id=")
    assert {each.path.split("?")[0] for place, each in enumerate(drawn) if place not in set(writes)} == {"/servlet/single"}
    # Any run of 1,000 requests, wherever a client starts, holds 100 writes.
    assert all(sum(each.updates for each in (drawn + drawn)[start:start + 1000]) == 100 for start in range(0, 16000, 777))
    assert len({each.path.split("id=")[1] for each in drawn}) > 10000  # reads draw their ids too
    assert registry.request("servlet", "mixed-10") == registry.request("servlet", "update")
    assert registry.serves("php", "mixed-10") and registry.serves("soap", "mixed-10")
    # A SOAP engine's drawn requests are envelopes, each naming its drawn id, to the one service.
    enveloped = registry.drawn_requests("soap", "mixed-10", "innodb", "round 1")
    assert [each.body.count(f"<lab:id>{id_of(plain)}</lab:id>") for each, plain in zip(enveloped[8:10], drawn[8:10])] == [1, 1]
    assert "<lab:updatePlayer>" in enveloped[9].body and "<lab:getPlayer>" in enveloped[8].body
    assert not registry.serves("rust-no-acquire-ping", "mixed-10") and registry.serves("rust", "mixed-10")
    assert [each.updates for each in registry.drawn_requests("php", "mixed-100", "innodb", "x")[:3]] == [1, 1, 1]


def test_a_mixs_name_carries_its_share_and_its_work_is_its_workloads_in_that_share():
    assert workload_names.parse_workload("mixed-10") == ("mixed", {"share": "10"})
    assert workload_names.mix("mixed-010") == ("update", "single", 10)
    assert [workload_names.is_workload(name) for name in ("mixed-0", "mixed-100", "mixed", "mixed-101", "mixed-x")] == [
        True, True, False, False, False]
    assert workload_names.writes("mixed-0") and workload_names.drawn("mixed-50")["draws"] == 16000
    assert workload_names.declared_work("mixed-10") == {"selects": 1, "rows": 1.1, "updates": 0.1, "rows_changed": 0.1}
    assert workload_names.workload_title("mixed-10", short=True) == "10 % updates"
    assert workload_names.selects("mixed-10") == workload_names.selects("update")
    assert "mixed-P" in workload_names.write_workload_names()
    # Go's execute is once a statement: 1.1 of them a reply.
    assert registry.database_work("go", "mixed-10")["executes"] == pytest.approx(1.1)


def test_a_repeating_workloads_name_carries_its_count_and_it_owes_its_work_that_many_times():
    assert workload_names.parse_workload("updates-020") == ("updates", {"queries": "20"})
    assert [workload_names.is_workload(name) for name in ("updates-1", "updates-20", "updates", "updates-0",
                                                          "updates-21", "updates-x")] == [True, True, False, False, False, False]
    assert workload_names.repetitions("updates-20") == 20 and workload_names.repetitions("update") is None
    assert workload_names.declared_work("updates-20") == {"selects": 20, "rows": 40, "updates": 20, "rows_changed": 20}
    assert workload_names.writes("updates-5") and workload_names.drawn("updates-5") is None
    # Its count is no row count: its cells are no size sweep's.
    assert workload_names.size_of("updates-5") is None and workload_names.row_count("updates-5") is None
    assert workload_names.workload_title("updates-20", short=True) == "20 updates"
    assert "updates-N" in workload_names.write_workload_names()
    request = registry.request("servlet", "updates-20", engine="innodb")
    assert (request.method, request.path, request.updates) == ("POST", "/servlet/updates?queries=20&engine=innodb", 20)
    # Go executes each of its 40 statements; sqlx pings twice, on the one connection each reply takes.
    assert (registry.database_work("go", "updates-20")["executes"], registry.database_work("rust", "updates-20")["pings"]) == (40, 2)
    assert registry.serves("node", "updates-20") and not registry.serves("soap", "updates-20")


def test_the_commands_an_app_sends_per_statement_count_twice_for_the_updates_two_statements():
    # Go's prepared statement is executed once per statement, sqlx's pings once per connection taken.
    assert registry.database_work("go", "single")["executes"] == 1
    assert registry.database_work("go", "update")["executes"] == 2
    assert registry.database_work("go-interpolate", "update")["executes"] == 0
    assert registry.database_work("rust", "update")["executes"] == 2
    assert registry.database_work("rust", "update")["pings"] == registry.database_work("rust", "single")["pings"] == 2
    assert registry.database_work("php", "update")["connections"] == 1
    assert registry.database_work("go", "large")["executes"] == 1
