"""`make driver-agreement RUN= CELLS=`: do Debian's httperf and the lab's large-body build
(httperf-scripts/build-httperf.sh) give the same figures where both can send? On running servers, for
each named cell of a run: warmed up as the sweep warms it, then steps at `FACTORS` x the run's
saturation rate, the two drivers alternating, `REPEATS` times each (--factors, --repeats, and
--duration for steps longer than the run's). Each step is the sweep's own (harness/run/step.py:
judged, watched, its raw output kept) in results/<run>-drivers/; agreement.tsv holds, per cell and
rate, each driver's median reply rate and reply time, their ratios, the request size each sent, and
the geometric mean of the paired reply-rate ratios (each repeat's large-body step over the Debian
step just before it, on the same server process) with its 95 % interval. Below saturation the reply
time is the figure (the reply rate is the offered one); above it, the reply rate (what the server
could serve)."""
import statistics
from dataclasses import replace

from harness.hosts import servers
from harness.measure import processes
from harness.results.chosen import Refused, add_results_argument
from harness.results.records import FAIL, PASS, CellKey
from harness.results.rounds import cell_figures
from harness.results.speed import SpeedHistory
from harness.results.stats import ratio_interval
from harness.results.store import RunFiles, load_run, tsv_text, write_atomically
from harness.run import probe
from harness.run.cell import Cell
from harness.run.context import RunContext
from harness.run.planner import turns, walk
from harness.run.session import from_the_client
from harness.run.step import take_step

FACTORS = (0.5, 1.2)
REPEATS = 3
DRIVERS = {"auto": "debian", "always": "large-body"}
COLUMNS = ["app", "engine", "workload", "rate", "debian_reply_rps", "large_reply_rps", "reply_rps_ratio",
           "paired_rps_ratio", "paired_rps_low", "paired_rps_high", "debian_reply_ms", "large_reply_ms",
           "reply_ms_ratio", "debian_request_b", "large_request_b", "debian_verdicts", "large_verdicts"]


def agreement_row(key, rate, steps):
    """Pure: one cell and rate's row from its steps [(driver, Step)] in the order taken: each driver's
    medians, the large-body build's over Debian's, and the paired ratios' interval. Only judged steps
    (pass or fail) count: a disturbed or client-limited one measured something else, and is listed
    among the verdicts only."""
    def judged(step):
        return step.verdict in (PASS, FAIL)

    def values(driver, figure):
        return [value for name, step in steps
                if name == driver and judged(step) and (value := figure(step)) is not None]

    def median(driver, figure):
        found = values(driver, figure)
        return round(statistics.median(found), 2) if found else None

    def ratio(large, debian):
        return round(large / debian, 3) if large and debian else None
    row = {"app": key.app, "engine": key.engine, "workload": key.workload, "rate": rate}
    for driver, prefix in (("debian", "debian"), ("large-body", "large")):
        row[f"{prefix}_reply_rps"] = median(driver, lambda step: step.reply_rate)
        row[f"{prefix}_reply_ms"] = median(driver, lambda step: step.reply_time_ms)
        row[f"{prefix}_verdicts"] = " ".join(step.verdict for name, step in steps if name == driver)
    row["reply_rps_ratio"] = ratio(row["large_reply_rps"], row["debian_reply_rps"])
    row["reply_ms_ratio"] = ratio(row["large_reply_ms"], row["debian_reply_ms"])
    for driver, prefix in (("debian", "debian"), ("large-body", "large")):
        sizes = sorted(set(values(driver, lambda step: step.figures.get("request_size_b"))))
        row[f"{prefix}_request_b"] = " ".join(f"{size:g}" for size in sizes)
    pairs = [(large.reply_rate, debian.reply_rate) for (first, debian), (second, large) in zip(steps, steps[1:])
             if (first, second) == ("debian", "large-body") and judged(debian) and judged(large)
             and debian.reply_rate and large.reply_rate]
    interval = ratio_interval(pairs) if pairs else None
    row["paired_rps_ratio"] = round(interval.estimate, 3) if interval else None
    row["paired_rps_low"] = round(interval.low, 3) if interval and interval.low is not None else None
    row["paired_rps_high"] = round(interval.high, 3) if interval and interval.high is not None else None
    return row


def measure_cell(cell, saturation_offered, context, speed_history, factors, repeats, duration_s):
    """The rows of one cell: a warm-up, then at each factor's rate the drivers in turn, `repeats` times."""
    probe.warm_up(cell, context)
    rates = [round(saturation_offered * factor, 1) for factor in factors]

    def take(turn):
        (place, _), build = turn
        servers.server(cell.server).recycle()
        by_build = replace(context, plan=replace(context.plan, httperf_build=build))
        return take_step(cell, rates[place], by_build, speed_history, role=f"{DRIVERS[build]} x{factors[place]:g}",
                         duration_s=duration_s)
    taken = walk(turns([(place, repeat) for place in range(len(factors)) for repeat in range(repeats)], list(DRIVERS)),
                 take)
    return [agreement_row(cell.key, rate, [(DRIVERS[build], step) for ((at, _), build), step in taken if at == place])
            for place, rate in enumerate(rates)]


def add_arguments(parser):
    parser.add_argument("--run", required=True, help="the run whose saturation rates the steps scale")
    parser.add_argument("--cells", required=True, help="app/engine/workload, comma-separated (e.g. soap-gsoap/none/echo-10)")
    parser.add_argument("--factors", default=",".join(map(str, FACTORS)),
                        help="rates as multiples of each cell's saturation rate, comma-separated")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="steps per driver and rate")
    parser.add_argument("--duration", type=float, help="seconds per step (default: the run's step length)")
    add_results_argument(parser)


def execute(args):
    factors = [float(factor) for factor in args.factors.split(",") if factor]
    run = load_run(args.results / args.run)
    figures = cell_figures(run)
    keys = [CellKey(*name.split("/")) for name in args.cells.split(",") if name]
    unknown = [str(key) for key in keys if key not in figures or not figures[key].representative.saturation_offered]
    if unknown:
        raise Refused(f"no located cell {', '.join(unknown)} in run {args.run}")
    context = RunContext.recorded(run.manifest.options)
    files = RunFiles(args.results / f"{args.run}-drivers")
    speed_history = SpeedHistory(files.canary)
    processes.pin_harness(context.pinning.client_cpus)
    servers.pin_servers(context.pinning)
    rows = []
    with from_the_client(context.topology):
        for key in keys:
            rows += measure_cell(Cell(files, key), figures[key].representative.saturation_offered, context,
                                 speed_history, factors, args.repeats, args.duration)
            write_atomically(files.directory / "agreement.tsv", tsv_text(COLUMNS, rows))
            for row in rows[-len(factors):]:
                print(f"driver-agreement {key} at {row['rate']:g}/s: reply rate {row['debian_reply_rps']} / "
                      f"{row['large_reply_rps']} ({row['reply_rps_ratio']}; paired {row['paired_rps_ratio']} "
                      f"[{row['paired_rps_low']}, {row['paired_rps_high']}]), reply ms {row['debian_reply_ms']} / "
                      f"{row['large_reply_ms']} ({row['reply_ms_ratio']})", flush=True)
    print(f"driver-agreement: {files.directory / 'agreement.tsv'}")
