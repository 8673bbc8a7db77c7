"""A run as a person browses it and as a script reads it: the models of its HTML pages (the front
page, a page per cell) and results.json, from the run's saved results alone. Pure: the View and the
summary rows in, dicts out; harness/report/html.py renders them with the templates beside it.

Every link is relative to the run's report/ folder, so the pages open from the file system."""
import statistics
from collections import Counter

from harness.report.series import database_work_text
from harness.report.tables import title_lines
from harness.report.trust import database_work_line, disturbance_line, rounds_line, speed_line
from harness.report.turns import pairs_document, turn_lines
from harness.results import kinds
from harness.results.interleave import CONTROL
from harness.results.records import DATABASE_WORK, CellKey
from harness.results.speed import cpu_names
from harness.results.stats import Interval
from stack.registry import engine_title
from stack.workload_names import workload_title

FORMAT = "web-architecture-lab results"
FORMAT_VERSION = 1


def number(value):
    """A summary row's value as a number, or None where it is empty."""
    if value in ("", None):
        return None
    return float(value)


def cell_name(row):
    return f"{row['app']}-{row['engine']}-{row['workload']}"


def cell_key(view, row):
    """The CellKey of a summary row."""
    return next(key for key in view.cells if (key.app, key.engine, key.workload) == (row["app"], row["engine"], row["workload"]))


def lower_bound(row):
    """Whether a summary row's figure is a lower bound (the client or the plan ran out first)."""
    return row["lower_bound"] in (1, "1", True)


def verdict_counts(view, key):
    """{verdict: how many steps} over every measurement of the cell."""
    return dict(Counter(step.verdict for _, steps in view.measurements(key) for step in steps))


def database_work(row):
    """MariaDB's count per 2xx reply at saturation and the cell's steps that fell short of the work
    declared; None for a cell or a run without the count."""
    counts = {f"{name}_per_reply": number(row.get(f"db_{name}_per_reply", "")) for name in DATABASE_WORK}
    if any(counts[f"{name}_per_reply"] is None for name in ("selects", "rows", "connections")):
        return None
    # The commands beside the SELECT are left out in a run from before they were counted.
    return {**{name: count for name, count in counts.items() if count is not None},
            "steps_short": int(row.get("work_missing_steps") or 0)}


def results_document(view, rows):
    """results.json: the run, its machine and every cell's figure, interval, rounds and verdict counts."""
    manifest = view.manifest
    cells = []
    for row in rows:
        low, high = number(row["median_low"]), number(row["median_high"])
        cells.append({
            "app": row["app"], "engine": row["engine"], "workload": row["workload"], "status": row["status"],
            "saturation_rps": number(row["saturation_rps"]), "lower_bound": lower_bound(row),
            "interval": None if low is None else {"low": low, "high": high,
                                                  "confidence": number(row["median_confidence"])},
            "rounds": int(row["rounds"]),
            "round_figures": [float(value) for value in str(row["round_figures"]).split()],
            "reply_ms_saturation": number(row["reply_ms_saturation"]),
            "p99_ms_saturation": number(row["p99_ms_saturation"]),
            "server_cpu_pct_saturation": number(row["server_cpu_pct_saturation"]),
            "bottleneck": row["bottleneck"] or None,
            "database_work": database_work(row),
            "verdicts": verdict_counts(view, cell_key(view, row))})
    return {"format": FORMAT, "format_version": FORMAT_VERSION, "run_id": manifest.run_id,
            "started": manifest.started, "finished": manifest.finished,
            "host": {"cpu_model": manifest.host.get("cpu_model"), "cores": manifest.host.get("cores"),
                     "memory_gib": manifest.host.get("memory_gib")},
            "apps": view.apps, "engines": view.present("engines"), "workloads": view.present("workloads"),
            "rounds": view.rounds, "cells": cells, "pairs": pairs_document(view.run)}


def cell_label(view, row):
    return f"{view.title(row['app'])}, {view.engine_title(row['engine'])}, {workload_title(row['workload'], short=True)}"


def figure_text(row):
    figure = number(row["saturation_rps"])
    if figure is None:
        return "none passed"
    return f"{'>= ' if lower_bound(row) else ''}{figure:,.0f}"


def interval_text(row):
    low, high = number(row["median_low"]), number(row["median_high"])
    if low is None:
        return "one round: none"
    return f"{low:,.0f}–{high:,.0f} ({number(row['median_confidence']):.0%})"


