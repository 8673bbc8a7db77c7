"""Two cells' costs set against each other at one moment (harness/run/spread.py --interleave measures
it): their steps alternated at the same offered rate, below both cells' saturation, in pairs whose
order flips (AB, BA, AB...) so that a host drifting over minutes weighs on both alike. Each pair gives
the ratio of the servers' CPU per reply, B's over A's: A's figure over B's when both saturate with
every core busy. Set beside the run's own ratio of saturation figures and of CPU per reply at
saturation, round by round. Rows are spread.tsv's (harness/results/spread.py), "restart" holding the
pair. Pure."""
import statistics

from harness.results.records import PASS
from harness.results.spread import number
from harness.results.rounds import paired_interval
from harness.results.stats import ratio_interval

PARTS = {"CPU": "cpu_ms_per_reply", "user": "user_ms_per_reply", "system": "system_ms_per_reply"}


def order(pair):
    """The two cells' order in pair 1, 2, 3...: AB, BA, AB..."""
    return (0, 1) if pair % 2 else (1, 0)


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


def shown(interval, count, unit):
    if interval is None:
        return "| - | - | - |"
    spread = (f"[{interval.low:.2f}, {interval.high:.2f}]" if interval.low is not None else "one value: no interval")
    return f"| {interval.estimate:.2f} | {spread} | {count} {unit} |"


def interleave_markdown(rows, run_id, first, second, rate, saturation, host):
    """interleave.md: the interleaved cost ratio with its interval, its parts (user, system), beside
    the run's ratios at saturation (`saturation`: run_ratios' dict and the rounds they pair)."""
    ratios, rounds = saturation
    pairs = pair_costs(rows, first, second)
    measured = interleaved_ratio(rows, first, second)
    lines = [f"# Interleaved: {first} against {second}, run {run_id}", "",
             f"On {host}. Both cells' steps alternated at {rate:g} req/s offered (below both cells' saturation), "
             "in pairs whose order flips (AB, BA...), so a slow minute of the host slows both. Only pairs whose "
             "steps both passed count. A ratio above 1 favours the first cell: its figure over the second's, "
             "or the second's CPU per reply over the first's (the same thing when both saturate with every "
             "core busy).", "",
             f"| {first} over {second} | ratio | 95 % interval | from |", "|---|---:|---|---|",
             "| saturation figures, the run's rounds " + shown(ratios["figure"], rounds, "rounds"),
             "| servers' CPU per reply at saturation, the run's rounds " + shown(ratios["cost"], rounds, "rounds")]
    for name, column in PARTS.items():
        lines.append(f"| servers' {name} per reply, interleaved " +
                     shown(interleaved_ratio(rows, first, second, column), len(pair_costs(rows, first, second, column)),
                           "pairs"))
    lines.append("")
    if measured and ratios["figure"]:
        agree = "overlap" if measured.overlaps(ratios["figure"]) else "do not overlap"
        lines.append(f"The interleaved ratio is {measured.estimate / ratios['figure'].estimate:.2f}× the saturation "
                     f"figures' ratio; their intervals {agree}.")
    if pairs:
        lines += ["", "| pair | order | " + f"{first} CPU ms / reply | {second} CPU ms / reply | ratio |",
                  "|---:|---|---:|---:|---:|"]
        for pair, mine, theirs in pairs:
            names = ("AB", "BA")[order(pair)[0]]
            lines.append(f"| {pair} | {names} | {mine:.3f} | {theirs:.3f} | {theirs / mine:.2f} |")
    else:
        lines.append("No pair has a passing step of both cells: no interleaved ratio.")
    return "\n".join(lines) + "\n"
