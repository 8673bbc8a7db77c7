"""Before a cell's steps: the JIT warm-up (apps whose server has a JIT, from the registry) and the
closed-loop capacity probe that seeds the plan. Both are short wrk runs."""
from harness import load
from harness.options import PROFILES


def warm_up(cell, options):
    """wrk's result of the warm-up, or None when the app needs none."""
    if not (cell.needs_warmup and options.warmup_s):
        return None
    return load.wrk_throughput(cell.request, options.warmup_s, PROFILES[cell.key.workload].probe_connections,
                               options.client_cpus, cell.directory)


def probe(cell, options):
    """The closed-loop estimate of the cell's capacity in replies/s (kept in cell.json, so a resumed
    cell keeps its plan), or None when the plan is not seeded by one."""
    if cell.state.probe is None:
        if cell.state.warmup is None:
            cell.update(warmup=warm_up(cell, options))
        if not options.probe_s or options.mode == "linear":
            return None
        cell.update(probe=load.wrk_throughput(cell.request, options.probe_s,
                                              PROFILES[cell.key.workload].probe_connections,
                                              options.client_cpus, cell.directory))
    result = cell.state.probe
    return result["replies_per_s"] if result["non2xx"] == 0 else None
