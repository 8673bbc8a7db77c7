"""summary.md's memory section: what each app's servers held at its saturation step (harness/measure/
memory.py's figures in steps.tsv). Pure."""
from harness.results.saturation import saturation_step


def figure(step, server, name):
    return step.figures.get(f"{server}_{name}")


def text(value, digits=1):
    return "-" if value is None or value == "" else f"{float(value):,.{digits}f}"


def server_row(view, key, step, server, database):
    """One table row: the server's processes, PSS (per process), RSS peak, a garbage-collected
    runtime's heap after its last collection and its allocation per reply; the database server's PSS beside."""
    pss, processes = figure(step, server, "pss_mb"), figure(step, server, "processes")
    allocated, replies = figure(step, server, "alloc_mb"), step.figures.get("replies")
    per_process = f" ({text(float(pss) / float(processes))} each)" if pss not in (None, "") and processes else ""
    per_reply = (text(1024 * float(allocated) / float(replies)) if allocated not in (None, "") and replies
                 else "-")
    return (f"| {view.title(key.app)} | {key.engine} | {key.workload} | {view.manifest.server_title(server)} | "
            f"{text(processes, 0)} | {text(pss)}{per_process} | {text(figure(step, server, 'rss_peak_mb'))} | "
            f"{text(figure(step, server, 'heap_after_gc_mb'))} | {per_reply} | "
            f"{text(figure(step, database, 'pss_mb')) if database else '-'} |")


def memory_lines(view):
    """The section, or [] for a run whose steps have no PSS (recorded before it was measured)."""
    rows = []
    order = {app: place for place, app in enumerate(view.apps)}
    for key in sorted(view.summaries, key=lambda key: (order.get(key.app, len(order)), key.engine, key.workload)):
        step = saturation_step(view.steps_of(key))
        if step is None or not any(name.endswith("_pss_mb") for name in step.figures):
            continue
        database = view.manifest.database_server
        rows += [server_row(view, key, step, server, database)
                 for server in view.manifest.servers_of(key.app) if server != database]
    if not rows:
        return []
    return ["## Memory at saturation", "",
            "Each cell's saturation step, in the round whose figure is the median: per server of the app, its "
            "processes at the step's end and their summed PSS (a page shared by several processes, such as "
            "prefork's workers' PHP, counted once over them: PSS per worker x workers), the peak RSS summed "
            "over them during the step (shared pages once per process); for a JVM, the heap in use after its "
            "last collection (after a young one, the old generation's garbage still counts) and what the step's replies allocated (KB per reply: the heap's growth plus what "
            "its collections freed, harness/measure/memory.py); for Go and V8, the same from the collections "
            "they trace into their logs (harness/measure/gc_trace.py); the database server's PSS beside.", "",
            "| app | engine | workload | server | processes | PSS MB | RSS peak MB | heap after GC MB | "
            "allocated KB per reply | database PSS MB |",
            "|---|---|---|---|---:|---:|---:|---:|---:|---:|", *rows, ""]
