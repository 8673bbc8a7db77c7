"""The registry of targets (contract/targets.json), resolved into concrete requests and traits.

The tests and the sweep read the apps through here (the plots read the snapshot each run's manifest
keeps), so a new app is one folder and one registry entry. What the workloads' names mean (rows-100,
echo-10) is stack/workload_names.py's.
"""
import random
from dataclasses import dataclass, field
from urllib.parse import quote
from xml.sax.saxutils import escape

from stack import echoes, settings, targets, topology
from stack.workload_names import ECHO_PARAMETER, declared_work, drawn, is_echo, is_write_place, mix, parse_workload


@dataclass(frozen=True)
class Request:
    method: str
    port: int
    path: str
    headers: dict = field(default_factory=dict)
    body: str = ""
    # The UPDATEs it owes the database (its workload's declared work): 0 for a read.
    updates: int = 0

    # Every app is served from the web host.
    host: str = field(default_factory=lambda: topology.current().address("web"))

    @property
    def url(self):
        return f"http://{self.host}:{self.port}{self.path}"


def default_set():
    """The set a sweep measures unless told otherwise, over sweep.json's rounds (any other set: other_set_rounds)."""
    return targets.registry()["default_set"]


def apps():
    """The lab's apps, those declared for a test alone (test_only) aside."""
    return [name for name, declared_app in targets.registry()["apps"].items() if "test_only" not in declared_app]


def test_only_apps():
    """The apps a test alone measures: the cheat the database-work check must catch."""
    return [name for name, declared_app in targets.registry()["apps"].items() if "test_only" in declared_app]


def sets():
    """The named selections of apps: the registry's, and `all` (every app)."""
    return {**targets.registry()["sets"], "all": apps()}


def set_members(name):
    try:
        return list(sets()[name])
    except KeyError:
        raise KeyError(f"unknown set {name!r}; the registry has {', '.join(sets())}") from None


def comparisons():
    """{set name: its table's title and what it asks}: the sets the report compares app by app."""
    return targets.registry()["comparisons"]


def declared(section, name):
    """One declaration of a registry section ("apps", "servers"); a KeyError naming what it has."""
    try:
        return targets.registry()[section][name]
    except KeyError:
        raise KeyError(f"unknown {section[:-1]} {name!r}; the registry has {', '.join(targets.registry()[section])}") from None


def app(name):
    return declared("apps", name)


def server_of(app_name):
    return app(app_name)["server"]


def app_servers(app_name):
    """The servers that serve the app's requests: its own and those it needs, the database's aside."""
    own = server_of(app_name)
    return [own, *(name for name in server(own).get("needs", ()) if name != database_server())]


# The engine of a cell whose app reads no database (a baseline): measured once, not per engine.
NO_ENGINE = "none"


def engines():
    """The twin tables' engines, in report order."""
    return list(targets.registry()["engines"])


def engine_title(engine):
    return "no database" if engine == NO_ENGINE else targets.registry()["engines"].get(engine, {}).get("title", engine)


def reads_database(app_name):
    return app(app_name)["kind"] != "baseline"


def engines_of(app_name, chosen):
    """The engines an app's cells run on, of those chosen: all of them, or none for a baseline
    (an echo workload has none either: cells_of)."""
    return tuple(chosen) if reads_database(app_name) else (NO_ENGINE,)


def database_work(app_name, workload):
    """{"selects": n, "rows": n, and each command the app declares a reply sends beside them}: what
    one reply of the app's workload must cost the database (workload_names.declared_work, and the
    app's `commands`, those it names in `statement_commands` once for each of the workload's
    statements, its SELECTs and UPDATEs); None for an app that reads none (a baseline) or a workload
    that reads none (an echo)."""
    work = declared_work(workload) if reads_database(app_name) else None
    if not work:
        return work
    declared = app(app_name)
    statements = work["selects"] + work["updates"]
    commands = {name: count * statements if name in declared.get("statement_commands", ()) else count
                for name, count in declared.get("commands", {}).items()}
    return {**work, **commands}


def workload_specs(app_name):
    """{workload: how to request it}: an HTML app's own; a SOAP app's are the shared envelopes
    (soap_requests) POSTed to its service."""
    spec = app(app_name)
    if spec["kind"] != "soap":
        return spec["workloads"]
    shared = targets.registry()["soap_requests"]
    return {workload: {"method": shared["method"], "path": spec["service"], "headers": shared["headers"],
                       "body": envelope} for workload, envelope in shared["envelopes"].items()}


def soap_max_element_depth():
    """The deepest envelope every SOAP engine parses; deeper ones are malformed (contract/README.md)."""
    return targets.registry()["soap_requests"]["max_element_depth"]


def serves(app_name, workload):
    """Whether the app answers the workload: its own, a mix when it answers both its workloads, or
    for a SOAP app the echo workloads too."""
    if is_echo(workload) and app(app_name)["kind"] == "soap":
        return True
    mixed = mix(workload)
    if mixed:
        return all(serves(app_name, each) for each in mixed[:2])
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
    return targets.registry()["servers"]


def server(name):
    return declared("servers", name)


# The database server: the one the db host runs (every app's rows, the sweep's verification).
def database_server():
    """The server on the db host: MariaDB."""
    return next(name for name, declared in servers().items() if declared["host"] == "db")


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


