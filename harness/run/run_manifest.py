"""The run's manifest.json written at the edge, from the run's context and what the machine, the
servers and the registry say now (the schema's owner is harness/results/manifest.py). The sweep and
the concurrency sweep write it alike."""
import dataclasses
import json

from harness.hosts import inventory, servers
from harness.results import kinds
from harness.results.manifest import written
from harness.results.store import write_atomically
from harness.run.cell import now
from harness.run.context import plan_factors, profiles, size_sweep
from stack import database_access, lifecycle, settings, targets


def write_manifest(path, run_id, context, topology, quiet, added_rounds=None, concurrency=None, finished=False,
                   kind=kinds.SWEEP):
    """Write (or rewrite, keeping when it started) the manifest.json at `path` of a run of `kind`."""
    pinning = context.pinning
    earlier = json.loads(path.read_text()) if path.exists() else {"run_id": run_id, "started": now()}
    manifest = written(
        earlier, kind,
        options=context.as_manifest(),
        plan=plan_factors(),
        profiles={name: vars(profile) for name, profile in profiles().items()},
        size_sweep=size_sweep(),
        settings={**settings.knobs(), "CLIENT_CPUS": pinning.client_cpus, "SERVER_CPUS": pinning.server_cpus,
                  "DB_CPUS": pinning.db_cpus, "max_connections": database_access.max_connections()},
        servers={name: {"address": server.address, "port": server.port, "endpoint": server.endpoint,
                        "started_with": servers.server(name).started_with()}
                 for name, server in lifecycle.lab_servers().items()},
        pinning=dataclasses.asdict(pinning),
        topology=topology,
        versions=inventory.versions(),
        host=inventory.host(),
        git=inventory.git_state(),
        registry=targets.registry(),
        quiet_check=quiet,
        added_rounds=added_rounds,
        concurrency=concurrency)
    if finished:
        manifest["finished"] = now()
    write_atomically(path, json.dumps(manifest, indent=2, default=str) + "\n")
