"""A paper's per-rate table beside ours (`make reproduce PAPER=study2006`): a sweep at the paper's
offered rates, each step's reply rate and response time (httperf's, to the first byte, as the 2006
study read it) set beside the paper's row at that rate; the data of plots/paper-rates.gp and the
figure's markdown. Pure: no file is read here.

Our value at a rate is the median over the rounds of that step's reply rate, its interval the rounds'
range; from one round the range of httperf's 5-s samples of the reply rate within the step. A
saturation table (x: app) draws each cell's saturation as the sweep located it."""
import statistics

from harness.report.paper_figures import likeness, sides_text
from harness.report.paper_pages import colour_hex, nan
from harness.results.records import LOCATED, PASS



def median_of(rows, column):
    """The median of a column over [(round, steps.tsv row)], None where no row has it."""
    found = [float(row[column]) for _, row in rows if row.get(column)]
    return statistics.median(found) if found else None


def over_rounds(by_round, one_round):
    """(median, low, high) of a value per round ({round: value}): the rounds' range, or from one round
    the (low, high) that `one_round(value)` gives."""
    values = list(by_round.values())
    low, high = (min(values), max(values)) if len(values) > 1 else one_round(values[0])
    return statistics.median(values), low, high


def step_point(rows):
    """Our value at one offered rate from its step in each round ([(round, steps.tsv row)])."""
    replies = {number: float(row["reply_rate"] or 0) for number, row in rows}
    last = rows[-1][1]
    value, low, high = over_rounds(replies, lambda only: (float(last.get("reply_rate_min") or only),
                                                          float(last.get("reply_rate_max") or only)))
    return {"value": value, "low": low, "high": high, "rounds": len(rows),
            "by_round": replies, "response_ms": median_of(rows, "response_time_ms"),
            "transfer_ms": median_of(rows, "transfer_time_ms"),
            "flags": sorted({row["verdict"] for _, row in rows if row["verdict"] != PASS}),
            "reasons": [row["reason"] for _, row in rows if row["verdict"] != PASS]}


def rate_points(rounds_steps):
    """{(app, engine): [(offered rate, point)]} of a sweep figure from [(round, {"cell", "steps"})]:
    every step but the baseline, rates rising."""
    steps = {}
    for number, found in rounds_steps:
        cell = found["cell"]
        for row in found["steps"]:
            if row["role"] == "":
                steps.setdefault((cell["app"], cell["engine"]), {}).setdefault(float(row["offered_rate"]), []).append((number, row))
    return {key: [(rate, step_point(rows)) for rate, rows in sorted(by_rate.items())] for key, by_rate in steps.items()}


SATURATION_BRACKET = "last rate reached and first that fell short"


def saturation_points(rounds_summaries):
    """{(app, workload): [(None, point)]} of a saturation table from its sweep's
    [(round, saturation.tsv's rows)]: each cell's reply rate at saturation, the median over the rounds,
    its interval the rounds' range; from one round its bracket, the last offered rate reached and the
    first that fell short. A cell that passed every rate is flagged a lower bound, one that passed none
    stands at 0."""
    found = {}
    for number, rows in rounds_summaries:
        for row in rows:
            if row["replica"] == "1":
                found.setdefault((row["app"], row["workload"]), []).append((number, row))
    points = {}
    for key, rows in found.items():
        replies = {number: float(row["saturation_rps"] or 0) for number, row in rows}
        last = rows[-1][1]
        value, low, high = over_rounds(replies, lambda only: (only, float(last["overload_offered"] or only)))
        flags = sorted({row["status"] for _, row in rows if row["status"] != LOCATED})
        points[key] = [(None, {"value": value, "low": low, "high": high,
                               "rounds": len(rows), "by_round": replies, "flags": flags, "keepalive_share": None,
                               "within": SATURATION_BRACKET})]
    return points


def paper_rows(figure, values):
    """{app: {rate: {"replies/s": value, "ms": value, "ms_high": value}}} of the paper's table for the
    figure; ms_high is the top of a response time the paper gives as a range, else the time again."""
    rows = {}
    for row in values:
        if row["figure"] == figure["id"] and row["measure"] in ("replies/s", "ms"):
            found = rows.setdefault(figure["series"][row["series"]], {}).setdefault(float(row["x_low"]), {})
            found[row["measure"]] = float(row["low"])
            if row["measure"] == "ms":
                found["ms_high"] = float(row["high"])
    return rows


def paper_ms(row):
    """The paper's response time at a rate in words: a value or a range."""
    if "ms" not in row:
        return ""
    return f"{row['ms']:g}" if row["ms_high"] == row["ms"] else f"{row['ms']:g}–{row['ms_high']:g}"


def saturation_of(rates):
    """(the last rate whose reply rate reached it, the first that fell short) of [(rate, replies/s)],
    as the study read its saturation: "the point when the rate does not reach the reply rate"."""
    short = [rate for rate, replies in rates if replies < rate]
    reached = [rate for rate, replies in rates if replies >= rate and (not short or rate < short[0])]
    return (max(reached) if reached else None), (short[0] if short else None)


