"""The registry of targets (contract/targets.json), resolved into concrete requests and traits.

The tests and the sweep read the apps through here (the plots read the snapshot each run's manifest
keeps), so a new app is one folder and one registry entry.
"""
import json
from dataclasses import dataclass, field
from urllib.parse import quote
from xml.sax.saxutils import escape

from stack import settings
from stack.settings import ROOT

REGISTRY_FILE = ROOT / "contract" / "targets.json"


@dataclass(frozen=True)
class Request:
    method: str
    port: int
    path: str
    headers: dict = field(default_factory=dict)
    body: str = ""

    host: str = settings.BIND_ADDRESS

    @property
    def url(self):
        return f"http://{self.host}:{self.port}{self.path}"


def load():
    return json.loads(REGISTRY_FILE.read_text())


REGISTRY = load()


DEFAULT_SET = "study"


def apps():
    return list(REGISTRY["apps"])


def sets():
    """The named selections of apps: the registry's, and `all` (every app)."""
    return {**REGISTRY["sets"], "all": apps()}


def set_members(name):
    try:
        return list(sets()[name])
    except KeyError:
        raise KeyError(f"unknown set {name!r}; the registry has {', '.join(sets())}") from None


def app(name):
    try:
        return REGISTRY["apps"][name]
    except KeyError:
        raise KeyError(f"unknown app {name!r}; the registry has {', '.join(apps())}") from None


def server_of(app_name):
    return app(app_name)["server"]


def jit(app_name):
    """Whether the app's server compiles its code as it runs (a JVM): its cells warm until its
    compiler is quiet (harness/jit.py)."""
    return REGISTRY["servers"][server_of(app_name)].get("jit", False)


def port_of(app_name):
    return settings.int_knob(REGISTRY["servers"][server_of(app_name)]["port_knob"])


def fill(template, values, encode):
    for key, value in values.items():
        template = template.replace("{" + key + "}", encode(str(value)))
    return template


def request(app_name, workload, **parameters):
    """The request an app's workload takes, with the registry's defaults for unnamed parameters."""
    spec = app(app_name)["workloads"][workload]
    values = {**REGISTRY["defaults"], **parameters}
    return Request(
        method=spec["method"],
        port=port_of(app_name),
        path=fill(spec["path"], values, lambda value: quote(value, safe="")),
        headers=dict(spec.get("headers", {})),
        body=fill(spec.get("body", ""), values, escape),
    )
