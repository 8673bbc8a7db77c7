"""The write-share curve (experiments/write-share.json): for each app measured at two write shares or
more of one mix (mixed-P: P % of the requests update a drawn row, the others read one), each engine's
saturation figure, p99 and what its writes waited for against P, and the engines set against each
other at every P: their saturation figures paired by round, and their CPU per reply by turns with
Holm's p. summary.md's section and the figure's data. Pure: a View and the summary rows in, lines
and gnuplot's data out."""
import statistics

from harness.report.series import number
from harness.report.turns import interval_text, judged_ratios
from harness.report.writes import cell_waits
from harness.results.interleave import run_ratios
from harness.results.records import CellKey
from stack import workload_names


def curves(rows):
    """{(writes, reads): {app: {engine: {share: summary row}}}} of the mixes' rows, in the rows' order,
    each app's engines and shares sorted, for the apps measured at two shares or more of a mix."""
    found = {}
    for row in rows:
        mixed = workload_names.mix(row["workload"])
        if mixed:
            writes, reads, share = mixed
            found.setdefault((writes, reads), {}).setdefault(row["app"], {}).setdefault(row["engine"], {})[share] = row
    return {mix: {app: {engine: dict(sorted(shares.items())) for engine, shares in engines.items()}
                  for app, engines in apps.items() if len(shares_of(engines)) > 1}
            for mix, apps in found.items() if any(len(shares_of(engines)) > 1 for engines in apps.values())}


def shares_of(engines):
    """The shares any of an app's engines was measured at, in order."""
    return sorted({share for shares in engines.values() for share in shares})


def engine_pair(view, engines):
    """(the reference engine, the other) in the run's order of engines; None with fewer than two."""
    ordered = [engine for engine in view.present("engines") if engine in engines]
    return tuple(ordered[:2]) if len(ordered) > 1 else None


def label(app, engine, workload):
    return f"{app}/{engine}/{workload}"


def engines_by_turns(judged, app, pair, workload):
    """The Judged of an app's engines by turns on a workload, as the second's CPU per reply over the
    first's; None where the run took no such pair."""
    first, second = (label(app, engine, workload) for engine in pair)
    return judged.get((first, second))


def share_rows(rows_by_engine, pair):
    """(share, [each engine's summary row or None], the share's workload) for every share measured."""
    for share in shares_of(rows_by_engine):
        found = [rows_by_engine.get(engine, {}).get(share) for engine in pair]
        yield share, found, next(row["workload"] for row in found if row)


def engines_by_rounds(view, app, pair, workload):
    """The second engine's saturation figure over the first's, paired by round; None without both."""
    first, second = (view.cells.get(CellKey(app, engine, workload)) for engine in pair)
    return run_ratios(second, first)["figure"] if first and second else None


def interval_words(interval):
    return "-" if interval is None else interval_text(interval)


def judged_words(judged):
    if judged is None or judged.p is None:
        return "-"
    word = "decided" if judged.decided else "not resolved"
    p = "p < 0.001" if judged.p < 0.001 else f"p {judged.p:.3f}"
    return f"{interval_words(judged.ratio)}, {p}: {word}"


def figure_words(row):
    rps = number(row["saturation_rps"])
    if rps is None:
        return "none located"
    low, high = number(row["median_low"]), number(row["median_high"])
    spread = f" [{low:,.0f}–{high:,.0f}]" if low is not None and high is not None else ""
    return (">= " if row["lower_bound"] else "") + f"{rps:,.0f}{spread}"


def waits_words(view, app, engine, workload):
    """"0.012 / 0.800": the median over the rounds of MyISAM's table lock waits and InnoDB's fsyncs a
    reply at the cell's saturation step."""
    key = CellKey(app, engine, workload)
    waits = cell_waits(view, key) if key in view.cells else []
    medians = [median_or_none([each[name] for each in waits if name in each]) for name in ("table_lock_waits", "fsyncs")]
    return " / ".join("-" if value is None else f"{value:.3f}" for value in medians)


def p99_words(row):
    p99 = number(row.get("p99_ms_saturation"))
    return "-" if p99 is None else f"{p99:,.0f}"


