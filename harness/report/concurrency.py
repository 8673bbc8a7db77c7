"""The concurrency sweep's figures: a PDF per workload, a page per connection mode, a line per app
and engine (plots/concurrency.gp), concurrency.md and the run's pages to browse, from concurrency.json
and the manifest alone (`make report RUN=` draws them again). The data files are pure text."""
import json
import subprocess

from harness.report import html, site
from harness.report.gnuplot import gnuplot
from harness.results.store import write_atomically
from harness.report.view import ENGINE_DASH, PALETTE
from stack import registry
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
    # gnuplot needs each block to hold a line: an empty one is a comment.
    return "\n\n\n".join("\n".join(map(line, block)) or "# none" for block in blocks) + "\n"


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


def draw(directory, results):
    """plots/concurrency-<workload>.pdf per workload of `results` (concurrency.json's); their paths."""
    plots, data = directory / "plots", directory / "plots" / "data"
    data.mkdir(parents=True, exist_ok=True)
    apps = list(registry.apps())
    pdfs = []
    for workload in dict.fromkeys(result["workload"] for result in results):
        pages = []
        for mode in dict.fromkeys(result["connection"] for result in results):
            chosen = [result for result in results if result["workload"] == workload and result["connection"] == mode]
            variables = {"output": plots / f"concurrency-{workload}-{mode}.pdf", "n": len(chosen),
                         "driver": " and ".join(dict.fromkeys(result.get("driver", "wrk") for result in chosen)),
                         "heading": f"{workload_title(workload)}: throughput and latency against concurrency, "
                                    f"connections {'kept alive' if mode == 'keepalive' else 'closed after each request'}"}
            for index, result in enumerate(chosen, start=1):
                file = data / f"concurrency-{result['app']}-{result['engine']}-{workload}-{mode}.tsv"
                file.write_text(series_text(result["levels"], result["peak"], result["knee"]))
                variables.update({f"file{index}": file, f"colour{index}": PALETTE[apps.index(result["app"]) % len(PALETTE)],
                                  f"dash{index}": ENGINE_DASH.get(result["engine"], 1),
                                  f"title{index}": f"{registry.app(result['app'])['title']}, "
                                                   f"{registry.engine_title(result['engine'])}"})
            gnuplot("concurrency.gp", **variables)
            pages.append(str(variables["output"]))
        pdf = plots / f"concurrency-{workload}.pdf"
        subprocess.run(["pdfunite", *pages, str(pdf)], check=True)
        pdfs.append(pdf)
    return pdfs



def write_figures(directory):
    """A concurrency sweep's PDFs and concurrency.md from the run's concurrency.json: (concurrency.md,
    the PDFs)."""
    results = json.loads((directory / "concurrency.json").read_text())
    manifest = json.loads((directory / "manifest.json").read_text())
    markdown = directory / "concurrency.md"
    write_atomically(markdown, summary_markdown(manifest["run_id"], manifest["host"], results))
    return markdown, draw(directory, results)


def write_report(directory):
    """write_figures, then report/ (concurrency.md as the front page, the figures drawn on it, every
    level with its raw reports) and the index of runs beside; (concurrency.md, the PDFs, the front page)."""
    markdown, pdfs = write_figures(directory)
    results = json.loads((directory / "concurrency.json").read_text())
    front = html.write_documents_report(directory, f"Throughput against concurrency: run {directory.name}",
                                        figures=pdfs, template="concurrency.html",
                                        sections=site.concurrency_sections(results))
    html.write_index(directory.parent)
    return markdown, pdfs, front
