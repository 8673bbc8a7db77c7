"""`make crosscheck [RUN=]`: second opinions on a run's figures, from two other load generators, on
the running servers. For every cell of the run, warmed up as the sweep warms it:

- **wrk, closed loop**, a new connection per request at rising concurrency (1, 2, 4, ... 64), until two
  levels in a row fall short of the best by more than a tenth; then, the server's pool recycled as
  after a sweep's failing step, more runs at the best level, whose median is the cell's closed-loop
  capacity. wrk waits for each reply before the next request,
  httperf does not, so sweep / wrk near 1 is agreement and a cell far below 1 is a figure to explain.
- **oha, open loop** like httperf, at 0.9x and 1.1x the sweep's saturation rate, judged by the sweep's
  own rules (harness/judge/verdict.py, the same timeout): the sweep's point is confirmed when the rate
  below passes and the rate above fails.

Every run is watched like a sweep step: one that other work disturbed is redone (bounded). Into
the run's folder: crosscheck.tsv (per cell, both opinions beside the sweep's figure) and
crosscheck.json (every run's figures); oha's reports under each cell's raw/."""
import json
import os
import resource
import statistics
from dataclasses import replace

from harness.drivers import Window, oha
from harness.hosts import servers
from harness.hosts.watch import watching
from harness.judge.disturbance import redone_while_disturbed
from harness.judge.verdict import judge
from harness.measure import load, processes
from harness.results.records import CLIENT_LIMITED, DISTURBED, LOCATED, PASS
from harness.results.rounds import cell_figures
from harness.results.chosen import Refused, add_run_arguments, chosen_cells, chosen_run
from harness.results.store import RunFiles, tsv_text, write_atomically
from harness.run import probe
from harness.run.cell import Cell
from harness.run.context import RunContext, crosscheck_settings, profile_for
from harness.run.session import from_the_client
from stack import registry, settings

OHA = settings.OPT / "oha" / "bin" / "oha"
COLUMNS = ["app", "engine", "workload", "status", "sweep_rps", "wrk_rps", "sweep_over_wrk", "wrk_connections",
           "wrk_runs", "oha_below_rate", "oha_below_verdict", "oha_below_p50_ms", "oha_below_p99_ms",
           "oha_above_rate", "oha_above_verdict", "oha_agrees", "redone_runs"]


def ladder_done(levels, drop):
    """Pure: whether the ladder can stop: the last two levels both below (1 - drop) x the best."""
    rates = list(levels.values())
    best = max(rates, default=0)
    return len(rates) >= 3 and all(rate < (1 - drop) * best for rate in rates[-2:])


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


class Watched:
    """Runs a load generator under the step monitors; a run that other work disturbed is redone, at
    most max_redos times (the last one is kept, flagged)."""

    def __init__(self, context):
        self.context = context
        self.redone = 0

    def __call__(self, run):
        def attempt():
            with watching(self.context) as watch:
                result = run()
            return result, watch.disturbed(), watch.figures
        (result, shared, figures), redos = redone_while_disturbed(attempt, lambda taken: taken[1],
                                                                  self.context.disturbance.max_redos)
        self.redone += redos
        return result, shared, figures


def wrk_ladder(cell, watched, directory):
    """The closed-loop capacity: the ladder, then repeats at its best level; their median."""
    window = max(crosscheck_settings()["window_s"], profile_for(cell.key.workload).warmup_window_s)
    client_cpus = watched.context.pinning.client_cpus

    def wrk(connections):
        run = Window(cell.request, window, connections, watched.context.plan.keepalive)
        result, shared, _ = watched(lambda: load.run_window(run, client_cpus, directory))
        return result["replies_per_s"], shared

    levels, disturbed = {}, []
    for connections in [level for level in crosscheck_settings()["connections"] if level <= crosscheck_settings()["ladder_most"]]:
        levels[connections], shared = wrk(connections)
        disturbed += [shared] if shared else []
        if ladder_done(levels, crosscheck_settings()["drop"]):
            break
    best = max(levels, key=levels.get)
    # The levels above the best grew Apache's prefork pool, and the repeats would measure that pool
    # (docs/measurement-log.md: 2,451-2,579 req/s against 2,837-2,847 after a recycle).
    recycled = servers.server(cell.server).recycle()
    runs = []
    for _ in range(crosscheck_settings()["repeats"]):
        rate, shared = wrk(best)
        runs.append(rate)
        disturbed += [shared] if shared else []
    return {"window_s": window, "ladder": levels, "connections": best, "recycled": recycled, "runs": runs,
            "median": round(statistics.median(runs), 2), "disturbed": disturbed}


def oha_run(cell, rate, watched):
    """One open-loop run at `rate`, the sweep's step length and timeout, judged by the sweep's rules."""
    context = watched.context
    profile = profile_for(cell.key.workload)
    # As after a sweep's failing step: wrk's repeats at the ladder's best level (up to 64 connections)
    # grew Apache's prefork pool again, and oha would otherwise measure that pool, not the server the
    # sweep measured.
    recycled = servers.server(cell.server).recycle()
    timeout_s = load.step_timeout(rate, context.plan.timeout_for(profile), context.plan.fd_budget)
    planned = context.plan.requests(rate)
    most = resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 100
    cap = registry.connection_cap(cell.key.app)
    if context.plan.keepalive and cap:
        # Kept alive, a connection past the server's cap waits in its backlog until one of the others
        # closes, 1,000 requests later: its requests time out unanswered (run ka-3: oha's 887
        # connections to Tomcat's 200 at 0.9x the pooled servlet's figure, 53 % timeouts).
        most = min(most, cap[0])
    database = cell.directory / "raw" / "oha-requests.sqlite"
    body_file = cell.directory / "raw" / "oha-body.txt"
    write_atomically(body_file, cell.request.body)
    command = oha.command(OHA, cell.request, rate, planned, timeout_s, most, database, body_file,
                               context.plan.keepalive)
    wall_limit = load.wall_limit(planned, rate, timeout_s)
    (report, ends, text), shared, watch_figures = watched(
        lambda: load.run_oha(command, wall_limit, context.pinning.client_cpus, database))
    measured = oha.figures(report, rate, planned, ends) if report else None
    raw = cell.directory / "raw" / f"oha-rate-{rate:g}.json"
    write_atomically(raw, json.dumps({"command": text, "reply_rate_sampled": measured and measured["reply_rate"],
                                      "report": report}, indent=1) + "\n")
    verdict, reason = judge(measured, rate, timeout_s, planned, killed=report is None,
                            thresholds=context.thresholds)
    if shared:
        verdict, reason = DISTURBED, f"{shared}; not judged (would have been: {verdict}, {reason})"
    return {"rate": rate, "timeout_s": timeout_s, "requests": planned, "verdict": verdict, "reason": reason,
            "recycled": recycled,
            "figures": {**(measured or {}), **watch_figures}, "raw": str(raw.relative_to(cell.directory))}


def measure(cell, summary, context):
    watched = Watched(context)
    result = {"warmup": probe.warm_up(cell, context)}
    result["wrk"] = wrk_ladder(cell, watched, cell.directory)
    if summary.status == LOCATED:
        result["oha"] = [oha_run(cell, round(summary.saturation_offered * factor, 1), watched)
                         for factor in crosscheck_settings()["oha_factors"]]
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
    files, rows, measured = RunFiles(run.directory), [], {}
    cells = [figures for key, figures in cell_figures(run).items() if only is None or str(key) in only]
    for index, figures in enumerate(cells, start=1):
        summary = sweep_figure(figures)
        cell = Cell(files, summary.key)
        result = measure(cell, summary, context)
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
