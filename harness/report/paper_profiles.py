"""A paper's CPU breakdowns and memory footprints beside ours (`make reproduce`, a figure whose x is
"breakdown" or "memory": ICWS'08's Figs. 9-13 and §4.5.3), from the levels the concurrency sweep
measured under the paper's load. Pure: levels, the paper's rows and the registry the run recorded (a
Manifest: the apps' titles, servers and their titles) in, data files and lines out.

A breakdown is the profiled windows of an app's level (one per round) added up: by component over
the servers the paper's figure covers (the figure's `profiled_servers` for an app, else every server
of the app), by process (ICWS'08's Fig. 9), and by object per server (Figs. 10-13, each share of that
server's own samples). A footprint is the medians over every window of every round of each server's
processes, PSS, peak RSS and a JVM's heap after its last collection."""
import statistics
from collections import Counter

from harness.judge.cpu_components import rules
from harness.report.paper_figures import round_levels

KINDS = ("breakdown", "memory")
OBJECTS_SHOWN = 8  # objects listed per server, the largest


def app_levels(figure, apps, workloads, ladder, measured):
    """{app: [its levels that serve the figure, one a round and cell]} over the figure's workloads and levels."""
    found = {}
    for app in apps:
        levels = [level for workload in workloads for connections in ladder
                  for level in round_levels(figure, measured.get((app, workload, connections), []))]
        if levels:
            found[app] = levels
    return found


def covered(figure, app, recorded):
    """The servers whose CPU the paper's breakdown of the app covers."""
    return figure.get("profiled_servers", {}).get(app) or recorded.app_servers(app)


def pooled(levels, servers):
    """The profiled windows of several rounds added up: {"components": {component: s} over `servers`,
    "by_server": {server: s}, "objects": {server: {object: s}}, "rounds", "profiled_over_measured":
    [each window's]}."""
    components, by_server, objects = Counter(), Counter(), {}
    for level in levels:
        profile = level["profile"]
        for server, parts in profile["breakdown"]["servers"].items():
            by_server[server] += sum(parts.values())
            if server in servers:
                components.update(parts)
        for server, parts in profile["objects"].items():
            objects.setdefault(server, Counter()).update(parts)
    return {"components": components, "by_server": by_server, "objects": objects, "rounds": len(levels),
            "profiled_over_measured": [level["profile"]["profiled_over_measured"] for level in levels]}


def percents(counter):
    """{name: percent of the counter's total}, largest first."""
    total = sum(counter.values())
    return {name: 100 * value / total for name, value in counter.most_common()} if total else {}


def paper_breakdowns(rows, recorded):
    """{app: (its figure, the paper's setup, {component: percent}, [(part, percent)])} of a paper's
    breakdowns by component (ICWS'08's Figs. 10-13), and {app: [(part, percent, server)]} by process
    (Fig. 9, whose component column names the lab's servers): {app: [(figure, part, percent, line)]}."""
    by_component, by_process = {}, {}
    process_figures = {row["figure"] for row in rows if row["component"] in recorded.server_names}
    for row in rows:
        percent = float(row["percent"])
        if row["figure"] in process_figures:
            by_process.setdefault(row["app"], []).append((row["figure"], row["part"], percent, row["line"]))
            continue
        figure, setup, parts, listed = by_component.setdefault(row["app"], (row["figure"], row["paper_setup"], {}, []))
        parts[row["component"]] = parts.get(row["component"], 0.0) + percent
        listed.append((row["part"], percent))
    return by_component, by_process


def label_of(figure, app, recorded):
    labels = [label for label, mapped in figure["series"].items() if mapped == app]
    return " = ".join(labels) or recorded.title(app)


def breakdown_bars(figure, paper_rows, ours, recorded):
    """breakdown.gp's data: a header of the components' titles, then per app in the figure's order the
    paper's bar (when it has one) and ours, each component's percent."""
    table = rules()
    theirs, _ = paper_breakdowns(paper_rows, recorded)
    lines = ["bar\t" + "\t".join(f'"{table.title(name)}"' for name in table.components)]
    for app in dict.fromkeys(figure["series"].values()):
        if app not in ours:
            continue
        if app in theirs:
            number, _, parts, _ = theirs[app]
            lines.append(f'"{label_of(figure, app, recorded)}: the paper, Fig. {number}"\t'
                         + "\t".join(f"{parts.get(name, 0.0):.1f}" for name in table.components))
        found = percents(ours[app]["components"])
        lines.append(f'"{label_of(figure, app, recorded)}: ours"\t' + "\t".join(f"{found.get(name, 0.0):.1f}" for name in table.components))
    return "\n".join(lines) + "\n"


