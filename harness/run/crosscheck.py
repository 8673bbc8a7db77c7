"""`make crosscheck [RUN=]`: second opinions on a run's figures, from two other load generators, on
the running servers. For every cell of the run, warmed up as the sweep warms it:

- **wrk, closed loop**, a new connection per request at rising concurrency (1, 2, 4, ... 64), until two
  levels in a row fall short of the best by more than a tenth; then, the server's pool recycled as
  after a sweep's failing step, more runs at the best level, whose median is the cell's closed-loop
  capacity. Each is the lab's one closed-loop window (harness/run/window.py), its report kept in raw/.
  wrk waits for each reply before the next request,
  httperf does not, so sweep / wrk near 1 is agreement and a cell far below 1 is a figure to explain.
- **oha, open loop** like httperf, at 0.9x and 1.1x the sweep's saturation rate: the sweep's own step
  (harness/run/step.py) by another driver, judged by the sweep's rules (the same timeout): the
  sweep's point is confirmed when the rate below passes and the rate above fails.

Every run is watched like a sweep step: one that other work disturbed is redone (bounded). Into
the run's folder: crosscheck.tsv (per cell, both opinions beside the sweep's figure) and
crosscheck.json (every run's figures); under crosscheck/, a folder per cell as a sweep's: oha's steps
(steps.tsv) and the drivers' raw outputs (raw/), and the canary's readings (canary.json)."""
import json
import os
import statistics
from dataclasses import replace

from harness.drivers import Window, oha
from harness.hosts import servers
from harness.hosts.watch import Watched
from harness.judge.disturbance import redone_while_disturbed
from harness.measure import processes
from harness.results.records import CLIENT_LIMITED, DISTURBED, LOCATED, PASS
from harness.results.rounds import cell_figures
from harness.results.chosen import Refused, add_run_arguments, chosen_cells, chosen_run
from harness.results.speed import SpeedHistory
from harness.results.store import RunFiles, tsv_text, write_atomically
from harness.run import probe
from harness.run.cell import Cell
from harness.run.context import RunContext, crosscheck_settings, profile_for
from harness.run.planner import LadderThenRepeats, walk
from harness.run.session import from_the_client
from harness.run.step import OHA, take_step
from harness.run.window import take_window
from stack import workload_names
COLUMNS = ["app", "engine", "workload", "status", "sweep_rps", "wrk_rps", "sweep_over_wrk", "wrk_connections",
           "wrk_runs", "oha_below_rate", "oha_below_verdict", "oha_below_p50_ms", "oha_below_p99_ms",
           "oha_above_rate", "oha_above_verdict", "oha_agrees", "redone_runs"]


def agreement(rows):
    """Pure: (median, lowest) of the ratios sweep / wrk over the rows that have one."""
    ratios = [row["sweep_over_wrk"] for row in rows if row["sweep_over_wrk"] is not None]
    if not ratios:
        return None, None
    return round(statistics.median(ratios), 2), round(min(ratios), 2)


def oha_agrees(below, above):
    """Pure: whether oha confirms a saturation point (the rate below passes, the rate above does not);
    None when either run could not be judged (oha could not keep its schedule, or was disturbed)."""
    if below in (CLIENT_LIMITED, DISTURBED, None) or above in (CLIENT_LIMITED, DISTURBED, None):
        return None
    return below == PASS and above != PASS


def wrk_ladder(cell, watched):
    """The closed-loop capacity: the ladder, then repeats at its best level; their median. Each
    window's report is kept in the cell's raw/ (wrk-ladder-cNNNN.txt, wrk-repeat-cNNNN-rK.txt),
    and listed in `raw` in the order the windows ran."""
    settings = crosscheck_settings()
    window = max(settings["window_s"], profile_for(cell.key.workload).warmup_window_s)
    plan = LadderThenRepeats([level for level in settings["connections"] if level <= settings["ladder_most"]],
                             settings["drop"], settings["repeats"])
    raws, disturbed, recycled = [], [], []

    def take(rung):
        if rung.phase == "repeat" and rung.number == 1:
            # The levels above the best grew Apache's prefork pool, and the repeats would measure that
            # pool (docs/measurement-log.md: 2,451-2,579 req/s against 2,837-2,847 after a recycle).
            recycled.append(servers.server(cell.server).recycle())
        raw = (f"raw/wrk-ladder-c{rung.connections:04d}.txt" if rung.phase == "ladder"
               else f"raw/wrk-repeat-c{rung.connections:04d}-r{rung.number}.txt")
        rung_window = Window(cell.request, window, rung.connections, watched.context.plan.keepalive, drawn=cell.drawn)
        result, shared = take_window(cell, rung_window, watched, raw)
        raws.append(result["raw"])
        disturbed.extend([shared] if shared else [])
        return result["replies_per_s"]
    taken = walk(plan, take)
    levels = {rung.connections: rate for rung, rate in taken if rung.phase == "ladder"}
    repeats = [(rung.connections, rate) for rung, rate in taken if rung.phase == "repeat"]
    runs = [rate for _, rate in repeats]
    return {"window_s": window, "ladder": levels, "connections": repeats[0][0], "recycled": recycled[0], "runs": runs,
            "median": round(statistics.median(runs), 2), "disturbed": disturbed, "raw": raws}


