"""Where a cell's cost spread lives (harness/run/spread.py measures it): the same fixed-rate steps
after each of several restarts of the cell's server, their CPU per reply split into its variance
between restarts (a process layout, a JIT's compilation) and within one (the host from minute to
minute), and how far the canary and the price list moved with it. spread.tsv, one row per step.
Pure."""
import math
import statistics
from dataclasses import dataclass

from harness.results.records import PASS

COSTS = ["user_ms_per_reply", "system_ms_per_reply", "minflt_per_reply", "vcsw_per_reply", "ivcsw_per_reply"]
PRICES = ["canary_ms", "syscall_us", "context_switch_us", "page_fault_us", "tcp_connection_us", "memcpy_gb_s",
          "fsync_us"]
# The database's work per reply, by MariaDB's count (records.DATABASE_WORK's names).
WORK = {"selects": "db_selects_per_reply", "rows": "db_rows_per_reply"}
COLUMNS = ["cell", "restart", "step", "at", "rate", "verdict", "reply_rate", "reply_time_ms", "cpu_ms_per_reply", *COSTS,
           *WORK.values(), "machine_speed", *PRICES]


def step_row(cell, restart, step, at, prices):
    """spread.tsv's row of one judged step (records.Step) after restart `restart`, with the
    price list read after that restart ({price: median on the servers' CPUs})."""
    costs, work = step.costs_per_reply(), step.database_work()
    replies = step.figures.get("replies")
    return {"cell": cell, "restart": restart, "step": step.step, "at": at, "rate": step.offered_rate,
            "verdict": step.verdict, "reply_rate": step.reply_rate, "reply_time_ms": step.reply_time_ms,
            "cpu_ms_per_reply": round(1000 * step.server_total("_cpu_s") / replies, 4) if replies else None,
            **{name: costs.get(f"server_{name}") for name in COSTS},
            **{column: work.get(name) for name, column in WORK.items()},
            "machine_speed": step.figures.get("machine_speed"), **{name: prices.get(name) for name in PRICES}}


@dataclass(frozen=True)
class Components:
    """One-way random effects on the log of a figure, groups of steps by restart."""
    restarts: int
    steps: int
    geometric_mean: float
    within: float       # sd of the log within a restart: step to step, minute to minute
    between: float      # sd of the log between restarts, beyond what the within spread explains

    @property
    def between_share(self):
        total = self.within ** 2 + self.between ** 2
        return self.between ** 2 / total if total else 0.0


def components(groups):
    """Components of [[values after restart 1], [after restart 2], ...] (positive numbers; groups with
    at least one value, two restarts or more, one with two values or more); None otherwise. The
    between-restart variance is the ANOVA estimate (MSB - MSW) / n0, floored at 0."""
    groups = [[math.log(value) for value in group] for group in groups if group]
    count = sum(len(group) for group in groups)
    if len(groups) < 2 or count <= len(groups):
        return None
    means = [statistics.fmean(group) for group in groups]
    grand = statistics.fmean(value for group in groups for value in group)
    within = sum((value - mean) ** 2 for group, mean in zip(groups, means) for value in group) / (count - len(groups))
    between = sum(len(group) * (mean - grand) ** 2 for group, mean in zip(groups, means)) / (len(groups) - 1)
    n0 = (count - sum(len(group) ** 2 for group in groups) / count) / (len(groups) - 1)
    return Components(len(groups), count, math.exp(grand), math.sqrt(within),
                      math.sqrt(max(0.0, (between - within) / n0)))


def number(value):
    return float(value) if value not in (None, "") else None


def judged(rows, cell):
    """The cell's passing steps' rows (numbers as floats), by restart."""
    by_restart = {}
    for row in rows:
        if row["cell"] == cell and row["verdict"] == PASS and number(row["cpu_ms_per_reply"]):
            by_restart.setdefault(int(row["restart"]), []).append(row)
    return by_restart


def cell_spread(rows, cell):
    """{"cost": Components of the CPU per reply, "reply_rate": of the reply rate (the load's own check:
    a fixed rate should read as itself), "canary_r": the correlation of the steps' canary slowness
    (1 / machine speed) with their cost, "prices": {price: (lowest, highest) over the restarts}}."""
    by_restart = judged(rows, cell)
    steps = [row for group in by_restart.values() for row in group]
    found = {"cost": components([[number(row["cpu_ms_per_reply"]) for row in group] for group in by_restart.values()]),
             "system": components([[number(row["system_ms_per_reply"]) for row in group if number(row["system_ms_per_reply"])]
                                   for group in by_restart.values()]),
             "user": components([[number(row["user_ms_per_reply"]) for row in group if number(row["user_ms_per_reply"])]
                                 for group in by_restart.values()])}
    paired = [(1 / number(row["machine_speed"]), number(row["cpu_ms_per_reply"])) for row in steps
              if number(row["machine_speed"])]
    slowness, cost = zip(*paired) if len(paired) > 2 else ((), ())
    found["canary_r"] = (statistics.correlation(slowness, cost)
                         if len(set(slowness)) > 1 and len(set(cost)) > 1 else None)
    found["prices"] = {}
    for price in PRICES:
        values = [number(group[0].get(price)) for group in by_restart.values() if number(group[0].get(price))]
        if values:
            found["prices"][price] = (min(values), max(values))
    return found


def spread_markdown(rows, run_id, share, host):
    """spread.md: per cell the cost per reply's spread between restarts and within one."""
    cells = list(dict.fromkeys(row["cell"] for row in rows))
    lines = [f"# Where the cost spread lives, run {run_id}", "",
             f"On {host}. Each cell's server restarted, then warmed as a round warms it, then steps at "
             f"{share:.0%} of the cell's median figure; only passing steps count. The servers' CPU per reply's "
             "log spread splits into its sd within a restart (step to step: the host over minutes) and its sd "
             "between restarts beyond that (the process layout, a JIT's compilation): the one-way ANOVA's "
             "components. The canary's r: its slowness against the steps' cost.", "",
             "| cell | restarts x steps | CPU ms / reply | sd within | sd between | between's share | user: within / between | "
             "system: within / between | canary r | price list's range (canary ms, TCP µs) |",
             "|---|---|---:|---:|---:|---:|---|---|---:|---|"]
    for cell in cells:
        found = cell_spread(rows, cell)
        cost = found["cost"]
        if cost is None:
            lines.append(f"| {cell} | too few passing steps | - | - | - | - | - | - | - | - |")
            continue
        parts = [f"{found[name].within:.3f} / {found[name].between:.3f}" if found[name] else "-"
                 for name in ("user", "system")]
        canary = "-" if found["canary_r"] is None else f"{found['canary_r']:.2f}"
        prices = found["prices"]
        ranges = ", ".join(f"{prices[name][0]:.3g}–{prices[name][1]:.3g}" for name in ("canary_ms", "tcp_connection_us")
                           if name in prices)
        lines.append(f"| {cell} | {cost.restarts} x {cost.steps / cost.restarts:.1f} | {cost.geometric_mean:.3f} | "
                     f"{cost.within:.3f} | {cost.between:.3f} | {cost.between_share:.0%} | {parts[0]} | {parts[1]} | "
                     f"{canary} | {ranges or '-'} |")
    return "\n".join(lines) + "\n"
