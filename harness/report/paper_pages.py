"""A paper's figure as plots/paper-figure.gp draws it: the data files of a page (our points, ratios,
the paper's bars and spans, flagged points) and the notes under its panels. Pure."""
import textwrap

from harness.report.paper_figures import closing_connections, interval_about, series_title, sides_text, value_label
from harness.report.view import PALETTE
from stack import workload_names

# gnuplot's `index` skips a block with no data line (a comment alone), which shifted every later block:
# an empty block holds a missing value.
EMPTY_BLOCK = "NaN"
NOTE_WIDTH = 170  # characters of a line of the page's notes (plots/paper-figure.gp sets their font)
# A lines page's x axis, when it draws several kinds of message (or connections).
X_LABELS = {"items": "structs or nodes in the message", "connections": "concurrent connections (Apache Bench, kept alive)"}


def flagged(point):
    """The point's value when a flag bound it (drawn as an open circle), else None."""
    return point["value"] if point.get("flags") else None


def nan(value):
    return "NaN" if value is None else f"{value:g}"


def bars_text(figure, values, points, ratios, recorded):
    """paper-figure.gp's data for a figure against apps: two blocks, a row per app (position, ours,
    low, high, the paper's bar, colour, label, ours again when a flag bound it) then per app but the reference (position, our ratio,
    low, high, the paper's ratio's low and high, colour, label). recorded: the registry the run
    recorded (a Manifest), for titles and colours."""
    apps = figure["series"]
    paper_bar, paper_ratio = {}, {}
    for row in values:
        if row["figure"] != figure["id"]:
            continue
        if row["measure"] == "replies/s":
            paper_bar.setdefault(apps[row["series"]], float(row["low"]))
        elif apps[row["over"]] == figure["reference"] and row["low"]:
            paper_ratio[apps[row["series"]]] = (float(row["low"]), float(row["high"]))
    throughput, quotients = [], []
    for position, ((app, workload), series) in enumerate(points.items()):
        ours = series[0][1]
        label = series_title(figure, app, recorded).replace(f" ({app})", "")
        throughput.append(f"{position}\t{ours['value']:g}\t{ours['low']:g}\t{ours['high']:g}\t"
                          f"{nan(paper_bar.get(app))}\t{colour_of(app, recorded)}\t{label}\t{nan(flagged(ours))}")
        if (app, workload) in ratios:
            mine = ratios[(app, workload)][0][1]
            low, high = paper_ratio.get(app, (None, None))
            quotients.append(f"{position}\t{mine['value']:g}\t{nan(mine['low'])}\t{nan(mine['high'])}\t"
                             f"{nan(low)}\t{nan(high)}\t{colour_of(app, recorded)}\t{label}")
    return "\n".join(throughput) + "\n\n\n" + ("\n".join(quotients) or EMPTY_BLOCK) + "\n"


def lines_text(figure, values, points, ratios, recorded):
    """paper-figure.gp's data for a figure against items or connections, three blocks per series:
    our throughput (x, value, low, high), our ratio over the reference (the same), the paper's ratio
    over the reference where it gives one (x_low, x_high, low, high); a throughput row's fifth column
    is its value again when a flag bound it; and the series' titles,
    colours and dashes, from the registry the run `recorded`."""
    apps = figure["series"]
    workloads = list(dict.fromkeys(workload for _, workload in points))
    several = len(workloads) > 1 and figure["x"] != "items"
    block = lambda series: "\n".join(f"{x:g}\t{each['value']:g}\t{nan(each['low'])}\t{nan(each['high'])}\t"
                                     f"{nan(flagged(each))}" for x, each in series) or EMPTY_BLOCK
    spans = {}
    for row in values:
        if row["figure"] == figure["id"] and row["measure"] == "ratio" and row["low"] \
                and apps[row["over"]] == figure["reference"]:
            spans.setdefault(apps[row["series"]], f"{row['x_low']}\t{row['x_high']}\t{row['low']}\t{row['high']}")
    # A paper's span is drawn once per app, with its first workload's series.
    firsts = {app: workload for app, workload in reversed(list(points))}
    blocks = [block(series) for series in points.values()] + [block(ratios.get(key, [])) for key in points]
    blocks += [spans.get(app, EMPTY_BLOCK) if firsts[app] == workload else EMPTY_BLOCK for app, workload in points]
    series = [(series_title(figure, app, recorded, workload if several else None), colour_hex(app, recorded),
               workloads.index(workload) + 1) for app, workload in points]
    return "\n\n\n".join(blocks) + "\n", series


def colour_hex(app, recorded):
    """The app's colour in every figure of the lab ("#rrggbb"), by its place in the registry the run
    `recorded`."""
    return PALETTE[recorded.colour_index(app) % len(PALETTE)]


def colour_of(app, recorded):
    """The app's colour as gnuplot's `lc rgb variable` reads it from a data column."""
    return int(colour_hex(app, recorded)[1:], 16)


def notes_text(figure, declaration, verdicts, points, recorded):
    """The page's text under the panels: a line per verdict, the interval's meaning, the servers that
    closed kept connections, what differs."""
    lines = [f"{row['comparison']}{' at ' + row['span'] if row['span'] else ''}: the paper {row['paper']} "
             f"({row['source']}), ours {row['ours']}: {row['verdict']}." for row in verdicts]
    if not verdicts:
        lines.append("The paper gives no value for this figure.")
    lines.append(sides_text(figure["sides"]))
    lines.append(interval_about(points, value_label(figure)[2]).capitalize() + ".")
    closed = closing_connections(points)
    if closed:
        lines.append("Closed the connections ab asked to keep (HTTP/1.0): " + ", ".join(
            sorted({recorded.title(app) for app, _, _ in closed})) + ".")
    return numbered_notes(lines, figure, declaration)


def numbered_notes(lines, figure, declaration):
    """The notes' file: `lines`, then what differs (the figure's, the paper's), wrapped and numbered."""
    lines = [*lines, *(f"Differs: {item}" for item in [*figure.get("differs", []), *declaration.get("differs", [])])]
    wrapped = [row for line in lines for row in textwrap.wrap(line, NOTE_WIDTH, subsequent_indent="    ")]
    return "\n".join(f"{number}\t{text}" for number, text in enumerate(wrapped, start=1)) + "\n"


def log_base(figure, points):
    """The x axis's log base: 2 for connections (2^1-2^10), 10 for items spanning over a hundredfold, else 0."""
    if figure["x"] == "connections":
        return 2
    xs = [x for series in points.values() for x, _ in series if x]
    return 10 if xs and max(xs) >= 100 * min(xs) else 0


def x_label(figure, points):
    """The x axis's words: the registry's for the one kind of message a figure draws against N ("Employee
    records in the message"), else its x's."""
    kinds_drawn = {kind for _, kind in points}
    if figure["x"] == "items" and len(kinds_drawn) == 1:
        axis = workload_names.echo_workloads().get(kinds_drawn.pop(), {}).get("axis")
        if axis:
            return axis
    return X_LABELS[figure["x"]]
