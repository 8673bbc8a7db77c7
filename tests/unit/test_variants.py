"""Variants (stack/variants.py): a declaration copied from another with a few keys of its own, on the
registry's own declarations and on small ones."""
import json

import pytest

from stack.layout import every_layouts_servers, laid_out
from stack.registry import declared_port
from stack.targets import TARGETS_FILE
from stack.variants import resolved

DECLARED = json.loads(TARGETS_FILE.read_text())


def test_a_variant_is_its_original_with_its_own_keys_over_it_and_null_leaves_a_key_out():
    registry = {"servers": {"web": {"class": "Tomcat", "port_knob": "P", "monitors": ["jvm"], "pool": {"log": "p"}},
                            "web-b": {"variant_of": "web", "knobs": {"VTHREADS": "0"}, "pool": None}},
                "apps": {"page": {"server": "web", "workloads": {"single": {"path": "/page"}}},
                         "page-b": {"variant_of": "page", "server": "web-b"}}}
    result = resolved(registry)
    assert result["servers"]["web-b"] == {"class": "Tomcat", "port_knob": "P", "monitors": ["jvm"],
                                          "variant_of": "web", "knobs": {"VTHREADS": "0"}}
    assert result["apps"]["page-b"] == {"server": "web-b", "workloads": {"single": {"path": "/page"}},
                                        "variant_of": "page", "folder": "page"}  # its original's code
    result["servers"]["web-b"]["monitors"].append("pool")  # a copy: the original is untouched
    assert registry["servers"]["web"]["monitors"] == ["jvm"] and "variant_of" not in result["servers"]["web"]


@pytest.mark.parametrize("original", ["nowhere", "web-b"])
def test_a_variant_of_something_undeclared_or_of_a_variant_is_refused_by_name(original):
    registry = {"servers": {"web": {}, "web-b": {"variant_of": "web"}, "web-c": {"variant_of": original}}, "apps": {}}
    with pytest.raises(ValueError, match=f"servers web-c: variant_of '{original}'"):
        resolved(registry)


def test_todays_variants_run_beside_their_originals_on_ports_of_their_own_laid_out_alike():
    knobs = {"TOMCAT11_LAYOUT": "per-app"}
    registry = laid_out(resolved(DECLARED), lambda name: knobs.get(name, "shared"))
    servers, apps = registry["servers"], registry["apps"]
    platform = servers[apps["pooled-servlet-java25-platform"]["server"]]
    virtual = servers[apps["pooled-servlet-java25"]["server"]]
    assert platform["knobs"] == {"VTHREADS": "0"} and "knobs" not in virtual
    assert platform["port_offset"] == virtual["port_offset"] + 1000
    assert platform["pool"]["log"] != virtual["pool"]["log"]  # each JVM records its own pool
    assert apps["pooled-servlet-java25-platform"]["workloads"] == apps["pooled-servlet-java25"]["workloads"]
    assert servers["php-fpm-jit"]["knobs"] == {"PHP_JIT": "tracing"}
    assert servers[apps["php-fpm-jit"]["server"]]["fastcgi"] == "php-fpm-jit"
    assert servers["go-interpolate"]["knobs"] == {"GO_INTERPOLATE_PARAMS": "true"}
    assert servers["go-interpolate"]["pool"]["log"] != servers["go"]["pool"]["log"]
    ports = [declared_port(declared) for declared in servers.values() if declared.get("port_knob")]
    assert len(set(ports)) == len(ports), "every server on a port of its own"


def test_down_knows_the_variants_servers_of_every_layout():
    names = set(every_layouts_servers(resolved(DECLARED)))
    assert {"tomcat11-platform", "tomcat11-platform-servlet-java25", "apache-fpm-jit", "php-fpm-jit",
            "go-interpolate"} <= names
