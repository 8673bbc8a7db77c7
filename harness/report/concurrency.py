"""The concurrency sweep's figures: a PDF per workload, a page per connection mode, a line per app
and engine (plots/concurrency.gp), concurrency.md and the run's pages to browse, from concurrency.json
and the manifest alone (`make report RUN=` draws them again), its apps titled and coloured as the
run's registry had them. The data files are pure text."""
import json
import statistics
import subprocess

from harness.report import html, site
from harness.report.gnuplot import gnuplot
from harness.results.manifest import Manifest
from harness.results.store import write_atomically
from harness.report.view import ENGINE_DASH, PALETTE
from stack.workload_names import workload_title

KEPT_ALIVE = 0.99  # of answered requests over a kept connection, below which a server is named as closing them


def series_text(levels, peak, knee):
    """A concurrency.gp data file: the unflagged levels, the flagged ones, the peak, the knee (four
    blocks) as connections, replies/s, p50, p99, raw report."""
    def line(level):
        number = lambda value: "NaN" if value is None else f"{value:g}"
        return (f"{level['connections']}\t{number(level['replies_per_s'])}\t{number(level['p50_ms'])}\t"
                f"{number(level['p99_ms'])}\t{level['raw'][0] if level['raw'] else ''}")
    blocks = [[level for level in levels if not level["flags"]], [level for level in levels if level["flags"]],
              [level for level in levels if level["connections"] == peak],
              [level for level in levels if level["connections"] == knee]]
    # gnuplot's `index` skips a block with no data line (a comment alone): an empty one holds a missing value.
    return "\n\n\n".join("\n".join(map(line, block)) or "NaN" for block in blocks) + "\n"


def summary_markdown(run_id, host, results):
    """concurrency.md: per workload, app, engine and mode its peak (throughput, p99 there), its knee
    and which levels were flagged, and why; then the cells a server would not keep alive."""
    drivers = " and ".join(dict.fromkeys(result.get("driver", "wrk") for result in results)) or "wrk"
    lines = [f"# Throughput against concurrency, run {run_id}", "",
             f"{host.get('cpu_model', '?')}, {host.get('cores', '?')} cores. {drivers}, closed loop; each level the "
             "median of its windows. Peak: the unflagged level of the highest throughput; knee: the first "
             "unflagged level whose p99 passes twice one connection's. Flagged levels (the client ran out, "
             "above a server's connection cap, failures, other work) are neither.", "",
             "| workload | app | engine | connections | peak: connections | replies/s | p99 ms | knee: connections | "
             "p99 ms | flagged levels |", "|---|---|---|---|---:|---:|---:|---:|---:|---|"]
    for result in results:
        by_level = {level["connections"]: level for level in result["levels"]}
        peak, knee = by_level.get(result["peak"]), by_level.get(result["knee"])
        flagged = {}
        for level in result["levels"]:
            for flag in level["flags"]:
                flagged.setdefault(flag.split(":")[0].split(", ")[0], []).append(str(level["connections"]))
        flagged = [f"{', '.join(levels)} ({why})" for why, levels in flagged.items()]
        rate = f"{peak['replies_per_s']:,.0f}" if peak else "-"
        lines.append(f"| {result['workload']} | {result['app']} | {result['engine']} | {result['connection']} | "
                     f"{result['peak'] or '-'} | {rate} | {peak['p99_ms'] if peak else '-'} | {result['knee'] or '-'} | "
                     f"{knee['p99_ms'] if knee else '-'} | {', '.join(flagged) or 'none'} |")
    return "\n".join(lines + closed_by_the_server(results)) + "\n"


def closed_by_the_server(results):
    """Lines naming the kept-alive cells whose server closed connections anyway (a driver that counts
    kept requests, ab, says how many went over a kept connection); none when every server kept them."""
    lines = []
    for result in results:
        shares = [level["keepalive_share"] for level in result["levels"] if level.get("keepalive_share") is not None]
        if result["connection"] == "keepalive" and shares and min(shares) < KEPT_ALIVE:
            lines.append(f"- {result['app']}, {result['engine']}, {result['workload']}: "
                         f"{min(shares):.0%}–{max(shares):.0%} of answered requests over a kept connection "
                         f"({result['driver']}'s count)")
    if not lines:
        return []
    return ["", f"Asked to keep connections alive, these servers closed them (below {KEPT_ALIVE:.0%} kept): each "
                "request there paid for a connection of its own.", ""] + lines