def server_knobs(name):
    """The knobs a server runs with whatever the lab's are: a variant's `knobs` (stack/variants.py)."""
    return dict(server(name).get("knobs", {}))


def serves_soap(name):
    """Whether any SOAP engine runs on the server (its requests' phases can be recorded: SOAP_PHASES)."""
    return any(app(each)["server"] == name and app(each)["kind"] == "soap" for each in apps())


def server_monitors(name):
    return list(server(name).get("monitors", ()))


def baselines_of(app_name):
    """{"constant": app, "static": app}: the references on the app's own server."""
    return dict(server(server_of(app_name)).get("baselines", {}))


def jit(app_name):
    """Whether the app's server compiles its code as it runs (a JVM): its cells warm until its
    compiler is quiet (harness/measure/jit.py)."""
    return server_jit(server_of(app_name))


def pool(name):
    """How a server's pool is watched (its declaration's `pool`: {"watch": "log" | "listen-backlog",
    "log": file under var/log, "what": the pool}), or None when it declares none."""
    return server(name).get("pool")


def pool_log(name):
    """The file where a server records its pool's use each second (a `pool` watched by "log")."""
    return settings.LOG / server(name)["pool"]["log"]


def server_jit(name):
    """Whether a server compiles its code as it runs (a JVM): a profile asks it for its perf map."""
    return server(name).get("jit", False)


def restarted_to_profile(name):
    """Whether `make profile` restarts the server with JIT_PROFILING=on: a JVM, for frame pointers in
    its compiled code, or a server whose JIT names its code for perf only then (`perf_map`: V8's)."""
    return server_jit(name) or server(name).get("perf_map", False)


def connection_cap(app_name):
    """(how many connections the app's server serves at once, what bounds them) when one worker holds
    one connection (prefork's processes, Tomcat's maxConnections, gSOAP's threads), else None: the
    connections beyond it wait in the kernel's backlog, a kept-alive one until a worker's connection
    ends."""
    cap = server(server_of(app_name)).get("connection_cap")
    return (settings.int_knob(cap["knob"]), f"{cap['what']} ({cap['knob']})") if cap else None


def declared_port(declared):
    """The TCP port a server's declaration gives it (its knob's, moved by its place when TOMCAT_LAYOUT
    split it: stack/layout.py); None for one reached on a Unix socket."""
    return settings.int_knob(declared["port_knob"]) + declared.get("port_offset", 0) if declared.get("port_knob") else None


def port_of(app_name):
    return declared_port(server(server_of(app_name)))


def fill(template, values, encode):
    for key, value in values.items():
        template = template.replace("{" + key + "}", encode(str(value)))
    return template


def echo_request(app_name, kind, count):
    """An echo workload's request: its envelope, written from the count (stack/echoes.py)."""
    shared = targets.registry()["soap_requests"]
    return Request(method=shared["method"], port=port_of(app_name), path=app(app_name)["service"],
                   headers=dict(shared["headers"]), body=echoes.envelope(kind, count))


def request(app_name, workload, **parameters):
    """The request an app's workload takes, with the registry's defaults for unnamed parameters; a
    mix's is its writes' (drawn_requests gives each of its requests)."""
    mixed = mix(workload)
    if mixed:
        return request(app_name, mixed[0], **parameters)
    base, fixed = parse_workload(workload)
    if is_echo(workload) and app(app_name)["kind"] == "soap":
        return echo_request(app_name, base, int(fixed.get(ECHO_PARAMETER, 0)))
    spec = workload_specs(app_name)[base]
    if is_echo(workload):  # an engine-less baseline: the same envelope, when it takes one
        spec = {**spec, "body": echoes.envelope(base, int(fixed.get(ECHO_PARAMETER, 0))) if spec["method"] == "POST" else ""}
    values = {**targets.registry()["defaults"], **fixed, **parameters}
    return Request(
        method=spec["method"],
        port=port_of(app_name),
        path=fill(spec["path"], values, lambda value: quote(value, safe="")),
        headers=dict(spec.get("headers", {})),
        body=fill(spec.get("body", ""), values, escape),
        updates=(declared_work(workload) or {}).get("updates", 0),
    )


def drawn_requests(app_name, workload, engine, seed):
    """The requests that a drawing workload sends in turn: its declaration's `drawn` parameter uniform
    over from..to, `draws` of them, by random.Random(seed), and for a mix its writes' request in its
    share of places (workload_names.is_write_place), its reads' in the others; () for a workload that
    draws none, whose every request is request()'s."""
    declared = drawn(workload)
    if not declared:
        return ()
    mixed = mix(workload)
    chooser = random.Random(seed)

    def at(place):
        taken = workload if not mixed else mixed[0] if is_write_place(place, mixed[2]) else mixed[1]
        return request(app_name, taken, engine=engine,
                       **{declared["parameter"]: chooser.randint(declared["from"], declared["to"])})
    return tuple(at(place) for place in range(declared["draws"]))


if __name__ == "__main__":
    # `python3 -m stack.registry packages [host]`: the servers' Debian packages, for stack/setup.sh.
    import sys
    if sys.argv[1:2] != ["packages"] or len(sys.argv) > 3:
        sys.exit("usage: python3 -m stack.registry packages [host]")
    print(" ".join(server_packages(sys.argv[2] if len(sys.argv) > 2 else None)))
