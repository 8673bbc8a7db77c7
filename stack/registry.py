"""The registry of targets (contract/targets.json), resolved into concrete requests and traits.

The tests and the sweep read the apps through here (the plots read the snapshot each run's manifest
keeps), so a new app is one folder and one registry entry.
"""
import json
from dataclasses import dataclass, field
from urllib.parse import quote
from xml.sax.saxutils import escape

from stack import echoes, settings, topology
from stack.settings import ROOT

REGISTRY_FILE = ROOT / "contract" / "targets.json"


@dataclass(frozen=True)
class Request:
    method: str
    port: int
    path: str
    headers: dict = field(default_factory=dict)
    body: str = ""

    # Every app is served from the web host.
    host: str = field(default_factory=lambda: topology.current().address("web"))

    @property
    def url(self):
        return f"http://{self.host}:{self.port}{self.path}"


def load():
    return json.loads(REGISTRY_FILE.read_text())


REGISTRY = load()


# The set a sweep measures unless told otherwise, over sweep.json's rounds (any other set: other_set_rounds).
DEFAULT_SET = REGISTRY["default_set"]


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


def comparisons():
    """{set name: its table's title and what it asks}: the sets the report compares app by app."""
    return REGISTRY["comparisons"]


def declared(section, name):
    """One declaration of a registry section ("apps", "servers"); a KeyError naming what it has."""
    try:
        return REGISTRY[section][name]
    except KeyError:
        raise KeyError(f"unknown {section[:-1]} {name!r}; the registry has {', '.join(REGISTRY[section])}") from None


def app(name):
    return declared("apps", name)


def server_of(app_name):
    return app(app_name)["server"]


# The engine of a cell whose app reads no database (a baseline): measured once, not per engine.
NO_ENGINE = "none"


def engines():
    """The twin tables' engines, in report order."""
    return list(REGISTRY["engines"])


def engine_title(engine):
    return "no database" if engine == NO_ENGINE else REGISTRY["engines"].get(engine, {}).get("title", engine)


def reads_database(app_name):
    return app(app_name)["kind"] != "baseline"


def engines_of(app_name, chosen):
    """The engines an app's cells run on, of those chosen: all of them, or none for a baseline
    (an echo workload has none either: cells_of)."""
    return tuple(chosen) if reads_database(app_name) else (NO_ENGINE,)


# The payload workload (the first N rows by id), outside the default workloads: the size sweep names
# its cells' workloads "rows-N", one per count.
SIZE_WORKLOAD = REGISTRY["size_workload"]
SIZE_PARAMETER = "count"


# The SOAP papers' workloads: "echo-10" sends 10 structs; "quote" takes no count.
ECHO_WORKLOADS = REGISTRY["echo_workloads"]
ECHO_PARAMETER = "items"
QUOTE_WORKLOAD = "quote"


def size_kinds():
    """The workloads a size sweep grows by N: the payload workload (rows), then the echoes that take
    a count."""
    return (SIZE_WORKLOAD, *[kind for kind, declared in ECHO_WORKLOADS.items() if "max_items" in declared])


def largest_count(kind):
    """The contract's cap on N for a kind of size_kinds (the apps refuse more)."""
    return REGISTRY["size_workload_max"] if kind == SIZE_WORKLOAD else ECHO_WORKLOADS[kind]["max_items"]


def sized(count, kind=SIZE_WORKLOAD):
    """The workload name of a kind of size_kinds at N: rows-100, echo-10."""
    return f"{kind}-{int(count)}"


def size_of(workload):
    """(kind, N) of a sized workload ("echo-10": ("echo", 10)); None for the others (quote too)."""
    base, fixed = parse_workload(workload)
    count = fixed.get(SIZE_PARAMETER) or fixed.get(ECHO_PARAMETER)
    return (base, int(count)) if count else None