def breakdown_lines(figure, paper_rows, ours, recorded):
    """The breakdown's text, a block per app: the servers' split (the paper's Fig. 9 beside, where it
    has one), each server's largest objects, the paper's parts, how the profile adds up."""
    table = rules()
    theirs, processes = paper_breakdowns(paper_rows, recorded)
    lines = []
    for app in dict.fromkeys(figure["series"].values()):
        if app not in ours:
            continue
        found = ours[app]
        servers = recorded.app_servers(app)
        split = percents(Counter({server: found["by_server"][server] for server in servers}))
        lines.append(f"{label_of(figure, app, recorded)} ({app}), {found['rounds']} profiled window(s); profiled / measured CPU "
                     + ", ".join(f"{value:.2f}" for value in found["profiled_over_measured"] if value is not None))
        split_text = ", ".join(f"{recorded.server_title(server)} {value:.0f} %" for server, value in split.items())
        if app in processes:
            (number, _, _, line), *_ = processes[app]
            split_text += f"; the paper (Fig. {number}, line {line}): " + ", ".join(
                f"{part} {value:g} %" for _, part, value, _ in processes[app])
        lines.append("  by process, ours: " + split_text)
        for server in servers:
            objects = percents(found["objects"].get(server, Counter()))
            lines.append(f"  {recorded.server_title(server)}'s objects, ours: "
                         + ", ".join(f"{name} {value:.0f} %" for name, value in list(objects.items())[:OBJECTS_SHOWN]))
        if app in theirs:
            number, setup, parts, listed = theirs[app]
            line = next(row["line"] for row in paper_rows if row["figure"] == number)
            lines.append(f"  the paper's, {setup} (line {line}): "
                         + ", ".join(f"{part} {value:g} %" for part, value in listed if value))
            mine = percents(found["components"])
            lines.append("  by component, the paper / ours: " + ", ".join(
                f"{table.title(name)} {parts.get(name, 0):.0f} / {mine.get(name, 0):.0f} %" for name in table.components
                if parts.get(name, 0) >= 1 or mine.get(name, 0) >= 1))
        if figure.get("profiled_servers", {}).get(app):
            lines.append(f"  components over {', '.join(covered(figure, app, recorded))} only, as the paper's figure covers")
        lines.append("")
    return lines


MEMORY_FIGURES = ("processes", "pss_mb", "rss_peak_mb", "heap_after_gc_mb")


def footprint(levels, server):
    """{figure: median over every window of every level} of a server's memory figures it has."""
    found = {}
    for name in MEMORY_FIGURES:
        values = [window["servers"][f"{server}_{name}"] for level in levels for window in level["windows_figures"]
                  if f"{server}_{name}" in window.get("servers", {})]
        if values:
            found[name] = statistics.median(values)
    return found


def memory_lines(figure, values, levels_by_app, recorded):
    """The footprint's table, a row per server of each app, and the paper's figures with their lines."""
    def text(value, digits=1):
        return "-" if value is None else f"{value:,.{digits}f}"
    lines = ["| configuration | server | processes | PSS MB | PSS per process MB | RSS peak MB | JVM heap after GC MB | "
             "windows |", "|---|---|---:|---:|---:|---:|---:|---:|"]
    for app in dict.fromkeys(figure["series"].values()):
        levels = levels_by_app.get(app)
        if not levels:
            continue
        windows = sum(len(level["windows_figures"]) for level in levels)
        for server in recorded.app_servers(app):
            found = footprint(levels, server)
            processes, pss = found.get("processes"), found.get("pss_mb")
            lines.append(f"| {label_of(figure, app, recorded)} | {recorded.server_title(server)} | {text(processes, 0)} | "
                         f"{text(pss)} | {text(pss / processes if pss and processes else None)} | "
                         f"{text(found.get('rss_peak_mb'))} | {text(found.get('heap_after_gc_mb'))} | {windows} |")
    paper = [f"{row['series']} {float(row['low']):g} {row['measure']} (line {row['line']})"
             for row in values if row["figure"] == figure["id"]]
    return lines + ([""] + ["The paper: " + "; ".join(paper) + "."] if paper else [])
