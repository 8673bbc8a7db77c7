"""`make concurrency-sweep`: closed-loop throughput and latency against concurrency, per cell of a set,
with connections closed after each request and kept alive: ICWS'08's Fig. 7 (2^1-2^10 "threads") and
TechEmpower's levels. It is the cross-check's ladder (sweep.json `crosscheck`) climbed to its end at
every level, with the latency distribution, by a closed-loop driver (harness/drivers: wrk, or
ICWS'08's Apache Bench).

For every cell, in each connection mode: the server's workers recycled, the cell warmed up in that
mode as the sweep warms it (a JVM is warmed once for all its cells first), then each level: settle
windows (counted toward no figure), then its windows, each the lab's one closed-loop window
(harness/run/window.py: watched like a sweep step, one that other work disturbed redone, bounded).
The judge (harness/judge/concurrency.py) gives each level the medians of its windows, flags the
levels the client, a server's connection cap, errors or other work bound, and names each app's peak
and knee from the others.

Each window keeps its app's servers' CPU and memory as its monitors measured them (PSS, peak RSS,
processes, a JVM's heap). With --profile (PROFILE=1), each level ends with one more window under perf
on the servers' CPUs, which counts toward no figure: where the servers' CPU went, by component and by
object, as `make profile` puts it (harness/run/profile.py; a JVM keeps frame pointers for the whole
sweep).

Into results/<run>/: manifest.json, concurrency.md (each app's peak and knee per mode),
concurrency.tsv (a row per cell, mode and level),
concurrency.json (every window's figures), each cell's raw/ (the driver's reports, the settle windows'
too), profile/<level>/
(perf script's text, folded stacks, a flame graph), plots/concurrency-<workload>.pdf (a page per mode)
and report/index.html to browse (harness/report/concurrency.py; `make report RUN=` writes them again)."""
import json
import resource
import time
from dataclasses import replace

from harness.drivers import CLOSED_LOOP, Window, closed_loop, wrk
from harness.hosts import servers
from harness.hosts.watch import Watched, quiet_check
from harness.judge import cpu_components
from harness.judge.concurrency import Limits, knee, level_figures, level_flags, peak
from harness.measure import load, processes, profiler
from harness.report import concurrency as figures_of
from harness.results import kinds
from harness.results.chosen import Refused, add_results_argument
from harness.results.store import RunFiles, tsv_text, write_atomically
from harness.run import jvm_warmup, probe, profile
from harness.run.cell import Cell
from harness.run.context import CONNECTIONS, LevelWindows, RunContext, crosscheck_settings, profile_for
from harness.run.option_types import listed, number
from harness.run.options import chosen_apps
from harness.run.planner import Sequence, walk
from harness.run.progress import format_duration
from harness.run.run_manifest import write_manifest
from harness.run.session import from_the_client
from harness.run.window import take_window
from stack import registry, workload_names
from stack.server import LabError



def sweep_settings():
    """The concurrency sweep's windows, limits and defaults (sweep.json `crosscheck.concurrency`)."""
    return crosscheck_settings()["concurrency"]


def default_ladder():
    """The cross-check's ladder of connections, climbed to its end."""
    return tuple(crosscheck_settings()["connections"])


def limits():
    settings = sweep_settings()
    return Limits(settings["client_cpu_share"], settings["error_share"], settings["knee_factor"])
COLUMNS = ["app", "engine", "workload", "connection", "connections", "replies_per_s", "p50_ms", "p90_ms", "p99_ms",
           "client_cpu_share", "error_share", "peak", "knee", "flags", "raw"]
# What a level costs beyond its windows (wrk's start and exit, the monitors): the ETA's first guess.
LEVEL_OVERHEAD_S = 1.5