def parse_workload(workload):
    """(the registry's workload, its fixed parameters): "rows-100" is ("rows", {"count": "100"}),
    "echo-10" ("echo", {"items": "10"})."""
    base, _, count = workload.partition("-")
    if base == SIZE_WORKLOAD and count.isdigit():
        return base, {SIZE_PARAMETER: count}
    if base in ECHO_WORKLOADS and base != QUOTE_WORKLOAD and count.isdigit() and int(count) > 0:
        return base, {ECHO_PARAMETER: count}
    return workload, {}


def is_echo(workload):
    base, fixed = parse_workload(workload)
    return base == QUOTE_WORKLOAD or ECHO_PARAMETER in fixed


def row_count(workload):
    """How many rows a sized workload asks for; None for the others."""
    count = parse_workload(workload)[1].get(SIZE_PARAMETER)
    return int(count) if count else None


def item_count(workload):
    """How many items an echo workload sends; None for the others (and quote)."""
    count = parse_workload(workload)[1].get(ECHO_PARAMETER)
    return int(count) if count else None


def is_workload(workload):
    base, fixed = parse_workload(workload)
    return base in REGISTRY["workloads"] or bool(fixed) or is_echo(workload)


def workloads():
    """The workloads every app answers, in report order (the payload workload's rows-N apart)."""
    return list(REGISTRY["workloads"])


def workload_title(workload, short=False):
    """How reports name a workload: its declaration's title (short_title when `short`), or for the
    payload workload its row count."""
    count = row_count(workload)
    if count is not None:
        return f"first {count:,} row{'s' if count > 1 else ''} by id"
    base, fixed = parse_workload(workload)
    if is_echo(workload):
        title = ECHO_WORKLOADS[base]["short_title" if short else "title"]
        return title.format(n=f"{int(fixed.get(ECHO_PARAMETER, 0)):,}")
    declared = REGISTRY["workloads"].get(workload, {})
    return declared.get("short_title" if short else "title", workload)


def selects(workload):
    """(column, operator, the defaults' parameter) of the rows a declared workload returns."""
    declared = REGISTRY["workloads"][workload]["selects"]
    return declared["column"], declared["operator"], declared["parameter"]


def baseline_workloads():
    """The workloads a baseline app serves (its server's constant-row page answers these only)."""
    return [workload for workload in workloads()
            if any(spec["kind"] == "baseline" and workload in spec["workloads"] for spec in REGISTRY["apps"].values())]


def workload_specs(app_name):
    """{workload: how to request it}: an HTML app's own; a SOAP app's are the shared envelopes
    (soap_requests) POSTed to its service."""
    spec = app(app_name)
    if spec["kind"] != "soap":
        return spec["workloads"]
    shared = REGISTRY["soap_requests"]
    return {workload: {"method": shared["method"], "path": spec["service"], "headers": shared["headers"],
                       "body": envelope} for workload, envelope in shared["envelopes"].items()}


def soap_max_element_depth():
    """The deepest envelope every SOAP engine parses; deeper ones are malformed (contract/README.md)."""
    return REGISTRY["soap_requests"]["max_element_depth"]


def serves(app_name, workload):
    """Whether the app answers the workload: its own, or for a SOAP app the echo workloads too."""
    if is_echo(workload) and app(app_name)["kind"] == "soap":
        return True
    return parse_workload(workload)[0] in workload_specs(app_name)


def workloads_of(app_name, chosen):
    """The chosen workloads the app serves (a baseline serves the single-row page only)."""
    return tuple(workload for workload in chosen if serves(app_name, workload))


def cells_of(app_name, engines_chosen, workloads_chosen):
    """[(engine, workload)] of an app's cells: each database workload on each engine chosen, then
    the engine-less ones (the echo workloads) once."""
    served = workloads_of(app_name, workloads_chosen)
    return ([(engine, workload) for engine in engines_of(app_name, engines_chosen)
             for workload in served if not is_echo(workload)]
            + [(NO_ENGINE, workload) for workload in served if is_echo(workload)])


