"""Cells' costs set against each other at one moment (`make interleave`; harness/run/spread.py
measures it): their steps taken by turns, nothing restarted, each at the same share of its own
saturation figure, cycle after cycle. The cycles' orders are a Williams design (each cell in each
position equally often, each right after each other equally often), shuffled by the run's seed, so
that a host drifting over minutes weighs on every cell alike. The first cell is measured twice a
cycle, its twin the A/A control. Each cycle gives every pair's ratio of the servers' CPU per reply;
over the cycles, its geometric mean with a 95 % interval, paired by cycle: A's figure over B's when
both saturate with every core busy. Set beside the run's own ratio of saturation figures, round by
round. Rows are spread.tsv's (harness/results/spread.py), "restart" holding the cycle. Pure."""
import random
import statistics
from dataclasses import dataclass

from harness.results.records import LOCATED, PASS
from harness.results.spread import number
from harness.results.rounds import figures_of, paired_interval
from harness.results.stats import CONFIDENCE, holm, ratio_interval

CONTROL = " (A/A)"  # the first cell's twin, measured in every cycle beside it


def order(pair):
    """The two cells' order in pair 1, 2, 3...: AB, BA, AB..."""
    return (0, 1) if pair % 2 else (1, 0)


def williams(count):
    """The orders of a Williams design for `count` members (their indices): each member in each
    position once, and each right after each other once; an odd count needs the square and its
    mirror, so each twice."""
    first, low, high = [0], 1, count - 1
    for index in range(1, count):
        if index % 2:
            first, low = first + [low], low + 1
        else:
            first, high = first + [high], high - 1
    rows = [[(member + shift) % count for member in first] for shift in range(count)]
    return rows if count % 2 == 0 else rows + [row[::-1] for row in rows]


def cycle_orders(count, rotations, seed):
    """[each cycle's order of the `count` members]: the Williams design `rotations` times, each pass's
    cycles shuffled by `seed`."""
    shuffler, orders = random.Random(seed), []
    for _ in range(rotations):
        rows = williams(count)
        shuffler.shuffle(rows)
        orders += rows
    return orders


# What a sweep's turns set against each other (turn_pairs, sweep.json): the apps of one workload and
# engine, one app's engines on one workload, or both, the apps' groups first.
APPS, ENGINES = "apps", "engines"
TURN_PAIRS = {APPS: (APPS,), ENGINES: (ENGINES,), "both": (APPS, ENGINES)}


@dataclass(frozen=True)
class TurnGroup:
    """One workload's cells measured by turns in a sweep (harness/run/turns.py): one engine's apps, or
    one app's engines."""
    workload: str
    held: str        # what its cells share beside the workload: the engine (across apps) or the app
    keys: tuple      # its cells (CellKey), the A/A control's first when it is one of them
    figures: dict    # {CellKey: its median figure so far}
    control: bool    # whether the first cell's twin runs beside it
    orders: tuple    # each cycle's order of the members' indices (cycle_orders)
    across: str = APPS

    @property
    def members(self):
        """How many steps a cycle takes: each cell, and the twin."""
        return len(self.keys) + self.control

    @property
    def engine(self):
        """The engine its apps share; None for a group of one app's engines."""
        return self.held if self.across == APPS else None

    @property
    def label(self):
        """How turns.tsv names the group: "apps:single/myisam", "engines:single/php"."""
        return f"{self.across}:{self.workload}/{self.held}"


def group_label(label):
    """(across, workload, held) of a TurnGroup's label."""
    across, _, rest = label.partition(":")
    workload, _, held = rest.partition("/")
    return across, workload, held


def located_figures(summaries):
    """{CellKey: its median figure} of the cells whose figure is located, from their rounds' CellSummary
    rows (first measurements, any order)."""
    rows = {}
    for row in summaries:
        if row.replica == 1:
            rows.setdefault(row.key, []).append(row)
    found = {key: figures_of(sorted(each, key=lambda row: row.round)) for key, each in rows.items()}
    return {key: figures.median.estimate for key, figures in found.items()
            if figures.median and figures.representative.status == LOCATED}


