"""A closed-loop window, the one stepper of every closed-loop measurement (the concurrency sweep's
levels, the cross-check's wrk ladder), as harness/run/step.py's `take_step` is of every open-loop
one: a closed-loop driver keeps its connections busy for the window's seconds under the step
monitors, a window that other work shared is redone (hosts/watch.py `Watched`, bounded), its raw
report is kept in the cell's raw/ folder, and its figures come back with its app's servers' CPU and
memory as the monitors measured them."""
from harness.drivers import wrk
from harness.measure import load
from harness.results.store import write_atomically
from stack import registry

# A window's figures kept per server of the app: its CPU, its context switches (a voluntary one is a
# wake-up: what a reply costs differs by arrival pattern) and its memory (harness/measure/monitors.py,
# memory.py).
SERVER_FIGURES = ("cpu_s", "vcsw", "ivcsw", "rss_peak_mb", "pss_mb", "processes", "heap_after_gc_mb", "alloc_mb")


def server_figures(figures, names):
    """Pure: the CPU, context switches and memory of the servers `names` among a window's monitors' figures."""
    return {key: figures[key] for key in (f"{name}_{figure}" for name in names for figure in SERVER_FIGURES)
            if key in figures}


def take_window(cell, window, watched, raw, driver=wrk):
    """One closed-loop `window` (harness.drivers.Window) of the cell by `driver`, watched: (its
    figures, with `servers`, the app's servers' CPU and memory, and `raw`, its report's path under the
    cell's folder; what other work shared it, or None, once its redos are spent)."""
    client_cpus = watched.context.pinning.client_cpus
    result, shared, monitored = watched(lambda: load.run_window(window, client_cpus, cell.directory, driver))
    write_atomically(cell.directory / raw, f"$ {result['command']}\n{result.pop('output')}")
    return {**result, "servers": server_figures(monitored, registry.app_servers(cell.key.app)), "raw": raw}, shared