def measure_level(cell, connections, context, watched, mode, driver, windows, profiling=False):
    """One level: the settle windows, then the windows (each with its servers' CPU and memory); then,
    when `profiling`, one more under perf (profiled_window); its figures, flags and raw reports."""
    window_s = max(windows.seconds, profile_for(cell.key.workload).warmup_window_s)
    run = Window(cell.request, window_s, connections, context.plan.keepalive, latency=True,
                 timeout_s=sweep_settings()["request_timeout_s"], drawn=cell.drawn)
    name = f"{driver.NAME}-{mode}-c{connections:04d}"
    for index in range(1, windows.settle + 1):
        # The server's pools and queues grow to the new level: its figures count toward none.
        take_window(cell, run, watched, f"raw/{name}-settle{index}.txt", driver)
    measured, disturbed = [], None
    for index in range(1, windows.count + 1):
        result, shared = take_window(cell, run, watched, f"raw/{name}-w{index}.txt", driver)
        measured.append(result)
        disturbed = disturbed or shared
    raws = [result.pop("raw") for result in measured]
    figures = level_figures(measured)
    level = {"connections": connections, **figures, "window_s": window_s, "raw": raws, "windows_figures": measured,
             "flags": level_flags(figures, connections, registry.connection_cap(cell.key.app), limits(), disturbed,
                                  client=driver.NAME)}
    if profiling:
        level["profile"] = profiled_window(cell, name, context.pinning, watched,
                                           lambda: load.run_window(run, context.pinning.client_cpus, cell.directory, driver))
    return level


def profiled_window(cell, name, pinning, watched, run_window):
    """One more window, watched, under perf on the servers' CPUs: where the servers' CPU went (by
    component and by object), set against their processes' CPU as the window's monitors measured it;
    its files in the cell's profile/<name>/. It counts toward no figure."""
    folder = cell.directory / "profile" / name
    folder.mkdir(parents=True, exist_ok=True)
    cpu_list = profile.server_cpus_of(pinning)

    def under_perf():
        taken = {}
        with profile.recorded(folder, cpu_list, pinning.client_cpus, taken):
            result = run_window()
        return result, taken
    (result, taken), shared, monitored = watched(under_perf)
    analysis = profile.analysed(folder, taken, cpu_components.Classifier(), f"{cell.key}, {name}")
    measured = profile.measured_server_cpu(monitored, processes.cpu_list(cpu_list))
    return {**analysis, "replies_per_s": result.get("replies_per_s"), "disturbed": shared, "measured": measured,
            "profiled_over_measured": cpu_components.against_measured(analysis["breakdown"], measured["processes_s"]),
            "folder": str(folder.relative_to(cell.directory))}


def measure_mode(cell, mode, context, ladder, on_level, driver, windows, profiling=False):
    """The cell's `ladder` with its connections closed or kept alive (`mode`), warmed up in that mode."""
    context = replace(context, plan=replace(context.plan, connection=mode))
    watched = Watched(context)
    recycled = servers.server(cell.server).recycle()
    warmup = probe.warm_up(cell, context)

    def take(connections):
        level = measure_level(cell, connections, context, watched, mode, driver, windows, profiling)
        on_level(cell.key, mode, level)
        return level
    levels = [level for _, level in walk(Sequence(ladder), take)]
    return {"app": cell.key.app, "engine": cell.key.engine, "workload": cell.key.workload, "connection": mode,
            "driver": driver.NAME,
            "recycled": recycled, "warmup": warmup, "levels": levels, "peak": peak(levels),
            "knee": knee(levels, limits().knee_factor), "redone_windows": watched.redone}


def rows_of(result):
    """concurrency.tsv's rows of one cell and mode: a row per level."""
    return [{**{name: result[name] for name in ("app", "engine", "workload", "connection")},
             **{name: level[name] for name in ("connections", "replies_per_s", "p50_ms", "p90_ms", "p99_ms",
                                               "client_cpu_share", "error_share")},
             "peak": level["connections"] == result["peak"], "knee": level["connections"] == result["knee"],
             "flags": "; ".join(level["flags"]), "raw": level["raw"][0]} for level in result["levels"]]


