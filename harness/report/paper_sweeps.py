"""A paper's per-rate table beside ours (`make reproduce PAPER=study2006`): a sweep at the paper's
offered rates, each step's reply rate and response time (httperf's, to the first byte, as the 2006
study read it) set beside the paper's row at that rate; the data of plots/paper-rates.gp and the
figure's markdown. Pure: no file is read here.

Our value at a rate is the median over the rounds of that step's reply rate, its interval the rounds'
range; from one round the range of httperf's 5-s samples of the reply rate within the step."""
import statistics

from harness.report.paper_pages import colour_hex, nan
from harness.results.records import PASS
from stack import registry


def step_point(rows):
    """Our value at one offered rate from its step in each round ([(round, steps.tsv row)])."""
    replies = {number: float(row["reply_rate"] or 0) for number, row in rows}
    if len(rows) > 1:
        low, high = min(replies.values()), max(replies.values())
    else:
        row = rows[0][1]
        low, high = (float(row[key]) if row.get(key) else replies[rows[0][0]]
                     for key in ("reply_rate_min", "reply_rate_max"))
    responses = [float(row["response_time_ms"]) for _, row in rows if row.get("response_time_ms")]
    return {"value": statistics.median(replies.values()), "low": low, "high": high, "rounds": len(rows),
            "by_round": replies, "response_ms": statistics.median(responses) if responses else None,
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


def paper_rows(figure, values):
    """{app: {rate: {"replies/s": value, "ms": value}}} of the paper's table for the figure."""
    rows = {}
    for row in values:
        if row["figure"] == figure["id"] and row["measure"] in ("replies/s", "ms"):
            app = figure["series"][row["series"]]
            rows.setdefault(app, {}).setdefault(float(row["x_low"]), {})[row["measure"]] = float(row["low"])
    return rows


def saturation_of(rates):
    """(the last rate whose reply rate reached it, the first that fell short) of [(rate, replies/s)],
    as the study read its saturation: "the point when the rate does not reach the reply rate"."""
    short = [rate for rate, replies in rates if replies < rate]
    reached = [rate for rate, replies in rates if replies >= rate and (not short or rate < short[0])]
    return (max(reached) if reached else None), (short[0] if short else None)


def verdict(figure, values, points):
    """In words: where the paper's table saturated, and where ours did at the same rates."""
    words = []
    theirs = paper_rows(figure, values)
    for (app, engine), series in points.items():
        paper = sorted((rate, row["replies/s"]) for rate, row in theirs.get(app, {}).items() if "replies/s" in row)
        held, fell = saturation_of(paper)
        failed = [rate for rate, point in series if point["flags"]]
        ours = (f"ours passed every rate up to {series[-1][0]:g} req/s" if not failed
                else f"ours first failed at {failed[0]:g} req/s ({series[[rate for rate, _ in series].index(failed[0])][1]['reasons'][0]})")
        words.append(f"{registry.app(app)['title']} on {engine}: the paper's reply rate "
                     + (f"fell short of the rate at {fell:g} req/s (throughput {held:g})" if fell else "reached every rate it gave")
                     + f"; {ours}.")
    return words


def rates_text(figure, values, points):
    """plots/paper-rates.gp's data, two blocks per series: ours (rate, replies/s, low, high, response
    ms, replies/s again when the step did not pass), then the paper's rows (rate, replies/s, ms); and
    the series' titles and colours."""
    theirs = paper_rows(figure, values)
    blocks, series = [], []
    for (app, engine), steps in points.items():
        blocks.append("\n".join(f"{rate:g}\t{each['value']:g}\t{each['low']:g}\t{each['high']:g}\t{nan(each['response_ms'])}\t"
                                f"{nan(each['value'] if each['flags'] else None)}" for rate, each in steps))
        paper = theirs.get(app, {})
        blocks.append("\n".join(f"{rate:g}\t{nan(row.get('replies/s'))}\t{nan(row.get('ms'))}"
                                for rate, row in sorted(paper.items())) or "NaN")
        series.append((f"{registry.app(app)['title']} ({engine})", colour_hex(app)))
    return "\n\n\n".join(blocks) + "\n", series


def rates_markdown(figure, values, points):
    """The figure's section of <paper>.md: at each rate ours beside the paper's, the verdict."""
    theirs = paper_rows(figure, values)
    lines = [f"## {figure['id']}: {figure['title']}", ""]
    for (app, engine), steps in points.items():
        lines += [f"{registry.app(app)['title']} on {engine}:", "",
                  "| offered (req/s) | ours: replies/s | interval | ours: response (ms) | the paper: replies/s | "
                  "the paper: response (ms) | verdict |", "|---:|---:|---|---:|---:|---:|---|"]
        paper = theirs.get(app, {})
        for rate in sorted({rate for rate, _ in steps} | set(paper)):
            each = dict(steps).get(rate)
            row = paper.get(rate, {})
            ours = (f"{each['value']:,.1f} | {each['low']:,.1f}–{each['high']:,.1f} | "
                    f"{'' if each['response_ms'] is None else format(each['response_ms'], ',.1f')}") if each else "not run | | "
            lines.append(f"| {rate:g} | {ours} | {row.get('replies/s', ''):} | {row.get('ms', '')} | "
                         f"{'; '.join(each['flags']) if each else ''} |")
        lines.append("")
    rounds = {each["rounds"] for steps in points.values() for _, each in steps}
    lines += ["One round: each interval is the range of httperf's 5-s reply-rate samples within the step."
              if rounds == {1} else "Each interval is the rounds' range.", ""]
    lines += [f"- {sentence}" for sentence in verdict(figure, values, points)] + [""]
    rows = [row for row in values if row["figure"] == figure["id"]]
    if rows:
        numbers = sorted(int(row["line"]) for row in rows)
        lines += [f"The paper's rows: {rows[0]['source']}, lines {numbers[0]}–{numbers[-1]} of its text.", ""]
    if figure.get("differs"):
        lines += ["What still differs, beside the paper's own list: " + " ".join(figure["differs"]), ""]
    return lines
