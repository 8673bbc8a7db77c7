"""`make spread-sources [RUN=] [CELLS=] [RESTARTS=5] [STEPS=2] [SHARE=0.6] [NO_RESTART=1]`: where a
cell's cost spread lives, between restarts of its server or within one; and
`make interleave CELLS=a,b,... [ROTATIONS=1] [SHARE=0.6] [NO_CONTROL=1] [SEED=] [DRIVER=oha]`: cells' costs against
each other at one moment.

For each chosen cell of a run (default: the latest run's located cells): RESTARTS times, its app's
server restarted (a JIT server then warmed for the cell as a round warms it), the host's price list
read on the servers' CPUs, the cell's own warm-up, then STEPS steps at SHARE of the cell's median
figure, each taken, watched and judged as a sweep's step is (a disturbed one redone). A fixed rate
below saturation keeps the search out of it: what moves is what a reply cost the servers. NO_RESTART=1
leaves the server running between the groups of steps: the control, whose "between" should be the
host's drift alone. Into results/<run>-spread-<when>/ (or -repeat-<when>/): a run folder of its own (manifest.json,
cells/<cell>/round-<restart>/steps.tsv and raw/), spread.tsv (a row per step, harness/results/spread.py)
and spread.md.

--interleave: the cells' steps by turns, each at SHARE of its own figure, nothing restarted, after
every JIT server's warm-up, in cycles whose orders are a Williams design shuffled by SEED, the first
cell's A/A twin in every cycle, into results/<run>-interleave-<when>/: spread.tsv (a cycle per
"restart") and interleave.md, every pair's ratio of CPU per reply beside the run's saturation ratio
(harness/results/interleave.py)."""
import os
import random
from datetime import datetime, timezone

from harness.drivers import oha
from harness.hosts import inventory, servers
from harness.hosts.prices import price_list
from harness.judge.disturbance import redone_while_disturbed
from harness.measure import processes
from harness.results import interleave as interleave_results
from harness.results import prices, spread
from harness.results.chosen import Refused, add_run_arguments, chosen_cells, chosen_run
from harness.results.records import DISTURBED, LOCATED
from harness.results.rounds import cell_figures
from harness.results.speed import SpeedHistory, server_cpu_count
from harness.results.store import RunFiles, tsv_text, write_atomically
from harness.run import jvm_warmup, probe
from harness.run.cell import Cell, now
from harness.run.planner import turns, walk
from harness.run.context import RunContext
from harness.run.run_manifest import write_manifest
from harness.run.session import NotReady, from_the_client
from harness.run.step import DEFAULT_DRIVER, OHA, OPEN_LOOP, take_step
from stack import registry
from stack.server import LabError


def servers_prices(context):
    """{price: the median over the servers' CPUs} read now."""
    rows = prices.price_rows(0, now(), price_list(context.pinning, context.topology.ssh))
    # Unpinned (CPUs "none"), every CPU is the client's: its list then.
    return prices.round_prices(rows).get(0) or prices.round_prices(rows, prices.CLIENT).get(0, {})


def measure(cell_key, figures, context, files, restarts, steps, share, restart, say):
    """The cell's groups of steps: spread.tsv's rows."""
    rate = round(share * figures.median.estimate, 1)
    server = registry.server_of(cell_key.app)
    speed = SpeedHistory(files.canary)
    groups = {}  # number: (its cell, the servers' prices read as it began)

    def group(number):
        """A group begun: its server restarted when asked, its JVM warmed, its cell warmed up."""
        if restart:
            say(f"{cell_key} restart {number}/{restarts}: {servers.server(server).restart(context.pinning.cpus_of(server))}")
        cell = Cell(files, cell_key, round_=number)
        if registry.jit(cell_key.app) and (restart or number == 1):
            record = jvm_warmup.warm_jvm(server, [cell_key], context, files.directory)
            if record:
                say(jvm_warmup.describe(record))
        groups[number] = cell, servers_prices(context)
        probe.warm_up(cell, context)
        return groups[number]

    def take(turn):
        number, index = turn
        cell, found = group(number) if index == 0 else groups[number]
        taken, _ = redone_while_disturbed(lambda: take_step(cell, rate, context, speed),
                                          lambda step: step.verdict == DISTURBED, context.disturbance.max_redos)
        row = spread.step_row(str(cell_key), number, taken, now(), found)
        say(f"{cell_key} group {number}/{restarts} step {taken.step}: {rate:g} req/s offered, {taken.verdict}, "
            f"{row['cpu_ms_per_reply'] or '-'} ms CPU per reply")
        if index == steps - 1:
            cell.finish()
        return row
    return [row for _, row in walk(turns(range(1, restarts + 1), range(steps)), take)]