def servers():
    """{name: declaration} of every lab server, in the order they start (each after those it needs)."""
    return REGISTRY["servers"]


def server(name):
    return declared("servers", name)


# The database server: the one the db host runs (every app's rows, the sweep's verification).
DATABASE_SERVER = next(name for name, declared in REGISTRY["servers"].items() if declared["host"] == "db")


def server_title(name):
    """How reports name a server (its name when the registry has none)."""
    return servers().get(name, {}).get("title", name)


def servers_on(host=None):
    """The servers of one host, in the order they start (every server when host is None)."""
    return [name for name, declared in servers().items() if host is None or declared["host"] == host]


def server_packages(host=None):
    """The Debian packages the servers of one host (of every host when None) run on, each once."""
    return list(dict.fromkeys(package for name in servers_on(host) for package in server(name).get("packages", ())))


def shipped_with(host):
    """(project files, files under var/) a remote host's servers need, each once, in order; a path's
    {KNOB}s are the knobs' values."""
    knobs = settings.knobs()

    def paths(field):
        return list(dict.fromkeys(fill(path, knobs, str) for name in servers_on(host)
                                  for path in server(name).get(field, ())))
    return paths("ships"), paths("ships_var")


def db_connection_knobs():
    """The knobs whose sum is how many MariaDB connections the servers may hold (a knob twice is
    counted twice: the pooled servlet's pool and gSOAP's each hold POOL_SIZE)."""
    return [knob for declared in servers().values() for knob in declared.get("db_connections", ())]


def server_monitors(name):
    return list(server(name).get("monitors", ()))


def baselines_of(app_name):
    """{"constant": app, "static": app}: the references on the app's own server."""
    return dict(server(server_of(app_name)).get("baselines", {}))


def jit(app_name):
    """Whether the app's server compiles its code as it runs (a JVM): its cells warm until its
    compiler is quiet (harness/measure/jit.py)."""
    return server(server_of(app_name)).get("jit", False)


def port_of(app_name):
    return settings.int_knob(server(server_of(app_name))["port_knob"])


def fill(template, values, encode):
    for key, value in values.items():
        template = template.replace("{" + key + "}", encode(str(value)))
    return template


def echo_request(app_name, kind, count):
    """An echo workload's request: its envelope, written from the count (stack/echoes.py)."""
    shared = REGISTRY["soap_requests"]
    return Request(method=shared["method"], port=port_of(app_name), path=app(app_name)["service"],
                   headers=dict(shared["headers"]), body=echoes.envelope(kind, count))


def request(app_name, workload, **parameters):
    """The request an app's workload takes, with the registry's defaults for unnamed parameters."""
    base, fixed = parse_workload(workload)
    if is_echo(workload) and app(app_name)["kind"] == "soap":
        return echo_request(app_name, base, int(fixed.get(ECHO_PARAMETER, 0)))
    spec = workload_specs(app_name)[base]
    if is_echo(workload):  # an engine-less baseline: the same envelope, when it takes one
        spec = {**spec, "body": echoes.envelope(base, int(fixed.get(ECHO_PARAMETER, 0))) if spec["method"] == "POST" else ""}
    values = {**REGISTRY["defaults"], **fixed, **parameters}
    return Request(
        method=spec["method"],
        port=port_of(app_name),
        path=fill(spec["path"], values, lambda value: quote(value, safe="")),
        headers=dict(spec.get("headers", {})),
        body=fill(spec.get("body", ""), values, escape),
    )


if __name__ == "__main__":
    # `python3 -m stack.registry packages [host]`: the servers' Debian packages, for stack/setup.sh.
    import sys
    if sys.argv[1:2] != ["packages"] or len(sys.argv) > 3:
        sys.exit("usage: python3 -m stack.registry packages [host]")
    print(" ".join(server_packages(sys.argv[2] if len(sys.argv) > 2 else None)))
