"""A paper's figures beside ours (`make reproduce PAPER=`): the paper's declaration (experiments/papers/
<paper>.json) and values (its TSV, each value with the line of the text it comes from), and the
concurrency sweeps' results of each round, in; each figure's points, ratios, verdicts, data files for
plots/paper-figure.gp (paper_pages) and markdown (paper_markdown) out; the declaration is checked in
paper_declaration. Pure: no file is read here.

A figure's x is "app" (a bar per app), "items" (echo-N, list-N: N) or "connections" (the level). Our
value at a point is the median over the rounds of the level's median window, its interval the rounds'
range; from one round the range of that round's windows, and the page says so."""
import statistics

from harness.report.paper_declaration import BYTES_OF, PHASE_MEASURES, RATE_OF, SIDE_FIELDS, SWEEP_VERB, unlike
from stack import workload_names


def measured_levels(rounds):
    """{(app, workload, connections): [the level of each round, its round number in `round`]} of
    [(round, concurrency.json's results)]."""
    measured = {}
    for number, results in sorted(rounds, key=lambda pair: pair[0]):
        for result in results:
            for level in result["levels"]:
                measured.setdefault((result["app"], result["workload"], level["connections"]), []).append(
                    {**level, "round": number})
    return measured


def serves(figure, level):
    """Whether a measured level holds what the figure draws: a profiled window for a figure that
    profiles (a breakdown), its servers' memory for a footprint; any level for a figure of replies."""
    if figure["options"].get("profile"):
        return "profile" in level
    if figure["x"] == "memory":
        return any(window.get("servers") for window in level.get("windows_figures", []))
    return True


def covers(earlier, figure):
    """Whether the levels an earlier figure's sweep measures serve `figure` (every sweep now keeps
    its servers' memory; only a profiling one has profiles)."""
    return not figure["options"].get("profile") or bool(earlier["options"].get("profile"))


def round_levels(figure, levels):
    """Of a cell's levels (several per round when several figures' sweeps measured it), the first of
    each round that serves the figure, in round order."""
    chosen = {}
    for level in levels:
        if serves(figure, level):
            chosen.setdefault(level["round"], level)
    return [chosen[number] for number in sorted(chosen)]


def apps_to_run(apps, workloads, levels, measured_in_round):
    """Of a figure's apps, those with a cell (workload at a level) this round has not measured yet."""
    return [app for app in apps
            if any((app, workload, level) not in measured_in_round for workload in workloads for level in levels)]


def x_of(figure, workload, connections):
    if figure["x"] == "items":
        return workload_names.item_count(workload)
    return connections if figure["x"] == "connections" else None


def point(levels):
    """Our value at a point from its levels (one per round): median, low, high, how many rounds,
    the flags raised and the lowest share of requests over a kept connection."""
    values = [level["replies_per_s"] for level in levels]
    if len(levels) > 1:
        low, high = min(values), max(values)
    else:
        windows = [window["replies_per_s"] for window in levels[0].get("windows_figures", [])] or values
        low, high = min(windows), max(windows)
    shares = [level["keepalive_share"] for level in levels if level.get("keepalive_share") is not None]
    return {"value": statistics.median(values), "low": low, "high": high, "rounds": len(levels),
            "by_round": {level.get("round"): level["replies_per_s"] for level in levels},
            "flags": sorted({flag for level in levels for flag in level["flags"]}),
            "keepalive_share": min(shares) if shares else None}


def figure_points(figure, apps, workloads, levels, measured):
    """{(app, workload): [(x, point)]} of the figure's cells measured, x rising; against items, one
    series per app and kind of workload ("echo" for echo-1 ... echo-10)."""
    points = {}
    for app in apps:
        for workload in workloads:
            key = (app, workload_names.parse_workload(workload)[0] if figure["x"] == "items" else workload)
            for connections in levels:
                found = round_levels(figure, measured.get((app, workload, connections), []))
                if found:
                    points.setdefault(key, []).append((x_of(figure, workload, connections), point(found)))
    return {key: sorted(series, key=lambda pair: pair[0] or 0) for key, series in points.items()}


