"""`make crosscheck [RUN=]`: a second opinion on a run's figures. For every cell of the run, on the
running servers: closed-loop wrk with a new connection per request at rising concurrency (1, 2,
4, ...), until two levels in a row fall short of the best by more than a tenth; then more runs at
the best level, whose median is the cell's closed-loop capacity. Into the run's folder:
crosscheck.tsv, the sweep's figure beside wrk's and their ratio per cell, and crosscheck.json, every
wrk figure. Closed loop and open loop measure different things - wrk waits for each reply before
the next request, httperf does not - so a ratio near 1 is agreement, and a cell far below 1 is a
figure to explain before believing it."""
import argparse
import json
import statistics
import sys
from pathlib import Path

from harness import load, monitors
from harness.options import PROFILES, RESULTS, SWEEP
from harness.results.store import ResultsError, RunFiles, latest_run, load_run, tsv_text, write_atomically
from stack import lab, lifecycle, registry, settings

SETTINGS = SWEEP["crosscheck"]
COLUMNS = ["app", "engine", "workload", "status", "sweep_rps", "wrk_rps", "sweep_over_wrk", "wrk_connections",
           "wrk_runs"]


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


def measure(request, workload, client_cpus, directory):
    window = max(SETTINGS["window_s"], PROFILES[workload].warmup_window_s)
    levels = {}
    for connections in SETTINGS["connections"]:
        levels[connections] = load.wrk_throughput(request, window, connections, client_cpus, directory)["replies_per_s"]
        if ladder_done(levels, SETTINGS["drop"]):
            break
    best = max(levels, key=levels.get)
    runs = [load.wrk_throughput(request, window, best, client_cpus, directory)["replies_per_s"]
            for _ in range(SETTINGS["repeats"])]
    return {"window_s": window, "ladder": levels, "connections": best, "runs": runs,
            "median": round(statistics.median(runs), 2)}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", help="the run id under results/ (default: the latest run)")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    try:
        run = load_run(args.results / args.run if args.run else latest_run(args.results))
    except ResultsError as error:
        print(f"crosscheck: {error}", file=sys.stderr)
        return 1
    problems = lab.verify(lifecycle.SERVERS["mariadb"])
    if problems:
        print("crosscheck: the servers are not up with the data: " + "; ".join(problems) + " (run `make up import`)",
              file=sys.stderr)
        return 1
    client_cpus = settings.knob("CLIENT_CPUS")
    monitors.pin_harness(client_cpus)
    monitors.pin_servers(settings.knob("SERVER_CPUS"))
    files, rows, measured = RunFiles(run.directory), [], {}
    for index, summary in enumerate(run.saturation, start=1):
        key = summary.key
        request = registry.request(key.app, key.workload, engine=key.engine)
        result = measure(request, key.workload, client_cpus, files.cell(key))
        measured[key.name] = result
        ratio = round(summary.saturation_rps / result["median"], 2) if summary.saturation_rps and result["median"] else None
        rows.append({"app": key.app, "engine": key.engine, "workload": key.workload, "status": summary.status,
                     "sweep_rps": summary.saturation_rps, "wrk_rps": result["median"], "sweep_over_wrk": ratio,
                     "wrk_connections": result["connections"], "wrk_runs": " ".join(f"{rate:g}" for rate in result["runs"])})
        print(f"crosscheck {index}/{len(run.saturation)} {key}: sweep {summary.saturation_rps} req/s, wrk "
              f"{result['median']} req/s at {result['connections']} connections -> {ratio}", flush=True)
        write_atomically(run.directory / "crosscheck.tsv", tsv_text(COLUMNS, rows))
        write_atomically(run.directory / "crosscheck.json", json.dumps(measured, indent=2) + "\n")
    median, lowest = agreement(rows)
    print(f"crosscheck: sweep / wrk median {median}, lowest {lowest}; {run.directory / 'crosscheck.tsv'}")
    return 0