def app_table(view, rows_by_engine, app, pair, judged):
    """One app's table: a row per share, each engine's figure, p99 and waits, then the engines set
    against each other."""
    first, second = (view.engine_title(engine) for engine in pair)
    lines = [f"| writes | {first} req/s | {second} req/s | p99 ms at saturation, {first} / {second} | "
             f"table lock waits / fsyncs a reply, {first} | the same, {second} | {second}'s figure over "
             f"{first}'s, by round | {second}'s CPU per reply over {first}'s, by turns |",
             "|---:|---:|---:|---:|---:|---:|---|---|"]
    for share, found, workload in share_rows(rows_by_engine, pair):
        figures = [figure_words(row) if row else "-" for row in found]
        p99 = " / ".join(p99_words(row) if row else "-" for row in found)
        waits = [waits_words(view, app, engine, workload) for engine in pair]
        lines.append(f"| {share} % | {figures[0]} | {figures[1]} | {p99} | {waits[0]} | {waits[1]} | "
                     f"{interval_words(engines_by_rounds(view, app, pair, workload))} | "
                     f"{judged_words(engines_by_turns(judged, app, pair, workload))} |")
    return lines


def verdict_line(view, rows_by_engine, app, pair, judged):
    """Where the second engine's CPU per reply is decided below the first's (the first behind), above
    it, and not resolved, by share."""
    found = {"below": [], "above": [], "not resolved": []}
    for share, _, workload in share_rows(rows_by_engine, pair):
        each = engines_by_turns(judged, app, pair, workload)
        if each is None or each.p is None:
            continue
        found["not resolved" if not each.decided else "below" if each.ratio.estimate < 1 else "above"].append(share)
    first, second = (view.engine_title(engine) for engine in pair)
    words = {"below": f"{second} cheaper a reply ({first} behind)", "above": f"{first} cheaper a reply ({second} behind)",
             "not resolved": "not resolved"}
    parts = [f"{words[kind]} at {', '.join(f'{share} %' for share in shares)}" for kind, shares in found.items() if shares]
    return f"- {view.title(app)}: " + ("; ".join(parts) if parts else "no engines by turns") + "."


def write_share_lines(view, rows):
    """summary.md's write-share section: per mix and app, a table against the share of writes, and a
    line that says at which shares each engine is decided cheaper; [] for a run with no curve."""
    found = curves(rows)
    if not found:
        return []
    judged = judged_ratios(view.run)
    lines = ["## The write-share curve", "",
             "Each app against the share of its requests that write, P (0: every request reads, 100: every "
             "request writes): each engine's saturation figure (the median of the rounds [lowest–highest]), the "
             "99th percentile of the reply time at that step, and what its writes waited for there a reply "
             "(MyISAM's table lock waits / InnoDB's fsyncs, the rounds' median). Then the engines set against "
             "each other: the second's saturation figure over the first's, paired by round (95 %), and its servers' "
             "CPU per reply over the first's by turns (95 %, Holm's p over the run's pairs of engines).", ""]
    for (writes, reads), apps in found.items():
        for app, rows_by_engine in apps.items():
            pair = engine_pair(view, rows_by_engine)
            if not pair:
                continue
            lines += [f"### {view.title(app)}: {writes} among {reads}", "",
                      *app_table(view, rows_by_engine, app, pair, judged), ""]
        lines += ["By turns:", "", *(verdict_line(view, engines, app, pair, judged) for app, engines in apps.items()
                                     if (pair := engine_pair(view, engines))), ""]
    return lines


def series_text(view, rows_by_engine, app, pair, judged, shares):
    """write-share.gp's data for one app: a line per share it was measured at, its place among the
    figure's `shares`, the share, each engine's figure with its lowest and highest round, and the
    second engine's CPU per reply over the first's by turns with its interval (NaN where missing)."""
    def cells(values):
        return "\t".join("NaN" if value is None else f"{value:g}" for value in values)
    lines = ["# place\tshare\t" + "\t".join(f"{engine}_rps\t{engine}_low\t{engine}_high" for engine in pair)
             + "\tcpu_ratio\tcpu_low\tcpu_high"]
    for share, found, workload in share_rows(rows_by_engine, pair):
        values = [number(row[column]) if row else None for row in found
                  for column in ("saturation_rps", "median_low", "median_high")]
        each = engines_by_turns(judged, app, pair, workload)
        ratio = each.ratio if each else None
        values += [ratio.estimate, ratio.low, ratio.high] if ratio else [None] * 3
        lines.append(f"{shares.index(share)}\t{share}\t" + cells(values))
    return "\n".join(lines) + "\n"


def median_or_none(values):
    return statistics.median(values) if values else None
