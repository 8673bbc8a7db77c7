"""The registry resolves each app's workloads into concrete requests."""
import pytest

from stack import registry


def test_every_app_names_a_known_server_and_both_workloads():
    for name in registry.apps():
        app = registry.app(name)
        assert app["server"] in registry.REGISTRY["servers"], name
        assert set(app["workloads"]) == set(registry.REGISTRY["workloads"]), name
        assert (registry.ROOT / app.get("folder", name)).is_dir(), f"app {name} has no folder"


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


def test_app_traits_come_from_the_registry():
    assert {name: registry.app(name)["connections"] for name in registry.apps()} == {
        "php": "per-request", "php-persistent": "per-worker", "servlet": "per-request", "pooled-servlet": "pooled",
        "soap": "per-request"}