def interleave(keys, rates, context, files, orders, control, say, keep, speed=None, step_s=None, warm_cells=True,
               driver=DEFAULT_DRIVER):
    """The cells' steps by turns, each at its own rate (`rates`, the twin at the first's), cycle by
    cycle in `orders` (each a list of member indices), after every JIT server's warm-up and, with
    `warm_cells`, each cell's own: spread.tsv's rows, "restart" holding the cycle; keep(rows) after each
    cycle. `speed`: the canary's history the steps are judged by (default: the run folder's own);
    `step_s`: each step's length (default: the plan's); `driver`: the open-loop client (step.OPEN_LOOP)."""
    speed = speed or SpeedHistory(files.canary)
    cells = [Cell(files, key) for key in keys] + ([Cell(files, keys[0], replica=2)] if control else [])
    labels = interleave_results.members([str(key) for key in keys], control)
    for server, its_keys in jvm_warmup.servers_of(keys).items():
        record = jvm_warmup.warm_jvm(server, its_keys, context, files.directory)
        if record:
            say(jvm_warmup.describe(record))
    found = servers_prices(context)
    for cell in cells[:len(keys)] if warm_cells else ():
        probe.warm_up(cell, context)
    rows = []

    def take(turn):
        cycle, index = turn
        cell, rate = cells[index], rates[index % len(keys)]
        taken, _ = redone_while_disturbed(
            lambda: take_step(cell, rate, context, speed, duration_s=step_s, driver=driver),
            lambda step: step.verdict == DISTURBED, context.disturbance.max_redos)
        rows.append(spread.step_row(labels[index], cycle, taken, now(), found))
        say(f"cycle {cycle}/{len(orders)} {labels[index]} step {taken.step}: {rate:g} req/s offered, {taken.verdict}, "
            f"{rows[-1]['cpu_ms_per_reply'] or '-'} ms CPU per reply")
        if len(rows) % len(cells) == 0:  # a cycle done: spread.tsv so far
            keep(rows)
        return rows[-1]
    walk(turns(range(1, len(orders) + 1), list(range(len(cells))), lambda cycle: orders[cycle - 1]), take)
    for cell in cells:
        cell.finish()
    return rows


def experiment(files, run_id, context, measure_cells):
    """Runs measure_cells(say, keep) -> rows from the client with the servers pinned, the manifest
    written around it; keep(rows) saves spread.tsv as it grows. The rows as text; Refused, saying where
    the steps so far are, when the lab was not ready or a server failed."""
    def keep(rows):
        write_atomically(files.directory / "spread.tsv", tsv_text(spread.COLUMNS, rows))

    try:
        with from_the_client(context.topology):
            processes.pin_harness(context.pinning.client_cpus)
            servers.pin_servers(context.pinning)
            write_manifest(files.manifest, run_id, context, servers.described_topology(context.topology), None)
            rows = measure_cells(lambda text: print(text, flush=True), keep)
            write_manifest(files.manifest, run_id, context, servers.described_topology(context.topology), None,
                           finished=True)
    except (NotReady, LabError) as problem:
        raise Refused(f"{problem}; the steps so far are in {files.directory}") from None
    return [{key: str(value) if value is not None else "" for key, value in row.items()} for row in rows]


