"""Start, check and stop the lab's private servers: MariaDB, Apache httpd + mod_php, PHP-FPM behind
its own Apache and behind Lighttpd, Tomcat 9 and the gSOAP server, each built from its declaration
in the registry and the behaviour its `class` names (stack/servers.py, stack/php_servers.py,
stack/runtime_servers.py).

All state lives under var/.  `make up`, `make down` and the sweep's recovery all go through here.
"""
import functools

from stack import cgroup, php_servers, registry, runtime_servers, servers, settings, targets, topology
from stack.database_access import write_app_config
from stack.layout import every_layouts_servers
from stack.server import LabError, Server
from stack.settings import VAR
from stack.variants import resolved


def behaviours(kind=Server):
    """{class name: class} of every server behaviour (BEHAVIOUR_MODULES): what a declaration's `class` may name."""
    return {sub.__name__: sub for each in kind.__subclasses__() for sub in (each, *behaviours(each).values())}


# The modules that define the behaviours: a declaration's `class` names one of their classes.
BEHAVIOUR_MODULES = (servers, php_servers, runtime_servers)
CLASSES = behaviours(Server)


def declared_servers():
    """{name: server} of every server the registry declares, in the order they start."""
    unknown = {declared["class"] for declared in registry.servers().values()} - set(CLASSES)
    if unknown:
        raise LabError(f"contract/targets.json: servers declared with class {', '.join(sorted(unknown))}; "
                       f"{', '.join(module.__name__.replace('.', '/') + '.py' for module in BEHAVIOUR_MODULES)} "
                       f"define {', '.join(CLASSES)}")
    return {name: CLASSES[declared["class"]](name) for name, declared in registry.servers().items()}


@functools.cache
def lab_servers():
    """{name: server} of the registry's servers, built on first use (the knobs as they are then), in
    the order they start (each after the servers it needs); they stop in the reverse."""
    return declared_servers()


def strays():
    """The servers of another layout (TOMCAT_LAYOUT) that are running: `up` refuses to start beside
    them, `down` stops them too."""
    others = {name: declared for name, declared in every_layouts_servers(resolved(targets.declared())).items()
              if name not in lab_servers()}
    return [server for server in (CLASSES[declared["class"]](name, declared) for name, declared in others.items())
            if server.pid()]


def with_needs(name):
    """A server and the servers it needs, in the order they start."""
    return [*lab_servers()[name].needs, name]


# The knob naming each host's CPUs.
CPU_KNOBS = {"client": "CLIENT_CPUS", "web": "SERVER_CPUS", "db": "DB_CPUS"}


def host_cpus():
    """The CPUs each host runs on: the client's, the web servers', the database's (on 2 cores the
    web and db hosts share one)."""
    return {host: settings.knob(knob) for host, knob in CPU_KNOBS.items()}


def server_cpus(name):
    """The CPUs a server runs on, its host's (None: not pinned)."""
    return settings.cpus(CPU_KNOBS[lab_servers()[name].host])


def chosen(names=(), host=None):
    """The servers to start, in order: the named ones with the servers they need (every server when
    none is named); only those of `host` when one is given."""
    unknown = [name for name in names if name not in lab_servers()]
    if unknown:
        raise LabError(f"up: no server {', '.join(unknown)}; the lab has {', '.join(lab_servers())}")
    wanted = {need for name in names for need in with_needs(name)} if names else set(lab_servers())
    return [name for name in lab_servers() if name in wanted and (not host or lab_servers()[name].host == host)]


def up(only=(), pinned=False):
    """Build the topology's namespaces (TOPOLOGY=netns), then start the servers in order (those
    named in `only` and the servers they need, or all), each on its host's CPUs when pinned. On one
    host of TOPOLOGY=ssh: that host's."""
    running = strays()
    if running:
        raise LabError(f"up: {', '.join(server.name for server in running)} of another TOMCAT_LAYOUT still "
                       f"running; `make down` stops them first")
    notes = [topology.create(topology.current(), host_cpus())]
    cgroup.limit_memory(settings.servers_memory_mb())
    write_app_config()
    names = chosen(only, settings.knob("LAB_ON_HOST"))
    return [note for note in notes if note] + [lab_servers()[name].start(server_cpus(name) if pinned else None)
                                                    for name in names]


def down():
    """Stop every server (on one host of TOPOLOGY=ssh: that host's), then remove the servers' cgroup
    and the lab's namespaces (whichever TOPOLOGY is asked now: the namespaces of an earlier netns
    run go too)."""
    notes = [server.stop() + " (of another TOMCAT_LAYOUT)" for server in strays()]
    notes += [lab_servers()[name].stop() for name in reversed(chosen(host=settings.knob("LAB_ON_HOST")))]
    cgroup.remove()
    every_namespace = topology.Topology("netns", "", topology.prefix_for(VAR))
    return notes + [note for note in [topology.remove(every_namespace)] if note]


def restart(name, cpus=None):
    server = lab_servers()[name]
    server.stop()
    return server.start(cpus)
