"""summary.md's lead, from a sweep's turns (turns.tsv, harness/run/turns.py): what a request cost each
app at one moment and by how much they differ, a table per group (a workload and engine's apps, or an
app's engines on a workload: TURN_PAIRS) with every pair's ratio marked decided or not; and after the saturation tables, the capacity each cost predicts against the
figure the rounds measured. Pure: a view in, lines out."""
import math
import statistics

from harness.measure.prices import BY_NAME
from harness.report.costs import named_moves, price_moves, ratio_text
from harness.results.interleave import (APPS, CONTROL, METHOD, capacity_lines, cost, cost_table, group_label,
                                        interleaved_ratio, judged_pairs, pair_costs, pair_table, pairs_of,
                                        saturation_ratios, widths_line)
from harness.results.spread import number
from harness.results.speed import server_cpu_count
from harness.results.records import CellKey
from stack.workload_names import workload_title


def groups(run):
    """{(across, workload, held): [its labels]} of the run's turns (turns.tsv's rows, by their group:
    harness/results/interleave.py TurnGroup), in the order first measured, each group's cells in the
    run's order of apps and then of engines (so that two runs name a pair alike), the A/A twin last. A run from before
    the rows named their group had one group per workload and engine."""
    found = {}
    for row in run.turns:
        key = CellKey(*row["cell"].removesuffix(CONTROL).split("/"))
        group = group_label(row["group"]) if row.get("group") else (APPS, key.workload, key.engine)
        labels = found.setdefault(group, [])
        if row["cell"] not in labels:
            labels.append(row["cell"])
    apps, engines = list(run.manifest.apps), list(run.manifest.options.get("engines") or ())

    def place(label):
        app, engine = label.removesuffix(CONTROL).split("/")[:2]
        return (label.endswith(CONTROL), apps.index(app) if app in apps else len(apps),
                engines.index(engine) if engine in engines else len(engines), label)
    return {group: sorted(labels, key=place) for group, labels in found.items()}


def group_rows(rows, group, labels):
    """The turns' rows of one group: its labels' steps taken in it (a cell of two groups, TURN_PAIRS'
    both, has its steps in each)."""
    label = f"{group[0]}:{group[1]}/{group[2]}"
    return [row for row in rows if row["cell"] in labels and row.get("group", label) == label]


def group_heading(view, group, labels):
    """"16,000 rows, MyISAM" for one engine's apps; "16,000 rows, php: MyISAM against InnoDB" for one
    app's engines (its labels', in their order)."""
    across, workload, held = group
    if across == APPS:
        return f"{workload_title(workload)}, {view.engine_title(held)}"
    engines = dict.fromkeys(label.removesuffix(CONTROL).split("/")[1] for label in labels)
    return f"{workload_title(workload)}, {held}: " + " against ".join(map(view.engine_title, engines))


def rates_of(rows, labels):
    return {label: float(next(row["rate"] for row in rows if row["cell"] == label)) for label in labels}


def server_cpus(manifest):
    """How many CPUs the servers and the database had: the capacity a cost predicts is theirs."""
    options = manifest.options
    return server_cpu_count(options.get("server_cpus"), options.get("db_cpus"), manifest.host.get("cores", 1))


def turn_lines(view):
    """summary.md's first section: per workload and engine, each app's cost and every pair's ratio; [] for
    a run without turns."""
    rows = view.run.turns
    if not rows:
        return []
    options = view.manifest.options
    cells = {str(key): figures for key, figures in view.cells.items()}
    lines = ["## What a request costs each app, and by how much they differ", "",
             f"Measured by turns once the first {options['rounds']} round(s) had located the cells: each workload and "
             f"engine's cells {METHOD} "
             f"Each at {options.get('turn_share', 0):g} of its figure so far; the servers' CPU per reply is their "
             "processes' user and system time over the step's 2xx replies. A pair is decided when its p-value "
             "(the paired t-test its interval inverts), after Holm's correction over every pair of its family, "
             "is below 0.05: the apps' tables are one family, the engines' another. The saturation tables "
             "follow, each cell's own intervals from its rounds.", ""]
    every, decided, controls, found, judged = [], 0, [], groups(view.run), judged_ratios(view.run)
    for group, labels in found.items():
        mine = group_rows(rows, group, labels)
        family = {pair: judged[pair] for pair in pairs_of(labels) if not pair[1].endswith(CONTROL)}
        pairs, widths, count = pair_table(mine, labels, saturation_ratios(labels, cells), family)
        every, decided = every + widths, decided + count
        controls += [interleaved_ratio(mine, label.removesuffix(CONTROL), label) for label in labels
                     if label.endswith(CONTROL)]
        lines += [f"### {group_heading(view, group, labels)}: {len({row['restart'] for row in mine})} cycles", "", *cost_table(mine, rates_of(mine, labels)), "",
                  *pairs, "", widths_line(widths, count), ""]
    overall = [f"All {len(found)} groups together: " + widths_line(every, decided, "half-widths")] if every and len(found) > 1 else []
    overall += [f"The A/A control reads {control.estimate:.2f} [{control.low:.2f}, {control.high:.2f}]; it should "
                "read 1." for control in controls if control and control.low is not None]
    return lines + ([" ".join(overall), ""] if overall else [])


