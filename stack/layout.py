"""How apps share their server: TOMCAT_LAYOUT=shared (the default) deploys every Java app in the one
Tomcat its declaration describes, as the 2006 study ran its servlets and Axis; per-app gives each
app's web application a Tomcat of its own (its own JVM, port, heap, GC log and pool record), so that
what a JVM holds and collects is one app's.

A server declares that it can be split with `layout` ({"knob", "port_step"}); with the knob set to
per-app, the registry holds, in its place, one server per web application its apps are served
from (the first segment of their paths: tomcat-servlet, tomcat-soap-cxf, ...), each a copy of its
declaration on the knob's port + its own port_offset + port_step x its place, and every app names its
own. Pure: the registry's declarations in, the laid-out declarations out."""
import copy

LAYOUTS = ("shared", "per-app")


def context_of(declared_app):
    """The web application an app is served from: the first segment of its requests' path."""
    path = declared_app.get("service") or next(iter(declared_app["workloads"].values()))["path"]
    return path.lstrip("/").split("/", 1)[0]


def split_server(name, declared, contexts):
    """{server name: declaration} of each web application's own server, in the order given."""
    servers = {}
    for place, context in enumerate(contexts, start=1):
        own = copy.deepcopy({key: value for key, value in declared.items() if key != "layout"})
        own.update(title=f"{declared.get('title', name)} ({context})", contexts=[context], split_from=name,
                   port_offset=declared.get("port_offset", 0) + declared["layout"]["port_step"] * place)
        if "pool" in own:  # each JVM its own record of its pool
            own["pool"]["log"] = f"{name}-{context}-{own['pool']['log']}"
        servers[f"{name}-{context}"] = own
    return servers


def laid_out(registry, knob):
    """The registry with every server that declares a `layout` laid out by its knob's value (knob:
    a function from a knob's name to its value)."""
    split = {name for name, declared in registry["servers"].items()
             if "layout" in declared and knob(declared["layout"]["knob"]) == "per-app"}
    for name, declared in registry["servers"].items():
        if "layout" in declared and knob(declared["layout"]["knob"]) not in LAYOUTS:
            raise ValueError(f"{declared['layout']['knob']} must be one of {', '.join(LAYOUTS)}, "
                             f"got {knob(declared['layout']['knob'])!r}")
    if not split:
        return registry
    result = copy.deepcopy(registry)
    servers = {}
    for name, declared in registry["servers"].items():
        if name not in split:
            servers[name] = declared
            continue
        served = [app for app, declared_app in result["apps"].items() if declared_app["server"] == name]
        contexts = list(dict.fromkeys(context_of(result["apps"][app]) for app in served))
        servers.update(split_server(name, declared, contexts))
        for app in served:
            result["apps"][app]["server"] = f"{name}-{context_of(result['apps'][app])}"
    result["servers"] = servers
    return result


def every_layouts_servers(registry):
    """{name: declaration} of the servers of every layout: what `make down` may find running."""
    return {name: declared for layout in LAYOUTS
            for name, declared in laid_out(registry, lambda knob, layout=layout: layout)["servers"].items()}