class Progress:
    """A line per level, with what is left and an ETA from the levels' walls so far."""

    def __init__(self, total_levels, windows):
        self.total, self.done, self.started, self.windows = total_levels, 0, time.monotonic(), windows

    def first_guess_s(self):
        return self.total * self.windows.per_level_s(LEVEL_OVERHEAD_S)

    def __call__(self, key, mode, level):
        self.done += 1
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done)
        flags = f" [{'; '.join(level['flags'])}]" if level["flags"] else ""
        print(f"level {self.done}/{self.total} {key} {mode} c={level['connections']}: {level['replies_per_s']:,.0f} "
              f"replies/s, p50 {level['p50_ms']} ms, p99 {level['p99_ms']} ms{flags}; ETA {format_duration(eta)}",
              flush=True)


def descriptors_for(connections):
    """Raise this process's open-file limit (wrk inherits it) to hold `connections` and a margin, as
    far as the hard limit allows; LabError when it cannot."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = connections + 100
    if soft < needed:
        if hard != resource.RLIM_INFINITY and hard < needed:
            raise LabError(f"{connections} connections need {needed} open files; the hard limit is {hard} (ulimit -Hn)")
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def run(context, run_id, results_dir, modes, ladder=None, driver=wrk, profiling=False, windows=None):
    """The concurrency sweep on running servers (at the cross-check's ladder's levels unless given, in
    sweep.json's windows unless given), each level profiled after its windows when `profiling`;
    concurrency.json's results."""
    ladder, windows = ladder or default_ladder(), windows or LevelWindows.of()
    descriptors_for(max(ladder))
    files = RunFiles(results_dir / run_id)
    files.directory.mkdir(parents=True, exist_ok=True)
    processes.pin_harness(context.pinning.client_cpus)
    servers.pin_servers(context.pinning)
    quiet = quiet_check(context)
    topology = servers.described_topology(context.topology)
    recorded = {**sweep_settings(), "window_s": windows.seconds, "windows": windows.count,
                "settle_windows": windows.settle, "ladder": list(ladder), "modes": list(modes), "driver": driver.NAME,
                "profile": profiling and {"perf": profiler.version(), "frequency_hz": profiler.FREQUENCY_HZ}}
    write_manifest(files.manifest, run_id, context, topology, quiet, concurrency=recorded, kind=kinds.CONCURRENCY)
    cells = context.selection.cells
    progress = Progress(len(cells) * len(modes) * len(ladder), windows)
    print(f"concurrency-sweep {run_id} ({driver.NAME}): {len(cells)} cells x {', '.join(modes)} x {len(ladder)} levels "
          f"({', '.join(map(str, ladder))} connections), {windows.count} windows of {windows.seconds:g} s a level; "
          f"expected ~{format_duration(progress.first_guess_s())} + warm-ups; results in {files.directory}", flush=True)
    for name, its_cells in jvm_warmup.servers_of(cells).items():
        record = jvm_warmup.warm_jvm(name, its_cells, replace(context, plan=replace(context.plan, connection=modes[0])),
                                     files.directory)
        if record:
            print(jvm_warmup.describe(record), flush=True)
    results, rows = [], []
    for key in cells:
        cell = Cell(files, key)
        for mode in modes:
            results.append(measure_mode(cell, mode, context, ladder, progress, driver, windows, profiling))
            rows += rows_of(results[-1])
            write_atomically(files.directory / "concurrency.json", json.dumps(results, indent=1) + "\n")
            write_atomically(files.directory / "concurrency.tsv", tsv_text(COLUMNS, rows))
            print(f"== {key} {mode}: peak at {results[-1]['peak']} connections, knee at {results[-1]['knee']}",
                  flush=True)
    write_manifest(files.manifest, run_id, context, topology, quiet, concurrency=recorded, finished=True,
                   kind=kinds.CONCURRENCY)
    print(f"concurrency-sweep {run_id} finished in {format_duration(time.monotonic() - progress.started)}", flush=True)
    return results


def add_arguments(parser):
    parser.add_argument("--set", dest="app_set", default=None, choices=list(registry.sets()),
                        help=f"the apps of this set (default: {sweep_settings()['set']}, or the --apps named)")
    parser.add_argument("--apps", type=listed, default=None, help="these apps (of the set, when one is named)")
    parser.add_argument("--engines", type=listed, default=tuple(sweep_settings()["engines"]))
    parser.add_argument("--workloads", type=listed, default=tuple(sweep_settings()["workloads"]))
    parser.add_argument("--conn", choices=(*CONNECTIONS, "both"), default="both",
                        help="close, keepalive or both (default), in that order per cell")
    parser.add_argument("--levels", type=listed, default=None,
                        help=f"these concurrencies, rising (default: the cross-check's ladder, {default_ladder()[0]}-{default_ladder()[-1]})")
    parser.add_argument("--driver", choices=list(CLOSED_LOOP), default=wrk.NAME,
                        help="the closed-loop load generator (default: wrk; ab is ICWS'08's Apache Bench)")
    parser.add_argument("--profile", action="store_true",
                        help="one more window per level under perf: where the servers' CPU went (as make profile)")
    parser.add_argument("--window-s", type=number(float, 0.5), default=None, help="each window's seconds (sweep.json's)")
    parser.add_argument("--windows", type=number(int, 1), default=None, help="recorded windows a level (sweep.json's)")
    parser.add_argument("--settle-windows", type=number(int, 0), default=None, help="unrecorded windows first (sweep.json's)")
    parser.add_argument("--run", default=None, help="run id (default: concurrency-<UTC time>)")
    add_results_argument(parser)


def run_of(args):
    """(context, modes, ladder) the options ask for; Refused when they name what the registry lacks."""
    unknown = [engine for engine in args.engines if engine not in registry.engines()]
    unknown += [workload for workload in args.workloads if not workload_names.is_workload(workload)]
    if unknown:
        raise Refused(f"unknown engines or workloads: {', '.join(unknown)}", code=2)
    modes = sweep_settings()["connections"] if args.conn == "both" else [args.conn]
    try:
        ladder = tuple(int(level) for level in args.levels) if args.levels else default_ladder()
    except ValueError:
        raise Refused(f"LEVELS must be whole numbers of connections, not {','.join(args.levels)}", code=2) from None
    if min(ladder) < 1 or list(ladder) != sorted(set(ladder)):
        raise Refused(f"LEVELS must rise from 1 connection or more: {','.join(map(str, ladder))}", code=2)
    app_set = args.app_set or (None if args.apps else sweep_settings()["set"])
    context = RunContext.of(chosen_apps(app_set, args.apps), engines=tuple(args.engines),
                            workloads=tuple(args.workloads), app_set=app_set or registry.default_set())
    if not context.selection.cells:
        raise Refused("no cell: none of these apps serves these workloads on these engines", code=2)
    return context, modes, ladder


def execute(args, browse=True):
    """The sweep, then its figures and concurrency.md, and when `browse` (not for a paper's figure,
    whose run draws its own) its pages and results/index.html."""
    context, modes, ladder = run_of(args)
    run_id = args.run or time.strftime("concurrency-%Y%m%d-%H%M%S", time.gmtime())
    problem = args.profile and (profiler.unavailable() or (context.topology.ssh and "TOPOLOGY=ssh: profile with TOPOLOGY=local"))
    if problem:
        raise Refused(problem)
    # A profiled JIT's code is framed and named for perf (harness/run/profile.py), from before its
    # warm-up to the end.
    jit = args.profile and any(registry.restarted_to_profile(registry.server_of(key.app)) for key in context.selection.cells)
    try:
        with from_the_client(context.topology):
            if jit:
                profile.jit_profiling(True, context.pinning)
            try:
                run(context, run_id, args.results, modes, ladder, closed_loop(args.driver), args.profile,
                    LevelWindows.of(args.window_s, args.windows, args.settle_windows))
            finally:
                if jit:
                    profile.jit_profiling(False, context.pinning)
    except KeyboardInterrupt:
        raise Refused(f"interrupted: the levels measured are in {args.results / run_id}", code=130) from None
    if not browse:
        markdown, pdfs = figures_of.write_figures(args.results / run_id)
        print(f"{markdown}, {', '.join(map(str, pdfs))}", flush=True)
        return
    markdown, pdfs, front = figures_of.write_report(args.results / run_id)
    print(f"{markdown}, {', '.join(map(str, pdfs))}; browse: {front}", flush=True)
