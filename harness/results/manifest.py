"""manifest.json: what a run was, so that every figure can be traced and repeated. Its schema is
written once, here; the sweep writes it and the report reads it through `Manifest`."""
import json
from dataclasses import dataclass
from pathlib import Path

from harness.results import kinds
from stack.registry import NO_ENGINE, comparisons as registry_comparisons, engine_title as registry_engine_title
from stack.settings import DEFAULTS, cpu_numbers

# 1: runs before the format had an owner (no format_version, no round, no servers); 2: no kind, told by
# the run's files (harness/results/kinds.py); 3: this one.
FORMAT_VERSION = 3

SCHEMA = {
    "format_version": "the version of this results format",
    "kind": "what the run is: sweep or concurrency (harness/results/kinds.py), read by the summary, the report, "
            "make compare and the index",
    "run_id": "the run's folder name under results/",
    "started": "UTC time the run (or its first invocation) started",
    "finished": "UTC time it finished; absent while unfinished",
    "options": "the sweep's options: selection, plan, step length, presets applied, thresholds",
    "plan": "the adaptive plan's factors and shares (sweep.json's plan)",
    "profiles": "per workload: start rate, httperf timeout, linear plan, probe concurrency",
    "size_sweep": "the size sweep's counts, set, engines and rounds, and where the large profile begins",
    "settings": "every knob of stack/settings.py as used (ports, workers, threads, heap, pool, CPUs)",
    "servers": "per server: the address and port it was bound to (endpoint: or its Unix socket)",
    "pinning": "CPU lists of the load generator and the servers (taskset)",
    "topology": "where the hosts lived (loopback, network namespaces or machines over ssh), each host's address, "
                "the links' rate; over ssh each host's versions and machine",
    "versions": "every component's version",
    "host": "cores, memory, CPU model, kernel TCP settings",
    "git": "commit and whether the tree had uncommitted changes",
    "registry": "the registry of targets as used (apps, titles, requests)",
    "quiet_check": "before any load: what else used the lab's CPUs over its seconds (quiet_check_s; see harness/judge/disturbance.py)",
    "added_rounds": "ROUNDS=auto: per cell its rounds in all (Stein's procedure) and its first rounds' spread, and "
                    "whether the time cap stopped the added rounds; null without ROUNDS=auto",
    "concurrency": "make concurrency-sweep's settings (sweep.json crosscheck.concurrency and its ladder); null for a "
                   "saturation sweep",
}


def servers_pinning_text(server_cpus, db_cpus=None):
    """Where the servers ran, in words: "servers on CPUs 1", or the web servers' and the database's
    CPUs when they differ."""
    if db_cpus in (None, server_cpus):
        return f"servers on CPUs {server_cpus}"
    return f"web servers on CPUs {server_cpus}, the database on {db_cpus}"


