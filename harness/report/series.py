"""The data files gnuplot draws: points of a cell, bars of a workload, lines of a text page. Pure."""
from harness.results.records import CLIENT_LIMITED, DATABASE_COMMANDS, DISTURBED, PASS, WORK_MISSING


def points(steps):
    """(judged, not_judged): (offered, reply rate, reply time, verdict, raw, p50, p99, response time)
    per step with a reply rate, in order of offered rate; client-bound and disturbed steps are not judged. Killed steps
    printed nothing and have no point."""
    judged, client_bound = [], []
    for step in steps:
        if step.offered_rate is None or step.reply_rate is None:
            continue
        point = (step.offered_rate, step.reply_rate, step.reply_time_ms, step.verdict, step.raw or "",
                 step.figures.get("p50_ms"), step.figures.get("p99_ms"), step.response_ms)
        (client_bound if step.verdict in (CLIENT_LIMITED, DISTURBED) else judged).append(point)
    return sorted(judged), sorted(client_bound)


def saturation_point(summary, steps):
    """The step the saturation figure comes from, as a point; None when the cell has none."""
    for point in points(steps)[0]:
        if point[0] == summary.saturation_offered and point[3] == PASS:
            return point
    return None


def series_text(summary, steps):
    """A rates.gp data file: judged steps, steps not judged, saturation point (three blocks)."""
    judged, client_bound = points(steps)
    marked = saturation_point(summary, steps)
    blocks = [judged, client_bound, [marked] if marked else []]

    def number(value):
        return "NaN" if value is None else f"{value:g}"

    def line(point):
        offered, reply, reply_ms, verdict, raw, p50, p99, response_ms = point
        return (f"{offered:g}\t{reply:g}\t{number(reply_ms)}\t{verdict}\t{raw}\t{number(p50)}\t{number(p99)}"
                f"\t{number(response_ms)}")
    text = ("# offered_rps\treply_rps\treply_ms\tverdict\traw httperf output (in the cell's folder)"
            "\tp50_ms\tp99_ms\tresponse_ms\n")
    # An empty block would stop gnuplot; a row of NaN keeps the block and draws nothing.
    return text + "\n\n\n".join("\n".join(map(line, block)) if block else "NaN\tNaN\tNaN\t-\t-\tNaN\tNaN\tNaN"
                                for block in blocks) + "\n"


def spans_decades(values):
    values = [value for value in values if value and value > 0]
    return bool(values) and max(values) / min(values) > 10


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def ratio_text(row, reference, suffix="x", missing="-"):
    """One cell's throughput over another's (an app's over another app's, or over its server's
    baseline), marked where either is only a lower bound: ~ both, >= this one, <= the reference."""
    mine, theirs = number(row["saturation_rps"]), reference and number(reference["saturation_rps"])
    if not mine or not theirs:
        return missing
    mark = "~" if row["lower_bound"] and reference["lower_bound"] else (
        ">= " if row["lower_bound"] else "<= " if reference["lower_bound"] else "")
    return f"{mark}{mine / theirs:.2f}{suffix}"


def throughput_text(row):
    if row.get("status") == WORK_MISSING:
        return "database work missing"
    if not row["saturation_rps"]:
        return "none passed"
    return (">= " if row["lower_bound"] else "") + f"{float(row['saturation_rps']):,.1f}"


def count_text(count):
    return f"{float(count):,.2f}" if float(count) < 100 else f"{float(count):,.0f}"


def database_work_text(row):
    """MariaDB's count per 2xx reply at saturation, e.g. "1.00 / 16,000 / 0.00", then each other
    command the replies sent ("1.00 executes, 2.00 pings"); with the steps that fell short of the
    declared work; "-" for a run or a cell without the count (a run from before the commands were
    counted shows the first three alone)."""
    counts = [row[f"db_{name}_per_reply"] for name in ("selects", "rows", "connections")]
    short = int(row.get("work_missing_steps") or 0)
    text = "-" if "" in counts else " / ".join(count_text(count) for count in counts)
    sent = [f"{count_text(count)} {name.replace('_', ' ')}" for name in DATABASE_COMMANDS if name != "connections"
            and (count := row.get(f"db_{name}_per_reply", "")) != "" and float(count) >= 0.005]
    text += f"; {', '.join(sent)}" if sent and text != "-" else ""
    return f"{text}; {short} step(s) short" if short else text


def bars_text(view, rows, workload):
    """bars.gp data for one workload: apps grouped by engine, one bar per app in registry order, with
    the median's interval over the rounds (NaN with one round)."""
    located, bounds, groups = [], [], []
    x = 0
    for engine in view.present("engines"):
        group = [row for row in rows if row["workload"] == workload and row["engine"] == engine]
        if not group:
            continue
        first = x
        for app in view.apps:
            row = next((row for row in group if row["app"] == app), None)
            if row is not None and number(row["saturation_rps"]) is not None:
                study = number(row["study_2006_rps"])
                low, high = number(row.get("median_low")), number(row.get("median_high"))
                line = (f"{x}\t{number(row['saturation_rps']):g}\t{int(view.colour(app)[1:], 16)}\t"
                        f"{throughput_text(row)}\t{'NaN' if study is None else f'{study:g}'}\t"
                        f"{'NaN' if low is None else f'{low:g}'}\t{'NaN' if high is None else f'{high:g}'}")
                (bounds if row["lower_bound"] else located).append(line)
            x += 1
        groups.append(f"{(first + x - 1) / 2:g}\t{view.engine_title(engine)}")
        x += 1
    blank = "NaN\tNaN\t0\t-\tNaN\tNaN\tNaN"
    return "\n\n\n".join("\n".join(block) if block else blank for block in (located, bounds, groups)) + "\n"


def aligned_tables(lines):
    """Markdown tables among text lines, their columns padded to line up on a monospaced page (a
    table's separator row becomes dashes)."""
    out, table = [], []

    def flush():
        rows = [[cell.strip() for cell in line.strip().strip("|").split("|")] for line in table]
        separator = [all(set(cell) <= set("-:") for cell in row) for row in rows]
        widths = [max((len(row[index]) for row, rule in zip(rows, separator) if index < len(row) and not rule),
                      default=1) for index in range(len(rows[0]))]
        for row, rule in zip(rows, separator):
            if rule:
                out.append("  ".join("-" * width for width in widths))
            else:
                out.append("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
        table.clear()
    for line in lines:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            flush()
        out.append(line)
    if table:
        flush()
    return out


def text_page(headings, body):
    """text.gp data: headings then body lines, each with its line number."""
    def block(lines, start):
        return "\n".join(f"{start + index * (2 if start == 0 else 1):g}\t{line.replace(chr(9), ' ')}"
                         for index, line in enumerate(lines)) or "0\t "
    return block(headings, 0) + "\n\n\n" + block(body, 2 * len(headings) + 1) + "\n"


def short_interval(row):
    if row["median_low"] == "":
        return "-"
    return f"{float(row['median_low']):,.0f}-{float(row['median_high']):,.0f} {float(row['median_confidence']):.0%}"


def ratio_interval_text(interval):
    if interval.low is None:
        return f"{interval.estimate:.2f} (one round: no interval)"
    return f"{interval.estimate:.2f} [{interval.low:.2f}, {interval.high:.2f}] ({interval.confidence:.0%})"
