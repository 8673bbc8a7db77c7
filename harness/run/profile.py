"""`make profile [RUN=] [CELLS=] [OVERHEAD=N]`: where the servers' CPU goes at each cell's saturation.
`make saturation-sweep PROFILE=1` runs it after the sweep, before the plots.

For every located cell of the run (and every lower bound, at its best passing rate), warmed up as the
sweep warms it: one extra step at the cell's saturation rate (the sweep's step length and rules, its
httperf output kept under the cell's raw/) under `perf record` on the servers' CPUs
(harness/measure/profiler.py). The step never counts toward a figure: the run's rounds are done
before it, and it is written apart. Its samples, cut to the step's window, are put in components
(harness/judge/cpu_components.py) and set against the server CPU the step's monitors measured (the
servers' processes' CPU time, as the sweep's server CPU column). A step that other work disturbed is
redone, as in the cross-check.

A JVM's stacks are walked only when it keeps frame pointers, and V8's compiled code is named only
when it writes its perf map: Tomcat and Node.js are restarted with them (JIT_PROFILING=on) for the
profiles and restarted without them at the end, so no figure of the sweep ever ran with them; each
cell's own warm-up then brings the JIT back to steady.

OVERHEAD=N: for each cell, N pairs of the same step without and with perf, in alternating order, at
OVERHEAD_SHARE of its saturation rate, their server CPU per reply set side by side (in profile.json,
and overhead.tsv): what profiling costs the servers.

Into the run's folder, profile/: per cell its folded stacks, flame graph (SVG), perf script text
(gzipped; every figure traces back to it) and breakdown.json; profile.json and profile.tsv for the run."""
import gzip
import json
import time
from contextlib import contextmanager, nullcontext
from dataclasses import replace
from datetime import datetime, timezone

from harness.hosts import inventory, servers
from harness.judge import cpu_components
from harness.judge.disturbance import redone_while_disturbed
from harness.measure import perf_script, processes, profiler
from harness.report import profiles
from harness.results import interleave
from harness.results.records import DISTURBED, LOCATED, LOWER_BOUND_STATUSES, CellKey
from harness.results.rounds import cell_figures
from harness.results.chosen import Refused, add_run_arguments, chosen_cells, chosen_run
from harness.results.store import RunFiles, tsv_text, write_atomically
from harness.run import jvm_warmup, probe
from harness.run.cell import Cell
from harness.run.context import RunContext, defaults
from harness.run.planner import turns, walk
from harness.run.session import from_the_client
from harness.run.step import take_step
from stack import registry, settings


# The overhead's steps run below saturation: at the saturation rate itself a step on the edge passes or
# fails by chance, and a failing step's CPU per reply counts the work on requests that timed out
# (quick-profile's first pairs: 0.91-1.43x with verdicts flipping).
OVERHEAD_SHARE = 0.7


def measured_server_cpu(figures, server_cpus):
    """Pure: the servers' CPU over a step as its monitors measured it: {"processes_s": every server's
    processes, "softirq_s": the softirq time on the servers' CPUs, "irq_s": their interrupt time} (the
    last two for the record: on a kernel without IRQ time accounting the processes' time holds the
    softirq work done on their stacks already)."""
    servers = {f"{name}_cpu_s" for name in registry.servers()}
    return {"processes_s": round(sum(value for name, value in figures.items() if name in servers), 3),
            "softirq_s": round(sum(figures.get(f"softirq_cpu{cpu}_s", 0.0) for cpu in server_cpus), 3),
            "irq_s": round(sum(figures.get(f"irq_cpu{cpu}_s", 0.0) for cpu in server_cpus), 3)}


def server_cpus_of(pinning):
    """The CPUs the servers (the database's among them) run on, as perf's -C list."""
    return ",".join(map(str, sorted(set(processes.cpu_list(pinning.server_cpus))
                                    | set(processes.cpu_list(pinning.db_cpus)))))


@contextmanager
def recorded(folder, server_cpu_list, client_cpus, taken):
    """perf record on the servers' CPUs into `folder` while the block runs, the lab servers' processes
    sampled beside it: once the block ends, `taken` holds the processes' "owners" and the block's
    "window" on perf's clock (what analysed needs)."""
    with profiler.recording(folder / "perf.data", server_cpu_list, client_cpus), profiler.Owners() as owners:
        started = time.monotonic()
        yield
        ended = time.monotonic()
    taken.update(owners=dict(owners), window=(started, ended))