@dataclass
class Manifest:
    data: dict

    @classmethod
    def read(cls, path):
        return cls(json.loads(Path(path).read_text()))

    @classmethod
    def of_registry(cls, registry):
        """The registry part alone, as a run that recorded no more kept it (a soap-phases run's
        soap-phases.json): its apps' titles and order, its servers."""
        return cls({"registry": registry})

    @property
    def format_version(self):
        return self.data.get("format_version", 1)

    @property
    def kind(self):
        """The run's kind (harness/results/kinds.py); None when written before format 3."""
        return self.data.get("kind")

    @property
    def run_id(self):
        return self.data["run_id"]

    @property
    def started(self):
        return self.data.get("started", "")

    @property
    def finished(self):
        return self.data.get("finished")

    @property
    def options(self):
        return self.data["options"]

    @property
    def host(self):
        return self.data["host"]

    @property
    def pinning(self):
        return self.data["pinning"]

    @property
    def topology_text(self):
        """"loopback", the namespaces and their link rate, or the ssh hosts (runs from before
        topologies: loopback)."""
        topology = self.data.get("topology", {"mode": "loopback"})
        if topology["mode"] == "loopback":
            return "loopback"
        hosts = ", ".join(f"{host} {where['address']}" for host, where in topology["hosts"].items())
        if topology["mode"] == "ssh":
            return f"separate machines over ssh ({hosts})"
        return f"network namespaces ({hosts}), links {topology['link']}"

    @property
    def link_bits_per_s(self):
        """The shaped links' rate; None on loopback, unshaped links and runs from before topologies."""
        return self.data.get("topology", {}).get("link_bits_per_s")

    @property
    def server_cpus(self):
        """The CPUs the servers were pinned to (the web servers' and the database's; runs from before
        DB_CPUS had one), sorted; None when they were not pinned."""
        lists = [cpu_numbers(self.pinning.get(key)) for key in ("server_cpus", "db_cpus") if key in self.pinning]
        if not lists or None in lists:
            return None
        return sorted(set().union(*lists))

    @property
    def server_cores(self):
        """How many CPUs the servers ran on: their pinned ones, or the whole machine unpinned."""
        return len(self.server_cpus) if self.server_cpus else self.host["cores"]

    @property
    def database_text(self):
        """The InnoDB plateau's test beds in words ("DB_SCHEMA=innodb-unkeyed"), "" for the default tables
        and settings: a table's headings name the workload by the contract's words, "by primary key"."""
        settings = self.data.get("settings", {})
        changed = [f"{knob}={settings[knob]}" for knob in ("DB_SCHEMA", "DB_PROFILE", "DB_DURABILITY")
                   if settings.get(knob, DEFAULTS[knob]) != DEFAULTS[knob]]
        return (f"the database not as by default: {', '.join(changed)} (docs/apps.md; a lookup by id on a "
                "table without its key reads all 16,000 rows)") if changed else ""

    @property
    def servers_pinning_text(self):
        return servers_pinning_text(self.pinning.get("server_cpus"), self.pinning.get("db_cpus"))

    @property
    def apps(self):
        """The registry's apps as the run saw them, in registry order (which fixes their colours)."""
        return self.data["registry"]["apps"]

    def title(self, app):
        return self.apps.get(app, {}).get("title", app)

    def baselines_of(self, app, family="baselines"):
        """{"constant": app, "static": app}: the references on the app's server, as the run's
        registry named them (none in runs from before the baselines). family "soap_baselines": the
        engine-less SOAP references, for a SOAP app only."""
        declared = self.apps.get(app, {})
        if family == "soap_baselines" and declared.get("kind") != "soap":
            return {}
        server = declared.get("server")
        return dict(self.data["registry"].get("servers", {}).get(server, {}).get(family, {}))

    def servers_of(self, app):
        """The app's server and those it needs, as the run's registry declared them (the database
        server among them); [] for an app the registry did not know."""
        server = self.apps.get(app, {}).get("server")
        if not server:
            return []
        return [server, *self.data["registry"].get("servers", {}).get(server, {}).get("needs", ())]

    @property
    def database_server(self):
        """The server the db host runs, as the run's registry declared it (None in a run without one)."""
        return next((name for name, declared in self.data["registry"].get("servers", {}).items()
                     if declared.get("host") == "db"), None)

    def server_title(self, server):
        return self.data["registry"].get("servers", {}).get(server, {}).get("title", server)

    def engine_title(self, engine):
        """How reports name a database engine, as the run's registry titled it ("none": a cell whose app
        reads no database); today's title for a run whose registry listed its engines without titles."""
        declared = self.data["registry"].get("engines")
        if engine == NO_ENGINE or not isinstance(declared, dict):
            return registry_engine_title(engine)
        return declared.get(engine, {}).get("title", engine)

    def app_servers(self, app):
        """The servers that serve the app's requests: its own and those it needs, the database's aside."""
        return [server for server in self.servers_of(app) if server != self.database_server]

    @property
    def server_names(self):
        return list(self.data["registry"].get("servers", {}))

    def colour_index(self, app):
        """The app's place in the registry's order, which fixes its colour in every figure."""
        return list(self.apps).index(app)

    @property
    def declares_servers(self):
        """Whether the run's registry declared its servers whole (their hosts, titles and pools); the
        runs from before it did recorded only their ports."""
        return any("host" in declared for declared in self.data["registry"].get("servers", {}).values())

    def with_servers(self, servers):
        """This manifest with `servers` as its registry's servers' declarations."""
        return Manifest({**self.data, "registry": {**self.data["registry"], "servers": servers}})

    def pool_what(self, app):
        """What the app's requests wait in, in words, as the run's registry declared it: the `pool` of its
        server or of a server it needs (the Apache and Lighttpd in front of PHP-FPM hand requests to
        PHP-FPM's workers); "a connection" when none declared one (every server of a run from before
        the pools were declared)."""
        declared = self.data["registry"].get("servers", {})
        pools = [declared.get(server, {}).get("pool") for server in self.servers_of(app)]
        return next((pool["what"] for pool in pools if pool), "a connection")

    @property
    def comparisons(self):
        """{set name: its table's title and what it asks}: the sets the run's registry compared app by
        app; today's for a run whose registry did not record them."""
        return self.data["registry"].get("comparisons") or registry_comparisons()

    def set_members(self, name):
        """A named set's apps as the run's registry listed them (empty when it had no such set)."""
        return list(self.data["registry"].get("sets", {}).get(name, []))


# What the runner gives: every part but the ones the run's own history sets.
GIVEN = [key for key in SCHEMA if key not in ("format_version", "kind", "run_id", "started", "finished")]


def written(earlier, kind, **parts):
    """Pure: the manifest the runner writes for a run of `kind` (one of kinds.RECORDS' with a manifest),
    from what an earlier invocation of the run wrote (`earlier`: at least its run_id and started) and
    every part of GIVEN; a part the schema does not know, or one it misses, is a ValueError, so that
    the schema stays the manifest's one owner."""
    unknown, missing = sorted(set(parts) - set(GIVEN)), [key for key in GIVEN if key not in parts]
    if unknown or missing:
        raise ValueError(f"manifest parts not in its schema: {unknown}; missing: {missing}")
    if kinds.RECORDS.get(kind) != "manifest.json":
        raise ValueError(f"no manifest is written for a run of kind {kind!r}")
    return {**earlier, "format_version": FORMAT_VERSION, "kind": kind, **parts}


def problems(data):
    """What a manifest written by this format lacks (an empty list when complete)."""
    missing = [key for key in SCHEMA if key not in data and key != "finished"]
    return [f"manifest lacks {key}" for key in missing]
