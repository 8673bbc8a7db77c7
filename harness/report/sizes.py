"""The size sweep's view of a run (make size-sweep): throughput and reply time against N, one line
per app, for each workload that grows by N (rows-N per engine, the echoes without one); the SOAP
papers' figure shape. The engine-less SOAP baselines' getQuote figures are the echoes' reference
lines. Pure: summary rows in, the size table's lines and gnuplot's data out."""
from harness.report.series import number, ratio_text, throughput_text
from stack import workload_names
from stack.registry import NO_ENGINE
from stack.workload_names import QUOTE_WORKLOAD


def sized_rows(rows):
    """{(kind, engine): {app: [(N, summary row), ...] by N}} of the rows of sized workloads, in the
    order the run's rows name them."""
    found = {}
    for row in rows:
        size = workload_names.size_of(row["workload"])
        if size is not None:
            kind, count = size
            found.setdefault((kind, row["engine"]), {}).setdefault(row["app"], []).append((count, row))
    return {group: {app: sorted(points, key=lambda point: point[0]) for app, points in apps.items()}
            for group, apps in found.items()}


def group_title(kind, engine, view):
    """How the figure and the table name one sized workload: "the first N rows by id, InnoDB" (the
    engine as the run's registry titled it)."""
    return f"{workload_names.kind_title(kind)}, {view.engine_title(engine)}"


def quote_rows(rows):
    """{app: summary row} of the run's getQuote cells."""
    return {row["app"]: row for row in rows if row["workload"] == QUOTE_WORKLOAD and row["engine"] == NO_ENGINE}


def reference_levels(view, rows, engine):
    """[(app, throughput)] of the engine-less SOAP baselines' getQuote, the horizontal lines of an
    echo's figure (none for rows-N, which has a database)."""
    if engine != NO_ENGINE:
        return []
    quotes = quote_rows(rows)
    return [(app, value) for app in view.apps if app in quotes and view.manifest.apps[app].get("kind") == "baseline"
            and (value := number(quotes[app]["saturation_rps"])) is not None]


def counts_of(by_app):
    return sorted({count for points in by_app.values() for count, _ in points})


def size_lines(view, rows):
    """summary.md's size section: per sized workload, throughput (reply ms at low load) by N, with
    getQuote beside the echoes; then each app's throughput as a multiple of the first app's (the
    set's reference, Axis 1.4 in SET=soap); under the echoes, the engine-less SOAP baselines."""
    sized = sized_rows(rows)
    if not sized:
        return []
    quotes = quote_rows(rows)
    lines = ["## Throughput and reply time against payload size", "",
             "Each workload that grows by N (rows-N: the first N rows by id, a small request and a reply "
             "of N rows; echo-N and the typed echoes: N items sent and the same N returned, no database) at "
             f"each N: saturation throughput in req/s (median over {view.rounds} round(s); >= a lower bound) "
             "and, in brackets, the reply time at the lowest passing rate in ms; getQuote (no N, no database) "
             "beside the echoes. Then each app's throughput as a multiple of the first app's at the same N.", ""]
    for (kind, engine), by_app in sized.items():
        counts = counts_of(by_app)
        apps = [app for app in view.apps if app in by_app]
        reference = apps[0]
        table = {app: dict(by_app[app]) for app in apps}
        columns = [(f"N = {count:,}", lambda app, count=count: table[app].get(count)) for count in counts]
        if engine == NO_ENGINE and any(app in quotes for app in apps):
            columns.append(("getQuote", quotes.get))
        header = "| app | " + " | ".join(title for title, _ in columns) + " |"
        rule = "|---|" + "---:|" * len(columns)
        lines += [f"### {group_title(kind, engine, view)}", "", header, rule]
        for app in apps:
            cells = [f"{throughput_text(row)} ({row['reply_ms_low'] or '-'} ms)" if (row := find(app)) else "-"
                     for _, find in columns]
            lines.append(f"| {view.title(app)} | " + " | ".join(cells) + " |")
        lines += ["", f"Throughput over {view.title(reference)}'s:", "", header, rule]
        for app in apps[1:]:
            cells = [ratio_text(row, find(reference)) if (row := find(app)) else "-" for _, find in columns]
            lines.append(f"| {view.title(app)} | " + " | ".join(cells) + " |")
        levels = reference_levels(view, rows, engine)
        if levels:
            lines += ["", "The engine-less SOAP baselines (getQuote's canned answer, no engine; the figure's "
                          "dashed lines): " + "; ".join(f"{view.title(app)} {throughput_text(quotes[app])} req/s"
                                                         for app, _ in levels) + "."]
        lines.append("")
    return lines


def size_series_text(points):
    """sizes.gp data for one app: N, throughput, reply ms at low load, p50 ms at saturation, 1 when
    the throughput is a lower bound; one line per N that has a figure."""
    lines = ["# n\tsaturation_rps\treply_ms_low\tp50_ms_saturation\tlower_bound"]
    for count, row in points:
        rps = number(row["saturation_rps"])
        if rps is None:
            continue
        low, p50 = number(row["reply_ms_low"]), number(row["p50_ms_saturation"])
        lines.append(f"{count}\t{rps:g}\t{'NaN' if low is None else f'{low:g}'}\t"
                     f"{'NaN' if p50 is None else f'{p50:g}'}\t{int(bool(row['lower_bound']))}")
    if len(lines) == 1:
        lines.append("NaN\tNaN\tNaN\tNaN\t0")  # an empty file would stop gnuplot
    return "\n".join(lines) + "\n"