def front_page(view, rows):
    """The run's front page: what ran (the report's title page, line by line), the saturation table
    with intervals and links to the cells, the run's warnings."""
    headings, body = title_lines(view)
    table = [{"label": cell_label(view, row), "page": f"cell-{cell_name(row)}.html", "workload": row["workload"],
              "figure": figure_text(row), "interval": interval_text(row), "rounds": row["rounds"],
              "status": row["status"], "reply_ms": row["reply_ms_saturation"], "cpu_pct": row["server_cpu_pct_saturation"],
              "database": database_work_text(row), "bottleneck": row["bottleneck_why"] or row["bottleneck"]} for row in rows]
    warnings = [rounds_line(view), disturbance_line(view), database_work_line(view), speed_line(view)]
    bounds = [entry["label"] for entry, row in zip(table, rows) if lower_bound(row)]
    if bounds:
        warnings.append("lower bounds (the client or the plan ran out first): " + "; ".join(bounds))
    return {"title": headings[-1], "heading": headings[0], "about": body, "cells": table, "warnings": warnings,
            "run_id": view.manifest.run_id, "turns": "\n".join(turn_lines(view))}


def raw_link(files, visit, raw):
    """A step's raw output, relative to the report's folder."""
    folder = files.cell(visit.key, visit.round, visit.replica)
    return f"../{folder.relative_to(files.directory)}/{raw}"


def cell_page(view, row, files, figure, profile=None):
    """A cell's page: its figure (an SVG beside the page), every measurement's steps with their
    verdicts and why, each linked to its raw output, and its profile where the run has one."""
    key = cell_key(view, row)
    measurements = []
    for visit, steps in view.measurements(key):
        summary = view.measured_rows[visit]
        measurements.append({
            "name": f"round {visit.round}" + (f", repeat {visit.replica}" if visit.replica > 1 else ""),
            "figure": summary.saturation_rps, "status": summary.status,
            "steps": [{"step": step.step, "offered": step.offered_rate, "role": step.role,
                       "reply_rate": None if step.reply_rate is None else round(step.reply_rate, 1),
                       "reply_ms": step.reply_time_ms,
                       "verdict": step.verdict, "reason": step.reason, "work_missing": step.work_missing,
                       "raw": raw_link(files, visit, step.raw)}
                      for step in steps]})
    profile_links = None
    if profile and "breakdown" in profile:
        folder = f"../profile/{key.name}"
        profile_links = {"flame": f"{folder}/flame.svg", "breakdown": f"{folder}/breakdown.json",
                         "top": profile.get("top")}
    return {"title": cell_label(view, row), "run_id": view.manifest.run_id, "figure": figure,
            "summary": {"figure": figure_text(row), "interval": interval_text(row), "rounds": row["rounds"],
                        "status": row["status"], "bottleneck": row["bottleneck_why"] or row["bottleneck"],
                        "database": database_work_text(row),
                        "rss_mb": row["server_rss_mb_saturation"]},
            "measurements": measurements, "profile": profile_links,
            "sources": [{"name": "steps.tsv", "href": f"../{files.cell_steps(key).relative_to(files.directory)}"},
                        {"name": "manifest.json", "href": "../manifest.json"}]}


def concurrency_sections(results):
    """A concurrency sweep's page below its concurrency.md, from concurrency.json's `results`: per cell
    and connection mode, every level's medians, its flags and its windows' raw reports (and the
    flame graph of its profiled window), linked from the run's report/ folder."""
    sections = []
    for result in results:
        folder = f"../cells/{CellKey(result['app'], result['engine'], result['workload']).name}"
        levels = []
        for level in result["levels"]:
            profile = level.get("profile") or {}
            levels.append({
                "connections": level["connections"], "replies_per_s": level["replies_per_s"],
                "p50_ms": level["p50_ms"], "p99_ms": level["p99_ms"], "client_cpu_share": level["client_cpu_share"],
                "error_share": level["error_share"], "keepalive_share": level.get("keepalive_share"),
                "flags": level["flags"], "peak": level["connections"] == result["peak"],
                "knee": level["connections"] == result["knee"],
                "raw": [f"{folder}/{raw}" for raw in level["raw"]],
                "flame": f"{folder}/{profile['folder']}/flame.svg" if "folder" in profile else None})
        sections.append({"title": f"{result['app']}, {engine_title(result['engine'])}, "
                                  f"{workload_title(result['workload'], short=True)}, connections "
                                  f"{mode_text(result['connection'])}",
                         "driver": result.get("driver", "wrk"), "levels": levels})
    return sections


def canary_text(readings, server_cpus):
    """"canary 4.66 ms": the speed canary's median over a run (canary.json's {CPU: [ms]}) on its
    servers' CPUs, else on every CPU it read; "" when it read none (runs before the canary)."""
    wanted = cpu_names(server_cpus)
    times = [ms for cpu, values in (readings or {}).items() if cpu in wanted for ms in values] or \
        [ms for values in (readings or {}).values() for ms in values]
    return f"canary {statistics.median(times):.2f} ms" if times else ""


