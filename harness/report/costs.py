"""Why a figure moved, from what the run recorded: the host's price list (prices.tsv), what a reply
cost the servers at saturation (user and system CPU, faults, context switches: CellSummary.costs) and
how busy they were there. Pure: loaded runs in, lines out.

A CPU-bound cell's figure is how busy its servers were at saturation over what a reply cost them:
replies/s = busy cores / CPU s per reply. So a figure that moved between two rounds, or two runs,
splits exactly into its cost (the servers needed more or less CPU per reply: the host's prices, a
JIT, a process layout) and its busy share at the saturation step the search kept (how close to a
full core the search got before a step failed: the search's own precision, the reply-time rule).
On the log scale the two add up, so a cell's spread over its rounds splits into the same parts."""
import math
import statistics

from harness.measure.prices import BY_NAME, REPEATS
from harness.results.prices import SERVERS, run_prices, round_prices

# A cell whose rounds' interval is wider than this (the half-width, as RoundSpread's) gets its
# fastest and slowest rounds set side by side.
WIDE = 0.10
# A ratio nearer 1 than this is "held"; further, it is named.
MOVED = 0.10
COST_WORDS = {"server_user_ms_per_reply": "user time per reply", "server_system_ms_per_reply": "system time per reply",
              "server_minflt_per_reply": "minor faults per reply", "server_vcsw_per_reply":
              "voluntary context switches per reply", "server_ivcsw_per_reply": "involuntary context switches per reply"}


def cost_ms(row):
    """The servers' CPU ms per reply at saturation, or None."""
    return row.server_cpu_ms_per_reply_saturation


def busy_cores(row):
    """How many cores the servers kept busy at the saturation step: figure x CPU per reply."""
    cost = cost_ms(row)
    return row.saturation_rps * cost / 1000 if row.saturation_rps and cost else None


def ratio_text(value):
    return f"{value:.2f}x"


def named_moves(pairs):
    """Pure: "what ratio" for the (what, ratio) pairs that moved by more than MOVED, the largest
    move first."""
    moved = [(what, ratio) for what, ratio in pairs if ratio > 0 and abs(math.log(ratio)) > math.log(1 + MOVED)]
    return [f"{what} {ratio_text(ratio)}" for what, ratio in sorted(moved, key=lambda pair: -abs(math.log(pair[1])))]


def price_moves(mine, theirs):
    """(words, ratio) of each price in both lists, as "costs that much more here": a time's ratio
    theirs / mine, a bandwidth's mine / theirs (so above 1 is always dearer in `theirs`)."""
    pairs = []
    for name, value in theirs.items():
        if name in mine and mine[name] and value:
            price = BY_NAME.get(name)
            ratio = mine[name] / value if price and price.higher_is_faster else value / mine[name]
            pairs.append((price.about if price else name, ratio))
    return pairs


def cost_split(first, second):
    """Pure: how the figure moved from row `first` to row `second` (CellSummary of two rounds or two
    runs), split: {"figure", "cost", "busy"} ratios second / first, with figure = busy / cost, and the
    costs per reply's ratios {"parts"}, and the share of the cost's change user time carried
    {"user_share"}. None when either lacks the servers' cost."""
    if not (first.saturation_rps and second.saturation_rps and cost_ms(first) and cost_ms(second)):
        return None
    split = {"figure": second.saturation_rps / first.saturation_rps, "cost": cost_ms(second) / cost_ms(first),
             "busy": busy_cores(second) / busy_cores(first)}
    mine, theirs = first.costs(), second.costs()
    split["parts"] = {name: theirs[name] / mine[name] for name in COST_WORDS if mine.get(name) and theirs.get(name)}
    user, system = (f"server_{part}_ms_per_reply" for part in ("user", "system"))
    if user in mine and system in mine and user in theirs and system in theirs:
        # Of the cost's change in ms, the share user time carried (the rest, system time's).
        change = (theirs[user] + theirs[system]) - (mine[user] + mine[system])
        split["user_share"] = (theirs[user] - mine[user]) / change if abs(change) > 1e-9 else None
    return split


def split_words(split):
    """Pure: a cost_split in words."""
    words = [f"the servers' CPU per reply {ratio_text(split['cost'])}",
             f"their busy share at saturation {ratio_text(split['busy'])}"]
    parts = named_moves((COST_WORDS[name], ratio) for name, ratio in split["parts"].items())
    if parts:
        words.append("of the costs per reply: " + ", ".join(parts))
    return words


def carried_by(split):
    """Pure: which part carried the figure's move: "cost", "busy" or "both" (each at least a third
    of it on the log scale), or "nothing" when the figure held."""
    total = math.log(split["figure"])
    if abs(total) <= math.log(1 + MOVED) / 2:
        return "nothing"
    cost, busy = -math.log(split["cost"]), math.log(split["busy"])
    cost_share = cost / total
    if cost_share >= 2 / 3:
        return "cost"
    if busy / total >= 2 / 3:
        return "busy"
    return "both"