def value_label(figure):
    """(the figure's measure as its table heads it, the number format, what one round's interval spans)."""
    if figure.get("measure"):
        shown = (",.0f" if figure["measure"] in (*RATE_OF, "packets_per_s")
                 else ",.3f" if figure["measure"] in (*BYTES_OF, "mb_per_1000_packets") else ",.1f")
        return PHASE_MEASURES[figure["measure"]], shown, "recorded calls"
    if figure.get("verb") == SWEEP_VERB:  # a saturation table: the 16,000-row page's are tens of replies/s
        return "replies/s at saturation", ",.1f", "windows"
    return "replies/s", ",.0f", "windows"


def ratio(numerator, denominator):
    """Our ratio of two points and its interval: over two rounds or more measured by both, the median
    and range of each round's ratio (the same round's servers, host and hour); else median over median
    and the widest the two ranges allow."""
    if not denominator["value"]:
        return None
    paired = [numerator["by_round"][number] / denominator["by_round"][number]
              for number in set(numerator.get("by_round", {})) & set(denominator.get("by_round", {}))
              if denominator["by_round"][number]]
    if len(paired) > 1:
        return {"value": statistics.median(paired), "low": min(paired), "high": max(paired)}
    low = numerator["low"] / denominator["high"] if denominator["high"] else None
    high = numerator["high"] / denominator["low"] if denominator["low"] else None
    return {"value": numerator["value"] / denominator["value"], "low": low, "high": high}


def ratio_series(figure, points):
    """{(app, workload): [(x, ratio)]} of every series but the reference's over the reference's, at
    the same workload and x."""
    reference = figure["reference"]
    series = {}
    for (app, workload), its_points in points.items():
        if app == reference or (reference, workload) not in points:
            continue
        theirs = dict(points[(reference, workload)])
        for x, ours in its_points:
            if x in theirs:
                quotient = ratio(ours, theirs[x])
                if quotient:
                    series.setdefault((app, workload), []).append((x, quotient))
    return series


def direction(low, high):
    if low is None or high is None:
        return None
    if low == high == 1:  # a paper's tie (the 2006 study's 30 req/s for every app on InnoDB)
        return "level"
    if low > 1:
        return "leads"
    return "trails" if high < 1 else "both"


def our_ratios_between(figure, points, numerator, denominator, x_low, x_high):
    """Our ratios of two apps at the x a paper's ratio spans (every x when it names none)."""
    found = {}
    for (app, workload), its_points in points.items():
        if app != numerator or (denominator, workload) not in points:
            continue
        theirs = dict(points[(denominator, workload)])
        for x, ours in its_points:
            inside = x is None or x_low is None or x_low <= x <= x_high
            if inside and x in theirs and ratio(ours, theirs[x]):
                found[(workload, x)] = ratio(ours, theirs[x])
    return [found[key] for key in sorted(found, key=lambda key: (key[1] or 0, key[0]))]


def number(text):
    return float(text) if text not in ("", None) else None


def times(value):
    """A ratio in two decimals, or in one significant digit below 0.01 (gSOAP's bytes against a JVM's)."""
    return f"{value:.2f}" if value == 0 or abs(value) >= 0.01 else f"{value:.1g}"


def ratio_text(low, high):
    if low is None:
        return "no value"
    return f"{times(low)}×" if times(low) == times(high) else f"{times(low)}–{times(high)}×"


SIDES = {"leads": "above 1", "trails": "below 1", "both": "on both sides of 1", "level": "at 1"}


def verdict(paper_low, paper_high, ours):
    """Does the paper's direction hold in our ratios, and how far is ours from its size? In words."""
    if not ours:
        return "not measured"
    values = [each["value"] for each in ours]
    if paper_low is None:  # a finding in words: "there are cases where ... outperforms"
        return "holds: ours is above 1 somewhere in that span" if max(values) > 1 else "does not hold: ours is below 1 throughout"
    theirs, mine = direction(paper_low, paper_high), direction(min(values), max(values))
    size = statistics.median(values) / (paper_low * paper_high) ** 0.5
    reaches_one = mine != "both" and any(each.get("low") is not None and each.get("high") is not None
                                         and each["low"] <= 1 <= each["high"] for each in ours)
    if theirs == "level":
        if reaches_one:
            return "holds: the paper's is a tie, and our interval reaches 1"
        return f"does not hold: the paper's is a tie, ours {SIDES[mine]} ({times(statistics.median(values))}×)"
    if reaches_one:
        holds = "holds" if theirs == mine else "does not hold"
        return (f"not shown: at the median the direction {holds} (the paper's {SIDES[theirs]}, ours {SIDES[mine]}), "
                f"but our interval reaches 1")
    if theirs == mine:
        return f"the direction holds (both {SIDES[mine]}); ours is {times(size)}× the paper's"
    if mine == "both":
        return f"in part: the paper's is {SIDES[theirs]}, ours {SIDES[mine]}"
    return f"does not hold: the paper's is {SIDES[theirs]}, ours {SIDES[mine]} ({times(size)}× the paper's)"