def analysed(folder, taken, classifier, title):
    """A recording's samples within its window, put in components and in objects, and its files kept
    in `folder` (perf script's text gzipped, folded stacks, a flame graph titled `title`):
    {"breakdown", "objects"}."""
    profiler.write_jit_maps()
    text = profiler.script(folder / "perf.data")
    found = perf_script.within(perf_script.samples(text), *taken["window"])
    with gzip.open(folder / "perf-script.txt.gz", "wt") as kept:
        kept.write(text)
    stacks = profiler.folded(text)
    write_atomically(folder / "stacks.folded", stacks)
    write_atomically(folder / "flame.svg", profiler.flame_graph(stacks, title))
    (folder / "perf.data").unlink()
    return {"breakdown": cpu_components.breakdown(found, taken["owners"], classifier),
            "objects": cpu_components.objects(found, taken["owners"])}


class Profiler:
    """The profile steps of one run: where they run and what they are judged by."""

    def __init__(self, context, files):
        self.context = context
        self.files = files
        self.server_cpu_list = server_cpus_of(context.pinning)
        self.server_cpus = processes.cpu_list(self.server_cpu_list)
        self.classifier = cpu_components.Classifier()

    def load_step(self, cell, rate, raw, folder=None):
        """One step at `rate` (under perf into `folder` when given), taken as the sweep's are but kept
        out of the cell's steps: its figures."""
        taken = {}
        perf = recorded(folder, self.server_cpu_list, self.context.pinning.client_cpus, taken) if folder else None
        done = take_step(cell, rate, self.context, None, role="profile", raw=raw, around=perf, recorded=False)
        measured = measured_server_cpu(done.figures, self.server_cpus)
        cpu_s = measured["processes_s"]  # the sweep's server CPU (records.server_total("_cpu_s"))
        replies = done.figures.get("replies") or 0
        return {"rate": rate, "verdict": done.verdict, "reason": done.reason, "raw": raw,
                "disturbed": done.verdict == DISTURBED, "window_s": done.wall_s, "replies": replies,
                "reply_rate": done.reply_rate, "measured_cpu_s": cpu_s, "measured": measured,
                "cpu_us_per_reply": round(cpu_s / replies * 1e6, 1) if replies else None, "taken": taken}

    def watched(self, run):
        return redone_while_disturbed(run, lambda result: result["disturbed"], self.context.disturbance.max_redos)

    def profile(self, cell, rate):
        """The cell's profile at `rate`: the step, its breakdown against the measured CPU, and its
        files under profile/<cell>/."""
        folder = self.files.profile_cell(cell.key)
        folder.mkdir(parents=True, exist_ok=True)
        result, redone = self.watched(lambda: self.load_step(cell, rate, f"raw/profile-rate-{rate:g}.txt", folder))
        result.update(analysed(folder, result.pop("taken"), self.classifier, f"{cell.key} at {rate:g} req/s offered"))
        result["profiled_over_measured"] = cpu_components.against_measured(result["breakdown"],
                                                                          result["measured_cpu_s"])
        result["redone"] = redone
        write_atomically(folder / "breakdown.json", json.dumps(result, indent=1) + "\n")
        return result

    def overhead(self, cell, saturation, pairs):
        """`pairs` pairs of steps at OVERHEAD_SHARE of the `saturation` rate, without and with perf, in
        alternating order."""
        rate = round(saturation * OVERHEAD_SHARE, 1)
        folder = self.files.profile_cell(cell.key) / "overhead"
        folder.mkdir(parents=True, exist_ok=True)

        def take(turn):
            number, with_perf = turn
            kind = "with" if with_perf else "without"
            result, _ = self.watched(lambda: self.load_step(cell, rate, f"raw/overhead-{number}-{kind}.txt",
                                                            folder if with_perf else None))
            result.pop("taken")
            return result
        taken = walk(turns(range(1, pairs + 1), (False, True), interleave.order), take)
        found = [{("with" if with_perf else "without"): result for (at, with_perf), result in taken if at == number}
                 for number in range(1, pairs + 1)]
        (folder / "perf.data").unlink(missing_ok=True)
        return found


def saturation_rate(figures):
    """The rate a cell is profiled at: its representative round's saturation rate, or for a lower
    bound (the client or the plan ran out first) its best passing rate; None when no step passed."""
    summary = figures.representative
    return summary.saturation_offered if summary.status in (LOCATED, *LOWER_BOUND_STATUSES) else None


def jit_profiling(on, pinning):
    """Restart the JIT servers with their compiled code framed and named for perf, or as the sweep
    runs them (registry.restarted_to_profile); each then warms again in each cell's warm-up."""
    with settings.chosen(JIT_PROFILING="on" if on else "off"):
        for name in registry.servers_on(None):
            if registry.restarted_to_profile(name):
                servers.server(name).restart(pinning.cpus_of(name))


