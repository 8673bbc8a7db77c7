"""TOMCAT_LAYOUT (stack/layout.py) on the registry's own declarations: shared leaves them as they are;
per-app gives each Java web application a Tomcat of its own, and every app names it."""
import json

import pytest

from stack.layout import context_of, every_layouts_servers, laid_out
from stack.targets import TARGETS_FILE

DECLARED = json.loads(TARGETS_FILE.read_text())


def knobs(**values):
    return lambda name: values.get(name, "shared")


def test_shared_is_the_registry_as_declared():
    assert laid_out(DECLARED, knobs()) == DECLARED


def test_per_app_gives_each_web_application_a_tomcat_of_its_own_on_its_own_port():
    registry = laid_out(DECLARED, knobs(TOMCAT_LAYOUT="per-app"))
    java_apps = [app for app, declared in DECLARED["apps"].items() if declared["server"] == "tomcat"]
    assert "tomcat" not in registry["servers"]
    # The four baselines share one WAR, so one JVM; every other Java app has its own.
    assert {registry["apps"][app]["server"] for app in java_apps} == {
        "tomcat-servlet", "tomcat-pooled-servlet", "tomcat-soap", "tomcat-soap-cxf", "tomcat-soap-axis2",
        "tomcat-baseline"}
    assert registry["apps"]["constant-servlet"]["server"] == registry["apps"]["static-quote-tomcat"]["server"] \
        == "tomcat-baseline"
    split = {name: declared for name, declared in registry["servers"].items() if declared.get("split_from")}
    offsets = [declared["port_offset"] for declared in split.values()]
    assert len(set(offsets)) == len(offsets) == 6 and all(offset % 100 == 0 for offset in offsets)
    for name, declared in split.items():
        assert declared["contexts"] == [name.removeprefix("tomcat-")] and "layout" not in declared
        assert declared["pool"]["log"] == f"{name}-pool-wait.tsv"  # each JVM records its own pool
        assert declared["class"] == "Tomcat" and declared["needs"] == ["mariadb"]
    # The other servers, and the declarations read from, are untouched.
    assert registry["servers"]["apache"] == DECLARED["servers"]["apache"]
    assert DECLARED["apps"]["servlet"]["server"] == "tomcat" and "tomcat" in DECLARED["servers"]


def test_an_apps_web_application_is_the_first_segment_of_its_path():
    assert context_of(DECLARED["apps"]["soap-cxf"]) == "soap-cxf"
    assert context_of(DECLARED["apps"]["servlet"]) == "servlet"
    assert context_of(DECLARED["apps"]["constant-servlet"]) == "baseline"


def test_a_layout_the_lab_does_not_know_is_refused_by_name():
    with pytest.raises(ValueError, match="TOMCAT_LAYOUT must be one of shared, per-app, got 'split'"):
        laid_out(DECLARED, knobs(TOMCAT_LAYOUT="split"))


def test_down_knows_the_servers_of_every_layout():
    # `make down` in one layout stops a Tomcat the other started (stack/lifecycle.strays).
    names = set(every_layouts_servers(DECLARED))
    assert {"tomcat", "tomcat-servlet", "tomcat-soap-axis2", "tomcat-baseline", "apache", "mariadb"} <= names