def capacity_section(view):
    """After the saturation tables: a line per cell, the capacity its cost by turns predicts against its
    figure; [] for a run without turns."""
    rows, apps_groups = view.run.turns, {group: labels for group, labels in groups(view.run).items() if group[0] == APPS}
    if not rows or not apps_groups:
        return []
    figures = {str(key): figures.median.estimate for key, figures in view.cells.items() if figures.median}
    lines = ["## The cost by turns against the saturation figure", "",
             "The servers' CPUs over a cell's CPU per reply is the rate it could reach with every one of them busy "
             "on it alone. The two are measured apart: the cost under httperf's open loop at a share of the figure, "
             "the figure at the step where replies fell behind. What a reply costs also moves with how requests "
             "arrive: on an Intel Xeon VM (canary 3.6–4.4 ms), a reply of the pooled servlet near its figure cost "
             "Tomcat 1.3–3.6× as much under this open loop as under wrk's closed loop at 4–64 connections, and the "
             "less busy the server the more wake-ups a reply paid (docs/results.md, \"The pooled servlet's open and "
             "closed loops\"; `make crosscheck` reads a run's cells under wrk).", ""]
    # One app's engines stand aside: each of their cells is in an apps' group too, or stands alone.
    for group, labels in apps_groups.items():
        lines += [f"{group_heading(view, group, labels)}:", "",
                  *capacity_lines(group_rows(rows, group, labels), labels, figures, server_cpus(view.manifest)), ""]
    return lines


def pair_ratios(run):
    """{(A, B): Interval of B's CPU per reply over A's} of every pair the run took by turns, for setting
    two runs side by side."""
    ratios = {}
    for group, labels in groups(run).items():
        mine = group_rows(run.turns, group, labels)
        ratios.update({pair: interleaved_ratio(mine, *pair) for pair in pairs_of(labels)})
    return ratios


def interval_text(ratio):
    return f"{ratio.estimate:.2f} [{ratio.low:.2f}, {ratio.high:.2f}]" if ratio.low is not None else f"{ratio.estimate:.2f}"


def side_by_side_lines(run, other, heading="#"):
    """make compare's section: every pair both runs measured by turns, each run's ratio with its interval
    and whether the two overlap; [] unless both have turns."""
    mine, theirs = pair_ratios(run), pair_ratios(other)
    shared = [pair for pair, ratio in mine.items() if ratio and theirs.get(pair)]
    if not shared:
        return []
    first, second = run.manifest.run_id, other.manifest.run_id
    lines = ["", f"{heading}# Every pair's cost ratio by turns", "",
             "B's CPU per reply over A's, each run's with its 95 % interval over its cycles; where the intervals "
             "overlap, the two runs do not tell the pair's ratio apart.", "",
             f"| A | B | {first} | {second} | second / first | overlap |", "|---|---|---:|---:|---:|---|"]
    apart = []
    for pair in shared:
        a, b = mine[pair], theirs[pair]
        overlap = "-" if a.low is None or b.low is None else "yes" if a.overlaps(b) else "no"
        lines.append(f"| {pair[0]} | {pair[1]} | {interval_text(a)} | {interval_text(b)} | "
                     f"{b.estimate / a.estimate:.2f} | {overlap} |")
        apart += [pair] if overlap == "no" else []
    if apart:
        price_pairs = price_moves(turn_prices(run.turns), turn_prices(other.turns))
        lines += ["", f"Where the intervals do not overlap: each cell's CPU per reply over its turns, {second} over "
                  f"{first}; the cell that moved more, at which offered rates, and the CPU time that carried its move; "
                  "and the host's prices of that time, read at the turns, that moved the same way (user time: the "
                  "canary, memory bandwidth; system time: the kernel's).",
                  "", *(pair_move_line(pair, run.turns, other.turns, price_pairs) for pair in apart)]
    return lines