def paper_saturation(rates):
    """Where the paper's [(rate, replies/s)] saturated, in words."""
    held, fell = saturation_of(rates)
    if not rates:
        return "the paper gives no reply rate at these rates"
    if fell is None:
        return "the paper's reply rate reached every rate it gave"
    return (f"the paper's reply rate fell short of the rate at {fell:g} req/s "
            + (f"(throughput {held:g})" if held is not None else "already, its lowest (throughput below it)"))


def verdict(figure, values, points, recorded):
    """In words: where the paper's table saturated, and where ours did at the same rates (each app as
    the registry the run `recorded` titles it)."""
    words = []
    theirs = paper_rows(figure, values)
    for (app, engine), series in points.items():
        paper = sorted((rate, row["replies/s"]) for rate, row in theirs.get(app, {}).items() if "replies/s" in row)
        failed = [(rate, point) for rate, point in series if point["flags"]]
        ours = (f"ours first failed at {failed[0][0]:g} req/s ({failed[0][1]['reasons'][0]})" if failed
                else f"ours passed every rate up to {series[-1][0]:g} req/s")
        words.append(f"{recorded.title(app)} on {engine}: {paper_saturation(paper)}; {ours} ({likeness(figure['sides'])}).")
    return words + [sides_text(figure["sides"])]


def rates_text(figure, values, points, recorded):
    """plots/paper-rates.gp's data, two blocks per series: ours (rate, replies/s, low, high, response
    ms, replies/s again when the step did not pass), then the paper's rows (rate, replies/s, ms, the
    top of its range); and the series' titles and colours, from the registry the run `recorded`."""
    theirs = paper_rows(figure, values)
    blocks, series = [], []
    for (app, engine), steps in points.items():
        blocks.append("\n".join(f"{rate:g}\t{each['value']:g}\t{each['low']:g}\t{each['high']:g}\t{nan(each['response_ms'])}\t"
                                f"{nan(each['value'] if each['flags'] else None)}" for rate, each in steps))
        paper = theirs.get(app, {})
        blocks.append("\n".join(f"{rate:g}\t{nan(row.get('replies/s'))}\t{nan(row.get('ms'))}\t{nan(row.get('ms_high'))}"
                                for rate, row in sorted(paper.items())) or "NaN")
        series.append((f"{recorded.title(app)} ({engine})", colour_hex(app, recorded)))
    return "\n\n\n".join(blocks) + "\n", series


def sources(figure, values):
    """[(a source of the figure's rows in the paper, its line or lines)], in the rows' order."""
    lines = {}
    for row in values:
        if row["figure"] == figure["id"]:
            lines.setdefault(row["source"], []).append(int(row["line"]))
    return [(source, f"line {min(found)}" if min(found) == max(found) else f"lines {min(found)}–{max(found)}")
            for source, found in lines.items()]


def ms(value):
    return "" if value is None else f"{value:,.1f}"


def rates_markdown(figure, values, points, recorded):
    """The figure's section of <paper>.md: at each rate ours beside the paper's, the verdict."""
    theirs = paper_rows(figure, values)
    lines = [f"## {figure['id']}: {figure['title']}", ""]
    for (app, engine), steps in points.items():
        lines += [f"{recorded.title(app)} on {engine}:", "",
                  "| offered (req/s) | ours: replies/s | interval | ours: response (ms) | ours: transfer (ms) | "
                  "the paper: replies/s | the paper: response (ms) | our step |", "|---:|---:|---|---:|---:|---:|---:|---|"]
        paper = theirs.get(app, {})
        for rate in sorted({rate for rate, _ in steps} | set(paper)):
            each = dict(steps).get(rate)
            row = paper.get(rate, {})
            ours = (f"{each['value']:,.1f} | {each['low']:,.1f}–{each['high']:,.1f} | {ms(each['response_ms'])} | "
                    f"{ms(each['transfer_ms'])}") if each else "not run | | | "
            lines.append(f"| {rate:g} | {ours} | {row.get('replies/s', '')} | {paper_ms(row)} | "
                         f"{('; '.join(each['flags']) or 'pass') if each else ''} |")
        lines.append("")
    rounds = {each["rounds"] for steps in points.values() for _, each in steps}
    lines += ["One round: each interval is the range of httperf's 5-s reply-rate samples within the step."
              if rounds == {1} else "Each interval is the rounds' range.", ""]
    lines += [f"- {sentence}" for sentence in verdict(figure, values, points, recorded)] + [""]
    found = sources(figure, values)
    if len(found) == 1:
        lines += [f"The paper's rows: {found[0][0]}, {found[0][1]} of its text.", ""]
    elif found:
        lines += ["The paper's rows:", ""] + [f"- {source}, {span} of its text." for source, span in found] + [""]
    if figure.get("differs"):
        lines += ["What still differs, beside the paper's own list: " + " ".join(figure["differs"]), ""]
    return lines