def level_rows(first, second, manifest):
    """Two concurrency sweeps' results (concurrency.json's) level by level: a row per cell, connection
    mode and level both measured with replies, in the first's order, with second over first and
    whether the ranges of their windows overlap; the engines named as the first run's `manifest` did."""
    theirs = {(result["app"], result["engine"], result["workload"], result["connection"]): result for result in second}
    rows = []
    for result in first:
        other = theirs.get((result["app"], result["engine"], result["workload"], result["connection"]))
        levels = {level["connections"]: level for level in other["levels"]} if other else {}
        for level in result["levels"]:
            match = levels.get(level["connections"])
            if not match or not level["replies_per_s"] or not match["replies_per_s"]:
                continue
            (low, high), (other_low, other_high) = site.window_range(level), site.window_range(match)
            rows.append({"cell": f"{result['app']}, {manifest.engine_title(result['engine'])}, "
                                 f"{workload_title(result['workload'], short=True)}, {site.mode_text(result['connection'])}",
                         "connections": level["connections"], "first": level, "second": match,
                         "second_over_first": match["replies_per_s"] / level["replies_per_s"],
                         "overlap": low <= other_high and other_low <= high,
                         "flags": sorted(set(level["flags"]) | set(match["flags"]))})
    return rows


def comparison_markdown(first_id, second_id, rows):
    """Two concurrency sweeps side by side, level by level (level_rows)."""
    def figure(level):
        low, high = site.window_range(level)
        return f"{level['replies_per_s']:,.0f} ({low:,.0f}–{high:,.0f})"
    lines = [f"# Concurrency sweep {first_id} against {second_id}", "",
             "Per cell, connection mode and level both runs measured: each level's throughput (the median of its "
             "windows, with their range), the second over the first, whether the two ranges overlap (where they do, "
             "the runs do not tell the level apart), each p99, and the flags either run gave the level "
             "(a flagged level is the client's, a cap's or other work's, not the server's).", ""]
    if rows:
        apart = [row for row in rows if not row["overlap"] and not row["flags"]]
        lines += [f"Levels in both: {len(rows)}; second / first: median "
                  f"{statistics.median(row['second_over_first'] for row in rows):.2f}; ranges apart at "
                  f"{len(apart)} unflagged level(s).", ""]
    lines += [f"| cell | connections | {first_id} replies/s | {second_id} replies/s | second / first | overlap | "
              f"p99 ms: {first_id} | {second_id} | flags |", "|---|---:|---:|---:|---:|---|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row['cell']} | {row['connections']} | {figure(row['first'])} | {figure(row['second'])} | "
                     f"{row['second_over_first']:.2f} | {'yes' if row['overlap'] else 'no'} | "
                     f"{row['first']['p99_ms']} | {row['second']['p99_ms']} | {'; '.join(row['flags']) or 'none'} |")
    return "\n".join(lines) + "\n"


def mode_heading(workload, mode):
    return (f"{workload_title(workload)}: throughput and latency against concurrency, "
            f"connections {site.mode_text(mode)}{'' if mode == 'keepalive' else ' after each request'}")


def draw_page(output, data, heading, lines, apps):
    """A page of plots/concurrency.gp: a line per (result, title, dash, data file) of `lines`, coloured
    by its app's place in `apps`; its path."""
    variables = {"output": output, "n": len(lines), "heading": heading,
                 "driver": " and ".join(dict.fromkeys(result.get("driver", "wrk") for result, *_ in lines))}
    for index, (result, title, dash, name) in enumerate(lines, start=1):
        file = data / name
        file.write_text(series_text(result["levels"], result["peak"], result["knee"]))
        variables.update({f"file{index}": file, f"colour{index}": PALETTE[apps.index(result["app"]) % len(PALETTE)],
                          f"dash{index}": dash, f"title{index}": title})
    gnuplot("concurrency.gp", **variables)
    return output