def add_arguments(parser):
    add_run_arguments(parser, "the run id under results/ whose figures set the rates (default: the latest)")
    parser.add_argument("--cells", default=None, help="only these cells, app/engine/workload comma-separated")
    parser.add_argument("--restarts", type=int, default=5, help="groups of steps, each after a restart (default 5)")
    parser.add_argument("--steps", type=int, default=2, help="steps in each group (default 2)")
    parser.add_argument("--share", type=float, default=0.6, help="the steps' rate, of the cell's figure (default 0.6)")
    parser.add_argument("--no-restart", action="store_true", help="the control: no restart between the groups")
    parser.add_argument("--interleave", action="store_true",
                        help="the cells' steps by turns, each at SHARE of its own figure, nothing restarted")
    parser.add_argument("--rotations", type=int, default=1,
                        help="with --interleave: passes over the cycles' Williams design, in each of which every cell "
                             "takes every position once (twice for an odd count of cells and twin) (default 1)")
    parser.add_argument("--no-control", action="store_true",
                        help="with --interleave: no A/A twin of the first cell")
    parser.add_argument("--seed", type=int, default=None, help="with --interleave: the cycles' shuffle (default: random)")
    parser.add_argument("--driver", choices=sorted(OPEN_LOOP), default=DEFAULT_DRIVER,
                        help="with --interleave: the open-loop client of the steps, httperf, or oha for a second "
                             "opinion on the same measure (default httperf)")


def execute(args):
    if args.restarts < 2 or args.steps < 1 or not 0 < args.share < 1 or args.rotations < 1:
        raise Refused("RESTARTS >= 2, STEPS >= 1, ROTATIONS >= 1 and 0 < SHARE < 1", code=2)
    run = chosen_run(args)
    only = chosen_cells(run, args.cells)
    located = {str(key): (key, figures) for key, figures in cell_figures(run).items()
               if figures.median and figures.representative.status == LOCATED}
    unlocated = [name for name in only or () if name not in located]
    if unlocated:
        raise Refused(f"run {run.directory.name} located no figure for {', '.join(unlocated)}: no share of it to "
                      "offer", code=2)
    if args.driver == oha.NAME and not os.access(OHA, os.X_OK):
        raise Refused(f"{OHA} is missing: `make interleave DRIVER=oha` builds it first", code=2)
    chosen = dict(located[name] for name in (only or located))
    if args.interleave and len(chosen) < 2:
        raise Refused(f"make interleave takes two located cells or more; CELLS= names {len(chosen)}", code=2)
    context = RunContext.recorded(run.manifest.options)
    started = datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
    kind = "interleave" if args.interleave else "repeat" if args.no_restart else "spread"
    run_id = f"{run.directory.name}-{kind}-{started}"
    files = RunFiles(args.results / run_id)
    files.directory.mkdir(parents=True, exist_ok=True)
    host = inventory.host()
    machine = f"{host.get('cpu_model', '?')}, {host.get('cores', '?')} cores, boot {host.get('boot_id', '?')[:8]}"
    if args.interleave:
        keys, control = list(chosen), not args.no_control
        labels = interleave_results.members([str(key) for key in keys], control)
        medians = {str(key): figures.median.estimate for key, figures in chosen.items()}
        rates = [round(args.share * medians[str(key)], 1) for key in keys]
        seed = args.seed if args.seed is not None else random.randrange(1 << 20)
        orders = interleave_results.cycle_orders(len(labels), args.rotations, seed)
        twin = " and the first one's A/A twin" if control else ""
        print(f"interleave {run_id}: {len(keys)} cells{twin} x {len(orders)} cycles (seed {seed}), each at "
              f"{args.share:g} of its own figure, driven by {args.driver}", flush=True)
        rows = experiment(files, run_id, context,
                          lambda say, keep: interleave(keys, rates, context, files, orders, control, say, keep,
                                                       driver=args.driver))
        markdown = interleave_results.interleave_markdown(
            rows, f"{run_id} (seed {seed}, {args.driver})", {label: rates[index % len(keys)] for index, label in enumerate(labels)}, medians,
            interleave_results.saturation_ratios(labels, {str(key): chosen[key] for key in keys}), machine,
            server_cpu_count(context.pinning.server_cpus, context.pinning.db_cpus, host.get("cores", 1)))
        name = "interleave.md"
    else:
        def each_cell(say, keep):
            rows = []
            for key, figures in chosen.items():
                rows += measure(key, figures, context, files, args.restarts, args.steps, args.share,
                                not args.no_restart, say)
                keep(rows)
            return rows
        rows = experiment(files, run_id, context, each_cell)
        markdown = spread.spread_markdown(rows, run_id, args.share, machine)
        name = "spread.md"
    write_atomically(files.directory / name, markdown)
    print(markdown + f"\n(written to {files.directory / name})")