def run_entry(run_id, manifest, document, has_report, peaks=None, canary=None):
    """A row of results/index.html: a run's date, host, its boot and speed canary (`canary`: its canary.json),
    set, rounds, its cells as the index's script compares them and its headline figures (the fastest
    cell per workload), from its manifest and results.json (None: not written) or, for a concurrency
    sweep, its concurrency.json's `peaks`; linked to its report when it `has_report`."""
    host = manifest.get("host", {})
    started = manifest.get("started") or ""
    entry = {"run_id": run_id, "started": started, "started_text": started[:16].replace("T", " ") + (" UTC" if started else ""),
             "finished": bool(manifest.get("finished")),
             "cpu_model": host.get("cpu_model", "?"), "cores": host.get("cores", "?"),
             "canary": canary_text(canary, manifest.get("pinning", {}).get("server_cpus")),
             "boot": (host.get("boot_id") or "")[:8],
             "set": manifest.get("options", {}).get("app_set") or manifest.get("options", {}).get("set") or "",
             "report": f"{run_id}/report/index.html" if has_report else None, "rounds": None, "headline": [],
             "cells": None, "kind": None, "pairs": None, "turns": ""}
    if document:
        entry.update(rounds=document["rounds"], cells=comparable(document), kind=kinds.TITLES[kinds.SWEEP],
                     pairs=comparable_pairs(document), turns=decided_text(document.get("pairs", [])))
        entry["headline"] = fastest_per_workload(
            (cell["workload"], cell["saturation_rps"], f"{cell['app']} {cell['saturation_rps']:,.0f} req/s")
            for cell in document["cells"] if cell["saturation_rps"] is not None)
    elif peaks:
        entry.update(rounds=1, cells=peak_cells(peaks), kind=kinds.TITLES[kinds.CONCURRENCY])
        entry["headline"] = fastest_per_workload(
            (result["workload"], level["replies_per_s"], f"{result['app']} {level['replies_per_s']:,.0f} replies/s "
                                                         f"at {level['connections']} connections ({mode_text(result['connection'])})")
            for result, level in peak_levels(peaks))
    return entry


def fastest_per_workload(figures):
    """"workload: text" of the fastest of each workload's (workload, rate, text), in first-seen order."""
    best = {}
    for workload, rate, text in figures:
        if workload not in best or rate > best[workload][0]:
            best[workload] = (rate, text)
    return [f"{workload}: {text}" for workload, (_, text) in best.items()]


def window_range(level):
    """The lowest and highest replies/s of a concurrency level's windows (its median's alone without them)."""
    windows = [window["replies_per_s"] for window in level.get("windows_figures", [])] or [level["replies_per_s"]]
    return min(windows), max(windows)


def mode_text(connection):
    return "kept alive" if connection == "keepalive" else "closed"


def peak_levels(results):
    """[(a cell and mode's result, its peak level)] of a concurrency sweep's results that have a peak."""
    return [(result, level) for result in results for level in result["levels"] if level["connections"] == result["peak"]]


def peak_cells(results):
    """What the index's script sets beside another concurrency sweep's, from concurrency.json: per
    cell and connection mode (its label), the throughput at its peak and the range of that level's
    windows (None with one window)."""
    cells = {}
    for result, level in peak_levels(results):
        low, high = window_range(level) if len(level.get("windows_figures", [])) > 1 else (None, None)
        cells[f"{result['app']}, {engine_title(result['engine'])}, {workload_title(result['workload'], short=True)}, "
              f"peak, connections {mode_text(result['connection'])}"] = {
            "figure": level["replies_per_s"], "low": low, "high": high, "rounds": 1, "lower_bound": False}
    return cells


def comparable(document):
    """What the index's script sets beside another run's, from a run's results.json: per cell (its
    label), the figure, its interval's ends (None with one round), the rounds and whether it is a
    lower bound."""
    return {f"{cell['app']}, {engine_title(cell['engine'])}, {workload_title(cell['workload'], short=True)}": {
        "figure": cell["saturation_rps"], "low": (cell["interval"] or {}).get("low"),
        "high": (cell["interval"] or {}).get("high"), "rounds": cell["rounds"], "lower_bound": cell["lower_bound"]}
        for cell in document["cells"] if cell["saturation_rps"] is not None}


def comparable_pairs(document):
    """What the index's script sets beside another run's pair ratios, from results.json's `pairs`: per
    pair ("A / B"), its ratio by turns and its interval's ends."""
    return {f"{pair['b']} / {pair['a']}": {"ratio": pair["ratio"], "low": pair["low"], "high": pair["high"]}
            for pair in document.get("pairs", [])} or None


def decided_text(pairs):
    """The index's words for a run's pairs by turns (results.json's `pairs`): "6/6 decided, ±8 %" at the
    median pair of cells, the A/A control apart; "" without turns."""
    judged = [pair for pair in pairs if pair["low"] is not None and not pair["b"].endswith(CONTROL)]
    widths = [Interval(pair["ratio"], pair["low"], pair["high"]).half_width for pair in judged]
    return f"{sum(pair['decided'] for pair in judged)}/{len(judged)} decided, ±{statistics.median(widths):.0%}" if judged else ""


def runs_index(entries):
    """results/index.html's rows, newest first."""
    return sorted(entries, key=lambda entry: entry["started"], reverse=True)
