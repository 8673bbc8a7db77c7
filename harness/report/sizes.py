"""The size sweep's view of a run (make size-sweep): throughput and reply time against the payload's
row count, one line per app, per engine; the SOAP papers' figure shape. Pure: summary rows in, the
size table's lines and gnuplot's data out."""
from harness.report.series import number, ratio_text, throughput_text
from stack import registry
from stack.registry import engine_title


def sized_rows(rows):
    """{engine: {app: [(row count, summary row), ...] by count}} of the rows of sized workloads."""
    found = {}
    for row in rows:
        count = registry.row_count(row["workload"])
        if count is not None:
            found.setdefault(row["engine"], {}).setdefault(row["app"], []).append((count, row))
    return {engine: {app: sorted(points, key=lambda point: point[0]) for app, points in apps.items()}
            for engine, apps in found.items()}


def counts_of(by_app):
    return sorted({count for points in by_app.values() for count, _ in points})


def size_lines(view, rows):
    """summary.md's size section: per engine, throughput (reply ms at low load) by row count, then each
    app's throughput as a multiple of the first app's (the set's reference, Axis 1.4 in SET=soap)."""
    sized = sized_rows(rows)
    if not sized:
        return []
    lines = ["## Throughput and reply time against payload size", "",
             "The payload workload (the first N rows by id) at each N: saturation throughput in req/s (median "
             f"over {view.rounds} round(s); >= a lower bound) and, in brackets, the reply time at the lowest "
             "passing rate in ms. Then each app's throughput as a multiple of the first app's at the same N.", ""]
    for engine, by_app in sized.items():
        counts = counts_of(by_app)
        apps = [app for app in view.apps if app in by_app]
        reference = apps[0]
        header = "| app | " + " | ".join(f"N = {count:,}" for count in counts) + " |"
        rule = "|---|" + "---:|" * len(counts)
        lines += [f"### {engine_title(engine)}", "", header, rule]
        table = {app: dict(by_app[app]) for app in apps}
        for app in apps:
            cells = [f"{throughput_text(row)} ({row['reply_ms_low'] or '-'} ms)" if (row := table[app].get(count))
                     else "-" for count in counts]
            lines.append(f"| {view.title(app)} | " + " | ".join(cells) + " |")
        lines += ["", f"Throughput over {view.title(reference)}'s:", "", header, rule]
        for app in apps[1:]:
            cells = [ratio_text(table[app][count], table[reference].get(count)) if count in table[app] else "-"
                     for count in counts]
            lines.append(f"| {view.title(app)} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def size_series_text(points):
    """sizes.gp data for one app: row count, throughput, reply ms at low load, p50 ms at saturation,
    1 when the throughput is a lower bound; one line per count that has a figure."""
    lines = ["# rows\tsaturation_rps\treply_ms_low\tp50_ms_saturation\tlower_bound"]
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