def line_title(result, manifest):
    return f"{manifest.title(result['app'])}, {manifest.engine_title(result['engine'])}"


def app_order(manifests, results):
    """The apps in their runs' registry order (which fixes their colours), then any the registries lack."""
    return list(dict.fromkeys([*(app for manifest in manifests for app in manifest.apps),
                               *(result["app"] for result in results)]))


def draw(directory, results, manifest):
    """plots/concurrency-<workload>.pdf per workload of `results` (concurrency.json's) of the run whose
    manifest is `manifest`; their paths."""
    plots, data = directory / "plots", directory / "plots" / "data"
    apps = app_order([manifest], results)
    data.mkdir(parents=True, exist_ok=True)
    pdfs = []
    for workload in dict.fromkeys(result["workload"] for result in results):
        pages = []
        for mode in dict.fromkeys(result["connection"] for result in results):
            lines = [(result, line_title(result, manifest), ENGINE_DASH.get(result["engine"], 1),
                      f"concurrency-{result['app']}-{result['engine']}-{workload}-{mode}.tsv")
                     for result in results if result["workload"] == workload and result["connection"] == mode]
            pages.append(str(draw_page(plots / f"concurrency-{workload}-{mode}.pdf", data,
                                       mode_heading(workload, mode), lines, apps)))
        pdf = plots / f"concurrency-{workload}.pdf"
        subprocess.run(["pdfunite", *pages, str(pdf)], check=True)
        pdfs.append(pdf)
    return pdfs


def draw_together(out, first, second):
    """Two concurrency sweeps' lines on one page per workload and mode both measured, the first run's
    solid and the second's dashed: ((run id, concurrency.json's results, its manifest) each); the PDFs'
    paths in `out`."""
    (first_id, first_results, first_manifest), (second_id, second_results, second_manifest) = first, second
    apps = app_order([first_manifest, second_manifest], first_results + second_results)
    out.mkdir(parents=True, exist_ok=True)
    pdfs = []
    shared = [key for key in dict.fromkeys((result["workload"], result["connection"]) for result in first_results)
              if key in {(result["workload"], result["connection"]) for result in second_results}]
    for workload, mode in shared:
        lines = [(result, f"{run_id}: {line_title(result, manifest)}", dash,
                  f"{workload}-{mode}-{run_id}-{result['app']}-{result['engine']}.tsv")
                 for run_id, results, manifest, dash in ((first_id, first_results, first_manifest, 1),
                                                          (second_id, second_results, second_manifest, 2))
                 for result in results if (result["workload"], result["connection"]) == (workload, mode)]
        pdfs.append(draw_page(out / f"concurrency-{workload}-{mode}.pdf", out,
                              f"{mode_heading(workload, mode)}: {first_id} (solid) against {second_id} (dashed)", lines, apps))
    return pdfs


def write_figures(directory):
    """A concurrency sweep's PDFs and concurrency.md from the run's concurrency.json: (concurrency.md,
    the PDFs)."""
    return figures_of(directory, json.loads((directory / "concurrency.json").read_text()))


def figures_of(directory, results):
    manifest = Manifest.read(directory / "manifest.json")
    markdown = directory / "concurrency.md"
    write_atomically(markdown, summary_markdown(manifest.run_id, manifest.host, results))
    return markdown, draw(directory, results, manifest)


def write_report(directory):
    """write_figures, then report/ (concurrency.md as the front page, the figures drawn on it, every
    level with its raw reports) and the index of runs beside; (concurrency.md, the PDFs, the front page)."""
    results = json.loads((directory / "concurrency.json").read_text())
    markdown, pdfs = figures_of(directory, results)
    front = html.write_documents_report(directory, f"Throughput against concurrency: run {directory.name}",
                                        figures=pdfs, template="concurrency.html",
                                        sections=site.concurrency_sections(results))
    html.write_index(directory.parent)
    return markdown, pdfs, front