def turn_prices(rows):
    """{price: its median over the turns' rows} of the host's prices each turn recorded."""
    found = {name: [number(row.get(name)) for row in rows if number(row.get(name))] for name in BY_NAME}
    return {name: statistics.median(values) for name, values in found.items() if values}


def cost_move(rows, other_rows, label):
    """{"cpu", "user", "system"}: the label's cost per reply by turns, (first run's ms, second's)."""
    moves = {}
    for part in ("cpu", "user", "system"):
        first, second = cost(rows, label, f"{part}_ms_per_reply"), cost(other_rows, label, f"{part}_ms_per_reply")
        if first and second:
            moves[part] = (first[0], second[0])
    return moves


def pair_move_line(pair, rows, other_rows, price_pairs):
    """Pure: a pair whose ratio moved between two runs, in words: each cell's cost's move, the cell
    that moved more and the CPU time that carried its move, and the prices of that time that moved
    the same way (`price_pairs`: price_moves' (words, dearer in the second) pairs)."""
    moves = {label: cost_move(rows, other_rows, label) for label in pair}
    if not all("cpu" in move for move in moves.values()):
        return f"- {pair[0]} against {pair[1]}: no cost per reply in both runs"

    def ratio(label, part="cpu"):
        first, second = moves[label][part]
        return second / first
    carrier = max(pair, key=lambda label: abs(math.log(ratio(label))))
    changes = {part: moves[carrier][part][1] - moves[carrier][part][0] for part in ("user", "system")
               if part in moves[carrier]}
    carried_in = max(changes, key=lambda part: abs(changes[part])) if changes else None
    names = {price.about for price in BY_NAME.values() if price.paid_in == carried_in}
    along = named_moves((what, dearer) for what, dearer in price_pairs
                        if what in names and (dearer > 1) == (ratio(carrier) > 1))
    verdict = (f"prices of its {carried_in} time that moved with it: {', '.join(along)}" if along else
               f"no price of its {carried_in} time moved with it: the move is {carrier}'s own" if carried_in else
               "no user and system time to split it")
    offered = " and ".join(f"{rates_of(each, [carrier])[carrier]:,.0f}" for each in (rows, other_rows))
    return (f"- {pair[0]} against {pair[1]}: the ratio moved {ratio(pair[1]) / ratio(pair[0]):.2f}x; {pair[1]}'s CPU "
            f"per reply {ratio_text(ratio(pair[1]))}, {pair[0]}'s {ratio_text(ratio(pair[0]))}. {carrier} moved more "
            f"(offered {offered} req/s)" + (f", in its {carried_in} time ({ratio_text(ratio(carrier, carried_in))}); "
                                            if carried_in else "; ") + verdict)


def judged_ratios(run):
    """{(A, B): Judged} of every pair the run took by turns. A family is every group of one kind: the
    ways of serving (each workload and engine's apps) together, and the engines (each app's) together,
    as a page sets each in one table."""
    found, judged = groups(run), {}
    for kind in dict.fromkeys(group[0] for group in found):
        judged.update(judged_pairs([(group_rows(run.turns, group, labels), labels)
                                    for group, labels in found.items() if group[0] == kind]))
    return judged


def pairs_document(run):
    """results.json's `pairs`: every pair's ratio by turns, its interval and cycles, and whether it is
    decided after Holm's correction over its table (`p`, the adjusted p-value)."""
    return [{"a": first, "b": second, "ratio": each.ratio.estimate, "low": each.ratio.low,
             "high": each.ratio.high, "cycles": len(pair_costs(run.turns, first, second)),
             "p": each.p, "decided": bool(each.decided)}
            for (first, second), each in judged_ratios(run).items() if each.ratio]
