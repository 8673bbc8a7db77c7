"""The host's minutes in one run: of the cells' spread from round to round, how much every cell shared
(the round's common part: the host, slower or faster for all of them at once) and how much was each
cell's own (its restart, its JIT, the search's kept step). Two-way on the log, over the cells measured
in every round the most cells were: log value[cell, round] = cell + round + own, its components the
ANOVA's estimates. Set beside the price list read at each round's start. Pure."""
import math
import statistics
from collections import Counter
from dataclasses import dataclass

from harness.report.costs import cost_ms
from harness.results.prices import round_prices


@dataclass(frozen=True)
class Drift:
    rounds: list
    cells: int
    effects: dict       # {round: the cells' value in that round over their own geometric mean, shared part}
    shared: float       # sd of the log's round part beyond what the cells' own spread explains
    own: float          # sd of the log's residual: each cell's own move

    @property
    def shared_share(self):
        total = self.shared ** 2 + self.own ** 2
        return self.shared ** 2 / total if total else 0.0


def round_drift(values):
    """Drift of {cell: {round: positive value}}, or None without two cells over two common rounds."""
    counts = Counter(number for by_round in values.values() for number in by_round)
    if not counts:
        return None
    rounds = sorted(number for number, count in counts.items() if count == max(counts.values()))
    logs = [[math.log(by_round[number]) for number in rounds] for by_round in values.values()
            if all(number in by_round for number in rounds)]
    if len(logs) < 2 or len(rounds) < 2:
        return None
    cells, count = len(logs), len(rounds)
    means = [statistics.fmean(row) for row in logs]
    effects = [statistics.fmean(row[index] - mean for row, mean in zip(logs, means)) for index in range(count)]
    residual = sum((row[index] - mean - effects[index]) ** 2 for row, mean in zip(logs, means) for index in range(count))
    own = residual / ((cells - 1) * (count - 1))
    between = cells * sum(effect ** 2 for effect in effects) / (count - 1)
    return Drift(rounds, cells, {number: math.exp(effect) for number, effect in zip(rounds, effects)},
                 math.sqrt(max(0.0, (between - own) / cells)), math.sqrt(own))


def run_drift(cells):
    """{"cost": Drift of the cells' CPU per reply at saturation, "figure": of their figures}."""
    def values(read):
        return {key: {row.round: read(row) for row in figures.rows if read(row)} for key, figures in cells.items()}
    return {"cost": round_drift(values(cost_ms)), "figure": round_drift(values(lambda row: row.saturation_rps))}


def block_drifts(cells):
    """{(engine, workload): run_drift of its apps}: a round measures a block's apps next to each
    other, minutes apart, where the whole round spans a quarter of an hour or more."""
    blocks = {}
    for key, figures in cells.items():
        blocks.setdefault((key.engine, key.workload), {})[key] = figures
    return {block: found for block, apps in blocks.items() if (found := run_drift(apps))["cost"]}


def parts_text(drift):
    return f"{drift.shared:.3f} / {drift.own:.3f} ({drift.shared_share:.0%})" if drift else "-"


def drift_lines(cells, price_rows):
    """summary.md's "The host's minutes" section: per round the part every cell shared, beside the
    round's price list; how much of the spread was shared over the run and within each block."""
    found = run_drift(cells)
    cost, figure = found["cost"], found["figure"]
    if cost is None or figure is None:
        return []
    prices = round_prices(price_rows)
    lines = ["## The host's minutes: what the cells shared, round by round", "",
             f"Over the {cost.cells} cells measured in each of rounds {', '.join(map(str, cost.rounds))}: each "
             "round's common part, the cells' value in it over their own geometric mean (the host slower or "
             "faster for all of them), beside the price list read at the round's start on the servers' CPUs.", "",
             "| round | CPU per reply, shared | figure, shared | canary ms | TCP connection µs | context switch µs |",
             "|---:|---:|---:|---:|---:|---:|"]
    for number in cost.rounds:
        listed = prices.get(number, {})
        read = [f"{listed[name]:.3g}" if name in listed else "-"
                for name in ("canary_ms", "tcp_connection_us", "context_switch_us")]
        lines.append(f"| {number} | {cost.effects[number]:.3f} | {figure.effects.get(number, float('nan')):.3f} | "
                     + " | ".join(read) + " |")
    lines += ["", "The log's spread from round to round split into the part the cells shared and each cell's own "
              "(sd shared / sd own, the shared part's share of the variance), over the run and within each block "
              "of apps a round measures next to each other. A shared part is the host moving between rounds, or "
              "between a block's minutes; paired ratios, taken within a round and a block, cancel it. A cell's own "
              "part is its restart, its JIT, the search's kept step and the host's faster moves: only more rounds "
              "or cheaper ones narrow it.", "",
              "| cells | CPU per reply | figure |", "|---|---|---|",
              f"| the run's {cost.cells} | {parts_text(cost)} | {parts_text(figure)} |"]
    for (engine, workload), block in block_drifts(cells).items():
        lines.append(f"| {engine} {workload}, {block['cost'].cells} apps | {parts_text(block['cost'])} | "
                     f"{parts_text(block['figure'])} |")
    return lines + [""]