CARRIED = {"cost": "carried by what a reply cost the servers", "busy": "carried by how busy the servers were at the "
           "step the search kept (the search's precision and its reply-time rule), not by what a reply cost",
           "both": "carried by both what a reply cost and how busy the servers were at the step kept",
           "nothing": "the figure held"}


def moved_lines(cells, price_rows):
    """summary.md's "What moved" section: for every cell whose rounds' interval is wider than ±WIDE,
    its slowest round against its fastest: the figure's ratio, split into cost and busy share, the
    costs per reply that moved, the canary's and the price list's moves between those rounds'
    starts, and whether a server was restarted within either round's cell."""
    lines = []
    by_round = round_prices(price_rows)
    for key, figures in cells.items():
        measured = [row for row in figures.rows if row.saturation_rps]
        if len(measured) < 2 or figures.geometric is None or (figures.geometric.half_width or 0) <= WIDE:
            continue
        fast, slow = max(measured, key=lambda row: row.saturation_rps), min(measured, key=lambda row: row.saturation_rps)
        split = cost_split(fast, slow)
        if split is None:
            continue
        words = split_words(split)
        prices = named_moves(price_moves(by_round.get(fast.round, {}), by_round.get(slow.round, {})))
        words.append("the price list at the rounds' starts: " + (", ".join(prices) if prices else "held"))
        if fast.machine_speed_saturation and slow.machine_speed_saturation:
            words.append(f"the canary's speed at saturation {ratio_text(slow.machine_speed_saturation / fast.machine_speed_saturation)}")
        restarted = [f"round {row.round}" for row in (fast, slow) if row.restarts]
        words.append(f"a server restarted within the cell in {' and '.join(restarted)}" if restarted
                     else "no server restarted within either")
        lines.append(f"- **{key}** (±{figures.geometric.half_width:.0%}): round {slow.round} read "
                     f"{slow.saturation_rps:,.1f} against round {fast.round}'s {fast.saturation_rps:,.1f}, "
                     f"{ratio_text(split['figure'])}, {CARRIED[carried_by(split)]}: {'; '.join(words)}.")
    if not lines:
        return []
    return ["## What moved between a cell's fastest and slowest round", "",
            f"The cells whose rounds spread wider than ±{WIDE:.0%} (the 95 % interval's half-width). A "
            "figure is the servers' busy cores at saturation over their CPU per reply, so its move splits "
            f"into those two; a ratio is named when it moved more than {MOVED:.0%} (slowest round over "
            "fastest; for the price list, how much dearer the slow round's host was).", "", *lines, ""]


def spread_parts(figures):
    """Pure: where a cell's spread over its rounds lives: {"figure", "cost", "busy"} the standard
    deviations of their logs over the rounds, "r" the correlation of log cost and log busy share,
    and "lives" where: "cost" (what a reply cost moved the figure), "busy" (the saturation step the
    search kept did), "both", or "not the CPU" (the cost moved and the busy share with it, so the
    figure held: what limits it is not the servers' CPU). None with fewer than three rounds."""
    rows = [row for row in figures.rows if row.saturation_rps and cost_ms(row)]
    if len(rows) < 3:
        return None
    logs = {"figure": [math.log(row.saturation_rps) for row in rows], "cost": [math.log(cost_ms(row)) for row in rows],
            "busy": [math.log(busy_cores(row)) for row in rows]}
    parts = {name: statistics.stdev(values) for name, values in logs.items()}
    moved = parts["cost"] > 0 and parts["busy"] > 0
    parts["r"] = statistics.correlation(logs["cost"], logs["busy"]) if moved else None
    # log figure = log busy - log cost: its variance is theirs less twice their covariance.
    if parts["r"] is not None and parts["r"] > 0.7 and parts["cost"] > 2 * parts["figure"]:
        parts["lives"] = "not the CPU"
    elif parts["cost"] ** 2 >= 2 * parts["busy"] ** 2:
        parts["lives"] = "cost"
    elif parts["busy"] ** 2 >= 2 * parts["cost"] ** 2:
        parts["lives"] = "busy"
    else:
        parts["lives"] = "both"
    return parts


LIVES = {"cost": "what a reply cost", "busy": "the step the search kept", "both": "both",
         "not the CPU": "neither: the cost moved and the busy share with it (not CPU-bound)"}