def turn_groups(cells, figures, control, cycles, seed, pairs=APPS):
    """[TurnGroup] of a sweep's cells (in the run's order) by workload and engine, one app's engines
    by workload, or both (`pairs`, a key of TURN_PAIRS), each with two located cells or more
    (`figures`, located_figures'), in at least `cycles` cycles: whole passes of the Williams design,
    each group's shuffled by its own seed; the `control` cell first in its group, with its twin."""
    grouped = {}
    for across in TURN_PAIRS[pairs]:
        for key in cells:
            if key in figures:
                held = key.engine if across == APPS else key.app
                grouped.setdefault((across, key.workload, held), []).append(key)
    planned = []
    for number_, ((across, workload, held), keys) in enumerate(grouped.items()):
        if len(keys) < 2:
            continue
        twin = control in keys
        keys = [control, *(key for key in keys if key != control)] if twin else keys
        count = len(keys) + twin
        rotations = -(-cycles // len(williams(count)))
        planned.append(TurnGroup(workload, held, tuple(keys), {key: figures[key] for key in keys}, twin,
                                 tuple(map(tuple, cycle_orders(count, rotations, seed + number_))), across))
    return planned


def members(cells, control=True):
    """The labels a cycle measures: each cell once, and the first one's twin when `control`."""
    return [*cells, cells[0] + CONTROL] if control else list(cells)


def pairs_of(labels):
    """Every pair a cycle sets side by side: the cells two by two in their order, and the A/A twin
    against its cell alone."""
    cells = [label for label in labels if not label.endswith(CONTROL)]
    pairs = [(first, second) for index, first in enumerate(cells) for second in cells[index + 1:]]
    return pairs + [(label.removesuffix(CONTROL), label) for label in labels if label.endswith(CONTROL)]


def pair_costs(rows, first, second, column="cpu_ms_per_reply"):
    """[(pair, first's cost, second's cost)] over the pairs where both cells' steps passed (a pair's
    costs are the geometric means of each cell's passing steps in it)."""
    costs = {}
    for row in rows:
        if row["verdict"] == PASS and number(row[column]) and row["cell"] in (first, second):
            costs.setdefault(int(row["restart"]), {}).setdefault(row["cell"], []).append(number(row[column]))
    return [(pair, statistics.geometric_mean(found[first]), statistics.geometric_mean(found[second]))
            for pair, found in sorted(costs.items()) if first in found and second in found]


def interleaved_ratio(rows, first, second, column="cpu_ms_per_reply"):
    """The interval of second's cost over first's over the pairs (A's figure over B's, when both are
    bound by the servers' CPU); None without a complete pair."""
    pairs = pair_costs(rows, first, second, column)
    return ratio_interval([(theirs, mine) for _, mine, theirs in pairs]) if pairs else None


@dataclass(frozen=True)
class Judged:
    """A pair's ratio by turns and its word: `p` its p-value adjusted by Holm's over the pairs of cells of
    its table (the A/A control's own, unadjusted: a check, not a comparison), `decided` whether that p
    falls below 1 - confidence (None without an interval)."""
    ratio: object
    p: float = None

    @property
    def decided(self):
        return None if self.p is None else self.p < 1 - CONFIDENCE


def judged_pairs(tables):
    """{(A, B): Judged} of every pair of one family of tables (`tables`: [(rows, labels)], each a
    table's turns and its labels, pairs_of's order): its ratio by turns, and Holm's correction over the
    family's pairs of cells, so that a family of 24 pairs calls a ratio decided only when it would
    still be with 24 looks at the data."""
    ratios = {pair: interleaved_ratio(rows, *pair) for rows, labels in tables for pair in pairs_of(labels)}
    tested = {pair: ratio.p_value for pair, ratio in ratios.items() if ratio and ratio.p_value is not None}
    family = [pair for pair in tested if not pair[1].endswith(CONTROL)]
    adjusted = {**tested, **dict(zip(family, holm([tested[pair] for pair in family])))}
    return {pair: Judged(ratio, adjusted.get(pair)) for pair, ratio in ratios.items()}


def run_ratios(first, second):
    """From the run's rounds (two CellFigures): {"figure": first's saturation figure over second's,
    "cost": second's CPU per reply at saturation over first's}, each an Interval paired by round as
    the summary pairs its apps (rounds.paired_interval), or None where no round has both."""
    def paired(value, of_first, of_second):
        mine = {row.round: value(row) for row in of_first.rows if value(row)}
        theirs = {row.round: value(row) for row in of_second.rows if value(row)}
        shared = sorted(set(mine) & set(theirs))
        return paired_interval(mine, theirs, shared, first.first) if shared else None
    return {"figure": paired(lambda row: row.saturation_rps, first, second),
            "cost": paired(lambda row: row.server_cpu_ms_per_reply_saturation, second, first)}


def saturation_ratios(labels, cells):
    """{(A, B): (run_ratios(A, B), the rounds both measured)} for every pair of cells among `labels`
    (`cells`: {label: CellFigures}); the A/A twin has none."""
    return {(first, second): (run_ratios(cells[first], cells[second]),
                              len(set(cells[first].figures) & set(cells[second].figures)))
            for first, second in pairs_of(labels) if second in cells}


def cost(rows, label, column="cpu_ms_per_reply"):
    """(geometric mean, min, max, steps) of a label's cost over its passing steps; None without one."""
    values = [number(row[column]) for row in rows
              if row["cell"] == label and row["verdict"] == PASS and number(row[column])]
    return (statistics.geometric_mean(values), min(values), max(values), len(values)) if values else None


def median_of(rows, label, column):
    values = [number(row.get(column)) for row in rows if row["cell"] == label and row["verdict"] == PASS
              and number(row.get(column)) is not None]
    return statistics.median(values) if values else None


def ratio_text(interval):
    if interval is None:
        return "- | - | -"
    if interval.low is None:
        return f"{interval.estimate:.2f} | one cycle: no interval | -"
    return f"{interval.estimate:.2f} | [{interval.low:.2f}, {interval.high:.2f}] | ±{interval.half_width:.0%}"


def decided(judged):
    """The table's word for a pair: yes or no with its p (Holm's, but the A/A control's)."""
    if judged.p is None:
        return "-"
    return f"{'yes' if judged.decided else 'no'}, p {judged.p:.3f}" if judged.p >= 0.001 else \
        f"{'yes' if judged.decided else 'no'}, p < 0.001"


def shown(value, form):
    return "-" if value is None else f"{value:{form}}"


def cost_line(rows, label, rate):
    """A cell's row of the cost table: its costs per reply over its passing steps."""
    found = cost(rows, label)
    if found is None:
        return f"| {label} | {rate:g} | no passing step | | | | |"
    mean, low, high, _ = found
    user, system = (cost(rows, label, column) for column in ("user_ms_per_reply", "system_ms_per_reply"))
    selects, read = (median_of(rows, label, column) for column in ("db_selects_per_reply", "db_rows_per_reply"))
    return (f"| {label} | {rate:g} | {mean:.3f} [{low:.3f}–{high:.3f}] | {shown(user and user[0], '.3f')} | "
            f"{shown(system and system[0], '.3f')} | {shown(median_of(rows, label, 'reply_time_ms'), '.1f')} | "
            f"{shown(selects, 'g')} / {shown(read, 'g')} |")


def cost_table(rows, rates):
    """What a reply cost each member (`rates`: {label: req/s offered}, in order): the table's lines."""
    return ["| cell | offered (req/s) | servers' CPU per reply (ms) [min–max] | user | system | reply time (ms) | "
            "SELECTs / rows per reply |", "|---|---:|---|---:|---:|---:|---|",
            *(cost_line(rows, label, rate) for label, rate in rates.items())]


def capacity_lines(rows, labels, figures, server_cpus):
    """A line per cell: the capacity its CPU per reply predicts on `server_cpus` CPUs against the run's
    figure (`figures`: {label: median})."""
    lines = []
    for label in labels:
        found, figure = cost(rows, label), figures.get(label)
        if found and not label.endswith(CONTROL):
            predicted = server_cpus * 1000 / found[0]
            lines.append(f"- {label}: {server_cpus} CPU{'s' * (server_cpus != 1)} over {found[0]:.3f} ms a reply predicts {predicted:,.0f} req/s; "
                         + (f"the run's figure is {figure:,.0f}, {figure / predicted:.2f}× that" if figure
                            else "the run has no figure"))
    return lines


def pair_table(rows, labels, saturation, family=None):
    """Every pair's ratio with its interval, decided or not, beside the run's saturation ratio
    (`saturation`: {pair: (run_ratios' dict, rounds)}), the A/A control last: (the table's lines, the
    half-widths of the pairs of cells, how many of them are decided). `family`: judged_pairs' of the
    family the table is one of, over the table's own (its A/A control is judged on its own rows)."""
    judged = {**judged_pairs([(rows, labels)]), **(family or {})}
    lines = ["| A | B | B's CPU per reply over A's | 95 % interval | half-width | decided (Holm's p) | cycles | "
             "A's figure over B's, the run's rounds |", "|---|---|---:|---|---:|---|---:|---|"]
    widths, count = [], 0
    for first, second in pairs_of(labels):
        measured = judged[(first, second)].ratio
        ratios, rounds = saturation.get((first, second), ({}, 0))
        figure = ratios.get("figure")
        lines.append(f"| {first} | {second} | {ratio_text(measured)} | {decided(judged[(first, second)])} | "
                     f"{len(pair_costs(rows, first, second))} | "
                     + (f"{figure.estimate:.2f} [{figure.low:.2f}, {figure.high:.2f}], {rounds} rounds |"
                        if figure and figure.low is not None else "- |"))
        if measured and measured.low is not None and not second.endswith(CONTROL):
            widths.append(measured.half_width)
            count += judged[(first, second)].decided
    return lines, widths, count


def widths_line(widths, count, lead="Half-widths"):
    return (f"{lead} over the {len(widths)} pairs of cells: ±{statistics.median(widths):.0%} at the median "
            f"pair, ±{max(widths):.0%} at the widest; {count} of {len(widths)} decided (95 %, Holm's correction "
            "over the family's pairs)." if widths else "")


METHOD = ("taken by turns, nothing restarted, each at the same share of its own saturation figure, in cycles "
          "whose orders are a Williams design's (each in each position equally often). Only passing steps count; "
          "a pair counts in the cycles where both passed. A ratio above 1 favours A: B's CPU per reply over A's, "
          "which is A's figure over B's when both saturate with every core busy.")


def interleave_markdown(rows, run_id, rates, figures, saturation, host, server_cpus):
    """interleave.md: what a reply cost each cell (the servers' CPU, user and system, the reply time,
    the database's work); every pair's ratio with its interval, decided or not, beside the run's
    saturation ratio (`saturation`: {pair: (run_ratios' dict, rounds)}), the A/A control last; the
    capacity each cost predicts on `server_cpus` CPUs beside the run's figure (`figures`: {label:
    median}). `rates`: {label: req/s offered}."""
    labels = list(rates)
    cells = [label for label in labels if not label.endswith(CONTROL)]
    twin = f", and the first one's twin{CONTROL}, the A/A control," if len(cells) < len(labels) else ""
    cycles = len({row["restart"] for row in rows})
    pairs, widths, count = pair_table(rows, labels, saturation)
    lines = [f"# Measured by turns: run {run_id}", "", f"On {host}. {len(cells)} cells{twin} {METHOD} "
             f"{cycles} cycles.", "", *cost_table(rows, rates), "", *pairs, "", widths_line(widths, count), "",
             "The capacity each cell's cost predicts:", "", *capacity_lines(rows, labels, figures, server_cpus)]
    return "\n".join(lines) + "\n"