def oha_step(cell, factor, rate, watched, speed_history):
    """One open-loop step by oha at `rate`, the sweep's own step (harness/run/step.py: its length,
    timeout, rules, monitors), recorded in the cell's steps; one that other work disturbed is redone
    (bounded), as a closed-loop window is."""
    def attempt():
        # As after a sweep's failing step: wrk's repeats at the ladder's best level (up to 64
        # connections) grew Apache's prefork pool again, and oha would otherwise measure that pool,
        # not the server the sweep measured.
        recycled = servers.server(cell.server).recycle()
        return recycled, take_step(cell, rate, watched.context, speed_history, role=f"oha x{factor:g}",
                                   driver=oha.NAME)
    (recycled, step), redos = redone_while_disturbed(attempt, lambda taken: taken[1].verdict == DISTURBED,
                                                     watched.context.disturbance.max_redos)
    watched.redone += redos
    return {"rate": rate, "timeout_s": step.timeout_s, "requests": step.num_conns, "verdict": step.verdict,
            "reason": step.reason, "recycled": recycled, "figures": step.figures, "raw": step.raw}


def measure(cell, summary, context, speed_history):
    watched = Watched(context)
    result = {"warmup": probe.warm_up(cell, context)}
    result["wrk"] = wrk_ladder(cell, watched)
    if summary.status == LOCATED:
        result["oha"] = [oha_step(cell, factor, round(summary.saturation_offered * factor, 1), watched,
                                  speed_history) for factor in crosscheck_settings()["oha_factors"]]
    result["redone_runs"] = watched.redone
    return result


def row_of(summary, result):
    key, wrk = summary.key, result["wrk"]
    ratio = round(summary.saturation_rps / wrk["median"], 2) if summary.saturation_rps and wrk["median"] else None
    row = {"app": key.app, "engine": key.engine, "workload": key.workload, "status": summary.status,
           "sweep_rps": summary.saturation_rps, "wrk_rps": wrk["median"], "sweep_over_wrk": ratio,
           "wrk_connections": wrk["connections"], "wrk_runs": " ".join(f"{rate:g}" for rate in wrk["runs"]),
           "redone_runs": result["redone_runs"]}
    if "oha" in result:
        below, above = result["oha"]
        row.update({"oha_below_rate": below["rate"], "oha_below_verdict": below["verdict"],
                    "oha_below_p50_ms": below["figures"].get("p50_ms"),
                    "oha_below_p99_ms": below["figures"].get("p99_ms"),
                    "oha_above_rate": above["rate"], "oha_above_verdict": above["verdict"],
                    "oha_agrees": oha_agrees(below["verdict"], above["verdict"])})
    return row


def sweep_figure(figures):
    """The figure a cell's rounds add up to (their median), with its representative round's status and
    offered rate, which oha's rates scale."""
    if figures.median is None:
        return figures.representative
    return replace(figures.representative, saturation_rps=round(figures.median.estimate, 2))


def measure_cells(run, context, only=None):
    """Each cell of the run (those named in `only`, when given) measured again, its row saved as it
    comes: the rows."""
    processes.pin_harness(context.pinning.client_cpus)
    servers.pin_servers(context.pinning)
    files, rows, measured = RunFiles(run.directory / "crosscheck"), [], {}
    speed_history = SpeedHistory(files.canary)
    cells = [figures for key, figures in cell_figures(run).items() if only is None or str(key) in only]
    for index, figures in enumerate(cells, start=1):
        summary = sweep_figure(figures)
        cell = Cell(files, summary.key)
        result = measure(cell, summary, context, speed_history)
        measured[summary.key.name] = result
        rows.append(row_of(summary, result))
        row = rows[-1]
        print(f"crosscheck {index}/{len(cells)} {summary.key}: sweep {summary.saturation_rps} req/s, "
              f"wrk {row['wrk_rps']} req/s at {row['wrk_connections']} connections -> {row['sweep_over_wrk']}; "
              f"oha {row.get('oha_below_rate', '-')}: {row.get('oha_below_verdict', '-')}, "
              f"{row.get('oha_above_rate', '-')}: {row.get('oha_above_verdict', '-')}", flush=True)
        write_atomically(run.directory / "crosscheck.tsv", tsv_text(COLUMNS, rows))
        write_atomically(run.directory / "crosscheck.json", json.dumps(measured, indent=2) + "\n")
    return rows


def add_arguments(parser):
    add_run_arguments(parser)
    parser.add_argument("--cells", default=None, help="only these cells, app/engine/workload comma-separated "
                        "(default: every cell of the run)")


def execute(args):
    run = chosen_run(args)
    only = chosen_cells(run, args.cells)
    if not os.access(OHA, os.X_OK):
        raise Refused(f"{OHA} is missing: run `make crosscheck` (it builds oha first)")
    drawing = [str(key) for key in cell_figures(run) if (only is None or str(key) in only)
               and workload_names.drawn(key.workload)]
    if drawing:
        raise Refused(f"oha sends one URL, and the requests of {', '.join(drawing)} draw their ids: "
                      "name the other cells with CELLS=")
    # The run's own knobs (step length, timeouts, thresholds, CPUs), so that oha is judged by the rules
    # that judged the sweep; today's for what the run did not record.
    context = RunContext.recorded(run.manifest.options)
    with from_the_client(context.topology):
        rows = measure_cells(run, context, only)
    median, lowest = agreement(rows)
    confirmed = [row["oha_agrees"] for row in rows if "oha_agrees" in row]
    print(f"crosscheck: sweep / wrk median {median}, lowest {lowest}; oha confirmed "
          f"{sum(1 for agrees in confirmed if agrees)} of {len(confirmed)} saturation points "
          f"({sum(1 for agrees in confirmed if agrees is None)} not judged); {run.directory / 'crosscheck.tsv'}")