def warm_jvms(cells, context, directory):
    """Each JIT server, just restarted with frame pointers, warmed once for all its cells as a
    round's first cell warms it (harness/run/jvm_warmup.py), for at least the sweep's default cap
    whatever the run's (QUICK=1's 60 s left the compiler at work in the first cells' profiles:
    7-12 % of their CPU, against 0-1 % in the last): their records."""
    cap = max(context.warmup.jvm_warmup_cap_s, defaults()["jvm_warmup_cap_s"])
    warming = replace(context, warmup=replace(context.warmup, jvm_warmup_cap_s=cap))
    records = []
    for name, its_cells in jvm_warmup.servers_of(cells).items():
        record = jvm_warmup.warm_jvm(name, its_cells, warming, directory)
        if record:
            print(f"profile: {jvm_warmup.describe(record)}", flush=True)
            records.append(record)
    return records


def profile_cells(run, context, chosen, overhead_pairs):
    """Profile the `chosen` cells ({CellKey: CellFigures}) of the run: profile.tsv's rows."""
    processes.pin_harness(context.pinning.client_cpus)
    servers.pin_servers(context.pinning)
    files = RunFiles(run.directory)
    profiler_ = Profiler(context, files)
    # A profile of some cells (CELLS=) joins the run's earlier ones; a cell profiled again is replaced.
    saved = files.profile / "profile.json"
    earlier = json.loads(saved.read_text()) if saved.exists() else {}
    results = {name: result for name, result in earlier.get("cells", {}).items()
               if name not in {str(key) for key in chosen}}
    rows = [profiles.row(CellKey(*name.split("/")), result, registry.server_title)
            for name, result in results.items() if "breakdown" in result]
    record = {"host": inventory.host(), "perf": profiler.version(), "frequency_hz": profiler.FREQUENCY_HZ,
              "started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
              "jvm_warmups": warm_jvms(list(chosen), context, run.directory), "cells": results}
    for index, (key, figures) in enumerate(chosen.items(), start=1):
        rate = saturation_rate(figures)
        if rate is None:
            results[str(key)] = {"not_profiled": f"{figures.representative.status}: no saturation rate"}
            print(f"profile {index}/{len(chosen)} {key}: not profiled ({figures.representative.status})", flush=True)
            continue
        cell = Cell(files, key)
        warmup = probe.warm_up(cell, context)
        result = profiler_.profile(cell, rate)
        result["warmup"] = warmup and {name: warmup[name] for name in ("steady", "seconds", "replies_per_s")}
        results[str(key)] = result
        if overhead_pairs:
            result["overhead"] = profiler_.overhead(cell, rate, overhead_pairs)
        rows.append(profiles.row(key, result, registry.server_title))
        print(f"profile {index}/{len(chosen)} {key} at {rate:g} req/s: {rows[-1]['top']} "
              f"(profiled / measured CPU {result['profiled_over_measured']})", flush=True)
        write_atomically(files.profile / "profile.json", json.dumps(record, indent=1) + "\n")
        write_atomically(files.profile / "profile.tsv", tsv_text(profiles.columns(), rows))
        overheads = {name: each["overhead"] for name, each in results.items() if each.get("overhead")}
        if overheads:
            write_atomically(files.profile / "overhead.tsv",
                             tsv_text(profiles.OVERHEAD_COLUMNS, profiles.overhead_rows(overheads)))
    return rows


def add_arguments(parser):
    add_run_arguments(parser)
    parser.add_argument("--cells", default=None, help="only these cells, app/engine/workload comma-separated")
    parser.add_argument("--overhead", type=int, default=0,
                        help="also this many pairs of steps without and with perf per cell (default 0)")


def execute(args):
    run = chosen_run(args)
    only = chosen_cells(run, args.cells)
    chosen = {key: figures for key, figures in cell_figures(run).items() if only is None or str(key) in only}
    problem = profiler.unavailable()
    context = RunContext.recorded(run.manifest.options)
    if not problem and context.topology.ssh:
        problem = "TOPOLOGY=ssh: the servers' CPUs are on other machines; profile there with TOPOLOGY=local"
    if problem:
        raise Refused(problem)
    jit_cells = any(registry.restarted_to_profile(registry.server_of(key.app)) for key in chosen)
    with from_the_client(context.topology):
        if jit_cells:
            jit_profiling(True, context.pinning)
        try:
            with settings.chosen(JIT_PROFILING="on") if jit_cells else nullcontext():
                rows = profile_cells(run, context, chosen, args.overhead)
        finally:
            if jit_cells:
                jit_profiling(False, context.pinning)
    print(f"profile: {len(rows)} cells profiled; {run.directory / 'profile' / 'profile.tsv'} "
          f"(flame graphs in profile/<cell>/flame.svg); `make plots RUN={run.directory.name}` adds them to the report")
