"""A paper's reproduction in words (`make reproduce PAPER=`): each figure's section of <paper>.md (our
points, the paper's values, the verdicts, what differs) and the page around them (the machine and its
speed canary, the paper's load, what differs everywhere, the figures not run). Pure."""
from harness.report.paper_figures import interval_about, series_title, sides_text, value_label, verdict_rows


def figure_markdown(figure, values, points, recorded):
    """The figure's section of <paper>.md: our points, the paper's values, the verdicts, what differs;
    the apps named as the registry the run `recorded` titles them."""
    label, form, within = value_label(figure)
    lines = [f"## Fig. {figure['id']}: {figure['title']}", "", interval_about(points, within) + ".", ""]
    several = len({workload for _, workload in points}) > 1 and figure["x"] != "items"
    lines += [f"| series | x | {label} | interval | kept alive | flags |", "|---|---:|---:|---|---:|---|"]
    for (app, workload), series in points.items():
        for x, each in series:
            share = "" if each["keepalive_share"] is None else f"{each['keepalive_share']:.0%}"
            lines.append(f"| {series_title(figure, app, recorded, workload if several else None)} | {'' if x is None else x} | "
                         f"{each['value']:{form}} | {each['low']:{form}}–{each['high']:{form}} | {share} | "
                         f"{'; '.join(each['flags'])} |")
    for measure, about, shown in (("replies/s", "The paper's bars", ",.0f"), ("items/s", "The paper's rates", ",.0f"),
                                  ("MB", "The paper's memory", ",.2f"), ("packets/s", "The paper's packet rates", ",.0f"),
                                  ("MB/1000 packets", "The paper's memory per 1,000 packets", ",.1f")):
        given = [row for row in values if row["figure"] == figure["id"] and row["measure"] == measure]
        if given:
            lines += ["", f"{about}: " + ", ".join(paper_value_text(row, shown) for row in given)
                      + f" {measure.replace('replies', 'requests')}."]
    verdicts = verdict_rows(figure, values, points)
    if verdicts:
        lines += ["", "| ratio | span | the paper | ours | verdict |", "|---|---|---|---|---|"]
        lines += [f"| {row['comparison']} ({row['apps']}) | {row['span']} | {row['paper']}, {row['source']} | "
                  f"{row['ours']} | {row['verdict']} |" for row in verdicts]
    else:
        lines += ["", "The paper gives no value for this figure: ours stands alone."]
    lines += ["", sides_text(figure["sides"])]
    if figure.get("differs"):
        lines += ["", "What still differs, beside the paper's own list: " + " ".join(figure["differs"])]
    return lines + [""]


def paper_value_text(row, shown):
    """"gSOAP 930 (line 199)", a range as "7.6–50", and the items it holds for when the paper's row
    names them ("gSOAP 930 (1000–5000 items, line 199)")."""
    low, high = float(row["low"]), float(row["high"])
    value = f"{low:{shown}}" if low == high else f"{low:{shown}}–{high:{shown}}"
    span = f"{row['x_low']}–{row['x_high']} items, " if row.get("x_low") else ""
    return f"{row['series']} {value} ({span}line {row['line']})"


def canary_text(readings):
    """", the speed canary (ms) cpu0 before 3.5, ..." of a run's canary readings; "" without any."""
    found = [f"{name.removeprefix('canary_').removesuffix('_ms').replace('_', ' ')} {ms:g}"
             for name, ms in (readings or {}).items() if name.endswith("_ms")]
    return f", the speed canary (ms) {', '.join(found)}" if found else ""


def paper_markdown(declaration, host, sections, not_run):
    """<paper>.md: the machine, the paper's load, its list of what differs, each figure's section,
    the figures not run and why."""
    lines = [f"# {declaration['paper']} reproduced", "",
             f"{host.get('cpu_model', '?')}, {host.get('cores', '?')} cores{canary_text(host.get('canary'))}. "
             f"{declaration['load'].get('about', '')} "
             f"The paper's values: experiments/papers/{declaration['values']}, each with its line in "
             f"{declaration['text']}.", "", "What differs in every figure:", ""]
    lines += [f"- {item}" for item in declaration.get("differs", [])] + [""]
    for section in sections:
        lines += section
    if not_run:
        lines += ["## Not run by `make reproduce`", ""]
        lines += [f"- {item['id']} ({item['title']}): {item['why']}" for item in not_run]
    return "\n".join(lines) + "\n"