def likeness(sides):
    """"like for like", or "not like for like in message" naming each field the two sides measured
    differently: the verdict's own words; sides_text() says how they differ."""
    differs = [field for field, _, _ in unlike(sides)]
    if not differs:
        return "like for like"
    return "not like for like in " + (differs[0] if len(differs) == 1 else f"{', '.join(differs[:-1])} and {differs[-1]}")


def sides_text(sides):
    """A sentence for the figure's page: what each side measured where they differ, or that they agree."""
    differs = unlike(sides)
    if not differs:
        return "Like for like: " + "; ".join(f"{field}, {sides['paper'][field]}" for field in SIDE_FIELDS) + "."
    return "Not like for like: " + " ".join(f"{field.capitalize()}: the paper, {theirs}; ours, {mine}."
                                           for field, theirs, mine in differs)


def ours_text(ours):
    """Our ratios over a paper's span: one with its interval, several as their range."""
    if len(ours) == 1 and ours[0]["low"] is not None and ours[0]["high"] is not None:
        return f"{times(ours[0]['value'])}× [{times(ours[0]['low'])}, {times(ours[0]['high'])}]"
    values = [each["value"] for each in ours]
    return f"{ratio_text(min(values), max(values))} over {len(values)} points"


def verdict_rows(figure, values, points):
    """A row per paper ratio of the figure: its text, ours over the same span, the verdict."""
    apps = figure["series"]
    rows = []
    for row in values:
        if row["figure"] != figure["id"] or row["measure"] != "ratio":
            continue
        low, high = number(row["low"]), number(row["high"])
        x_low, x_high = number(row["x_low"]), number(row["x_high"])
        numerator, denominator = apps[row["series"]], apps[row["over"]]
        missing = [label for label in (row["series"], row["over"]) if apps[label] is None]
        same_app = numerator == denominator
        ours = [] if same_app or missing else our_ratios_between(figure, points, numerator, denominator, x_low, x_high)
        if missing:
            judged = f"cannot be had here: no engine here is {' or '.join(missing)}"
        elif same_app:
            judged = f"cannot be had here: one app ({numerator}) stands for both"
        else:
            judged = f"{verdict(low, high, ours)} ({likeness(figure['sides'])})"
        rows.append({"comparison": f"{row['series']} / {row['over']}",
                     "apps": f"{numerator or '-'} / {denominator or '-'}",
                     "span": f"{row['x_low']}–{row['x_high']}" if row["x_low"] else "",
                     "paper": ratio_text(low, high), "source": f"{row['source']} (line {row['line']})",
                     "ours": ours_text(ours) if ours else "not measured", "verdict": judged})
    return rows


def series_title(figure, app, recorded, workload=None):
    """The paper's label of an app (labels sharing one app joined), else its title in the registry
    the run `recorded` (a Manifest); the workload's short title beside it when the figure draws
    several per app."""
    labels = [label for label, mapped in figure["series"].items() if mapped == app]
    title = " = ".join(labels) + f" ({app})" if labels else recorded.title(app)
    return f"{title}, {workload_names.workload_title(workload, short=True)}" if workload else title


def interval_about(points, within="windows"):
    """What an interval spans, in words; `within`: what one round's spans, unless the points name it."""
    rounds = {point["rounds"] for series in points.values() for _, point in series}
    within = next((point["within"] for series in points.values() for _, point in series if "within" in point), within)
    if rounds == {1}:
        return f"one round: each interval is the range of that round's {within}, not of rounds"
    return f"{'–'.join(map(str, sorted(rounds)))} rounds: each interval is the rounds' range"


def closing_connections(points):
    """[(app, workload, lowest share)] of the series whose server closed connections ab asked to keep."""
    found = []
    for (app, workload), series in points.items():
        shares = [each["keepalive_share"] for _, each in series if each["keepalive_share"] is not None]
        if shares and min(shares) < 0.99:
            found.append((app, workload, min(shares)))
    return found