def spread_lines(cells):
    """summary.md's "Where the spread lives" table: per cell with three rounds or more, its rounds'
    spread split into what a reply cost and how busy the servers were at the step kept."""
    rows = [(key, parts) for key, figures in cells.items() if (parts := spread_parts(figures))]
    if not rows:
        return []
    lines = ["## Where each cell's spread lives", "",
             "Over a cell's rounds, the standard deviation of the log figure, of the log CPU per reply (what a "
             "reply cost: the host, the process layout, the JIT) and of the log busy share at saturation (how "
             "close to a full core the search's kept step got), and how the last two moved together; the "
             "figure's log is the busy share's less the cost's.", "",
             "| cell | sd log figure | sd log cost | sd log busy | r (cost, busy) | the spread lives in |",
             "|---|---:|---:|---:|---:|---|"]
    for key, parts in rows:
        r = "-" if parts["r"] is None else f"{parts['r']:.2f}"
        lines.append(f"| {key} | {parts['figure']:.3f} | {parts['cost']:.3f} | {parts['busy']:.3f} | {r} | "
                     f"{LIVES[parts['lives']]} |")
    return lines + [""]


def price_lines(price_rows):
    """The run's price list: each price's median over the rounds on the servers' CPUs, with the
    rounds' lowest and highest, and on the client's."""
    servers, client = run_prices(price_rows), run_prices(price_rows, "client")
    if not servers and not client:
        return []
    by_round = round_prices(price_rows)
    lines = ["## The host's price list", "",
             f"Read at every round's start ({len(by_round)} rounds), each price {REPEATS} times a CPU, the median kept "
             "(harness/measure/prices.py): the median over the rounds on the servers' CPUs, the rounds' range, "
             "and the client's CPUs.", "", "| price | servers' CPUs | rounds' range | client's CPUs |", "|---|---:|---:|---:|"]
    for name in dict.fromkeys([*servers, *client]):
        values = [found[name] for found in by_round.values() if name in found]
        span = f"{min(values):.3g}–{max(values):.3g}" if len(values) > 1 else "-"
        lines.append(f"| {name} ({BY_NAME[name].about if name in BY_NAME else name}) | "
                     f"{servers.get(name, float('nan')):.3g} | {span} | {client.get(name, float('nan')):.3g} |")
    return lines + [""]


def price_title_text(price_rows):
    """One line for the report's title page: the servers' CPUs' prices over the run."""
    servers = run_prices(price_rows, SERVERS)
    return "price list (servers' CPUs, median of rounds): " + (
        ", ".join(f"{name} {value:.3g}" for name, value in servers.items()) if servers else "not read (a run from before it)")


def share_text(split):
    """"; the user time carried N % of the cost's change" when the cost carried the move and user and
    system time moved the same way; else nothing."""
    share = split.get("user_share")
    if share is None or not 0 <= share <= 1 or carried_by(split) not in ("cost", "both"):
        return ""
    return f"; the user time carried {share:.0%} of the cost's change, the system time {1 - share:.0%}"


def with_the_cost(split, price_pairs):
    """"; prices that moved with it: ..." for a move the cost carried: the prices that moved the way
    the cost per reply did (dearer with a dearer reply, cheaper with a cheaper one), or that none did."""
    if carried_by(split) not in ("cost", "both"):
        return ""
    along = named_moves((what, ratio) for what, ratio in price_pairs if (ratio > 1) == (split["cost"] > 1))
    return f"; prices that moved with it: {', '.join(along)}" if along else "; no price of the host's list moved with it"


def explanation_lines(run, other, rows, heading="#"):
    """make compare's "Why the figures differ" section: per cell, in words, which part carried the
    ratio between the runs and what in the host's price list moved."""
    first, second = run.manifest.run_id, other.manifest.run_id
    price_pairs = price_moves(run_prices(run.prices), run_prices(other.prices))
    moves = named_moves(price_pairs)
    price_text = (f"on {second}'s host: " + ", ".join(moves)) if moves else (
        "the two price lists agree within 10 %" if run.prices and other.prices
        else "no price list in " + " or ".join(each.manifest.run_id for each in (run, other) if not each.prices))
    lines = [f"{heading}# Why the figures differ", "",
             f"Each cell's {second} / {first} ratio (of its median rounds) is the servers' busy share at saturation "
             "over their CPU per reply; the words say which carried it. The host's price lists, the median over "
             f"each run's rounds on the servers' CPUs ({second} over {first}): {price_text}.", ""]
    for row in rows:
        split = cost_split(row["first"].representative, row["second"].representative)
        if split is None:
            lines.append(f"- {row['cell']}: {ratio_text(row['second_over_first'])}; no cost per reply in both runs")
            continue
        lines.append(f"- {row['cell']}: {second} reads {ratio_text(split['figure'])}, {CARRIED[carried_by(split)]}: "
                     f"{'; '.join(split_words(split))}{share_text(split)}"
                     + with_the_cost(split, price_pairs))
    return lines
