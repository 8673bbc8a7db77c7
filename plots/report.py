"""The plots and report of one sweep run, made from its saved results alone (no server needed).

    python3 plots/report.py [--run RUN_ID]      (make plots [RUN=RUN_ID]; default: the latest run)

Into results/<run>/plots/: a PDF per cell, per workload x engine (the apps overlaid), per app x
workload (MyISAM against InnoDB), summary.pdf (saturation bars, a page per workload) and report.pdf
(all of them behind a title page and the saturation table); into results/<run>/: summary.md and
summary.tsv. Every plotted point is a row of a cell's steps.tsv; the data files in plots/data/ keep
the name of the raw httperf output each point comes from.
"""
import argparse
import csv
import json
import math
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "httperf-scripts"))

from httperf_output import reply_time_ms  # noqa: E402

RESULTS = ROOT / "results"
SCRIPTS = ROOT / "plots"
STUDY_FILE = SCRIPTS / "study-2006.tsv"
# Colour-blind-safe (Okabe-Ito), taken in registry order, so an app keeps its colour in every figure.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]
ENGINE_DASH = {"myisam": 1, "innodb": 2}
WORKLOAD_TITLES = {"single": "single row by primary key", "large": "16,000 rows by LIKE on the last name"}
ENGINE_TITLES = {"myisam": "MyISAM", "innodb": "InnoDB"}
LOWER_BOUND = ("client-bound", "plan-limit")
SUMMARY_COLUMNS = ["workload", "engine", "app", "status", "saturation_rps", "lower_bound",
                   "saturation_offered", "overload_offered", "reply_ms_low", "reply_ms_saturation",
                   "server_cpu_pct_saturation", "server_rss_mb_saturation", "ratio_to_fastest",
                   "study_2006_rps", "study_2006_reply_ms_low"]


class ReportError(Exception):
    """Something the user can fix: no run, a run with no results, gnuplot missing."""


# ---- reading a run ------------------------------------------------------------------------
def read_tsv(path):
    if not path.exists():
        return []
    with open(path, newline="") as source:
        return list(csv.DictReader((line for line in source if not line.startswith("#")), delimiter="\t"))


def number(value):
    try:
        result = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(result) else result


def latest_run(results_dir):
    runs = [path.parent for path in results_dir.glob("*/manifest.json")]
    if not runs:
        raise ReportError(f"no sweep results under {results_dir}; run `make saturation-sweep` first")
    return max(runs, key=lambda run: (json.loads((run / "manifest.json").read_text()).get("started", ""),
                                      run.name))


@dataclass
class Run:
    directory: Path
    manifest: dict
    saturation: list   # rows of saturation.tsv
    steps: dict        # (app, engine, workload) -> rows of the cell's steps.tsv

    @property
    def apps(self):
        """The run's apps in registry order (the order that fixes each app's colour)."""
        measured = {row["app"] for row in self.saturation}
        return [app for app in self.manifest["registry"]["apps"] if app in measured]

    def title(self, app):
        return self.manifest["registry"]["apps"][app].get("title", app)

    def colour(self, app):
        return PALETTE[list(self.manifest["registry"]["apps"]).index(app) % len(PALETTE)]

    def present(self, key):
        return [value for value in self.manifest["options"][key]
                if any(row[key[:-1]] == value for row in self.saturation)]


def load_run(directory):
    manifest_path = directory / "manifest.json"
    if not manifest_path.exists():
        raise ReportError(f"{directory} holds no manifest.json: not a sweep run")
    saturation = read_tsv(directory / "saturation.tsv")
    if not saturation:
        raise ReportError(f"{directory} has no saturation.tsv rows yet: no cell has finished")
    steps = {(row["app"], row["engine"], row["workload"]):
             read_tsv(directory / "cells" / f"{row['app']}-{row['engine']}-{row['workload']}" / "steps.tsv")
             for row in saturation}
    return Run(directory, json.loads(manifest_path.read_text()), saturation, steps)


# ---- pure: what the figures and tables show ------------------------------------------------
def points(steps):
    """(judged, client_bound): (offered, reply rate, reply time, verdict, raw) per step with a reply
    rate, in order of offered rate. Killed steps printed nothing and have no point."""
    judged, client_bound = [], []
    for step in steps:
        offered, reply = number(step.get("offered_rate")), number(step.get("reply_rate"))
        if offered is None or reply is None:
            continue
        point = (offered, reply, reply_time_ms(step), step["verdict"], step.get("raw", ""))
        (client_bound if step["verdict"] == "invalid" else judged).append(point)
    return sorted(judged), sorted(client_bound)


def saturation_point(row, steps):
    """The step the saturation figure comes from, as a point; None when the cell has none."""
    offered = number(row.get("saturation_offered"))
    for point in points(steps)[0]:
        if point[0] == offered and point[3] == "pass":
            return point
    return None


def series_text(row, steps):
    """A rates.gp data file: judged steps, client-bound steps, saturation point (three blocks)."""
    judged, client_bound = points(steps)
    marked = saturation_point(row, steps)
    blocks = [judged, client_bound, [marked] if marked else []]

    def line(point):
        offered, reply, reply_ms, verdict, raw = point
        return f"{offered:g}\t{reply:g}\t{'NaN' if reply_ms is None else f'{reply_ms:g}'}\t{verdict}\t{raw}"
    text = "# offered_rps\treply_rps\treply_ms\tverdict\traw httperf output (in the cell's folder)\n"
    # An empty block would stop gnuplot; a row of NaN keeps the block and draws nothing.
    return text + "\n\n\n".join("\n".join(map(line, block)) if block else "NaN\tNaN\tNaN\t-\t-"
                                for block in blocks) + "\n"


def spans_decades(values):
    values = [value for value in values if value and value > 0]
    return bool(values) and max(values) / min(values) > 10


def study_figures(study_rows):
    return {(row["workload"], row["engine"], row["app"]): row for row in study_rows}


def summary_rows(run, study):
    """summary.tsv: the saturation table, one row per cell, grouped like the study's Overall tables
    (workload, then engine, then app), with each app's ratio to the fastest app of its group."""
    duration = number(run.manifest["options"].get("duration_s")) or 1
    by_cell = {(row["workload"], row["engine"], row["app"]): row for row in run.saturation}
    rows = []
    for workload in run.present("workloads"):
        for engine in run.present("engines"):
            group = [by_cell[(workload, engine, app)] for app in run.apps if (workload, engine, app) in by_cell]
            fastest = max((number(row.get("saturation_rps")) or 0 for row in group), default=0)
            for row in group:
                rps = number(row.get("saturation_rps"))
                cpu = number(row.get("server_cpu_s_saturation"))
                old = study.get((workload, engine, row["app"]), {})
                rows.append({
                    "workload": workload, "engine": engine, "app": row["app"], "status": row["status"],
                    "saturation_rps": row.get("saturation_rps", ""),
                    "lower_bound": int(row["status"] in LOWER_BOUND),
                    "saturation_offered": row.get("saturation_offered", ""),
                    "overload_offered": row.get("overload_offered", ""),
                    "reply_ms_low": row.get("reply_ms_low", ""),
                    "reply_ms_saturation": row.get("reply_ms_saturation", ""),
                    "server_cpu_pct_saturation": "" if cpu is None else round(100 * cpu / duration),
                    "server_rss_mb_saturation": row.get("server_rss_mb_saturation", ""),
                    "ratio_to_fastest": "" if not rps or not fastest else round(rps / fastest, 2),
                    "study_2006_rps": old.get("saturation_rps", ""),
                    "study_2006_reply_ms_low": old.get("response_ms_low", ""),
                })
    return rows


def throughput_text(row):
    if not row["saturation_rps"]:
        return "none passed"
    return (">= " if row["lower_bound"] else "") + f"{number(row['saturation_rps']):,.1f}"


def summary_markdown(run, rows):
    manifest = run.manifest
    lines = [f"# Saturation summary, run {manifest['run_id']}", "",
             f"{manifest.get('started', '?')} to {manifest.get('finished', 'unfinished')}; "
             f"{manifest['host']['cores']} cores, {manifest['host']['memory_gib']} GiB; "
             f"{manifest['options']['mode']} plan, {manifest['options']['duration_s']:g} s steps, "
             f"precision {manifest['options']['precision']:.0%}.", "",
             "Throughput is the highest reply rate among passing steps (req/s); \">=\" marks a lower bound "
             "(the client or the plan ran out before the server failed). Reply times are request sent to "
             "last byte, at the lowest passing rate and at saturation. CPU is the servers' CPU time over the "
             "saturation step, in % of one core; RSS their summed peak. The 2006 study ran on a 2x Pentium 4 "
             "3 GHz server with MySQL 5.0 (plots/study-2006.tsv): compare the shape, not the numbers.", ""]
    for workload in run.present("workloads"):
        for engine in run.present("engines"):
            group = [row for row in rows if row["workload"] == workload and row["engine"] == engine]
            if not group:
                continue
            lines += [f"## {WORKLOAD_TITLES.get(workload, workload)}, {ENGINE_TITLES.get(engine, engine)}", "",
                      "| app | throughput (req/s) | ratio to fastest | 2006 (req/s) | reply ms low | "
                      "reply ms at saturation | overload at (req/s offered) | server CPU % | server RSS MB |",
                      "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
            for row in group:
                lines.append(f"| {run.title(row['app'])} | {throughput_text(row)} | {row['ratio_to_fastest']} | "
                             f"{row['study_2006_rps'] or '-'} | {row['reply_ms_low']} | "
                             f"{row['reply_ms_saturation']} | {row['overload_offered'] or '-'} | "
                             f"{row['server_cpu_pct_saturation']} | {row['server_rss_mb_saturation']} |")
            lines.append("")
    return "\n".join(lines)


def bars_text(run, rows, workload):
    """bars.gp data for one workload: apps grouped by engine, one bar per app in registry order."""
    located, bounds, groups = [], [], []
    x = 0
    for engine in run.present("engines"):
        group = [row for row in rows if row["workload"] == workload and row["engine"] == engine]
        if not group:
            continue
        first = x
        for app in run.apps:
            row = next((row for row in group if row["app"] == app), None)
            if row is not None and number(row["saturation_rps"]) is not None:
                study = number(row["study_2006_rps"])
                line = (f"{x}\t{number(row['saturation_rps']):g}\t{int(run.colour(app)[1:], 16)}\t"
                        f"{throughput_text(row)}\t{'NaN' if study is None else f'{study:g}'}")
                (bounds if row["lower_bound"] else located).append(line)
            x += 1
        groups.append(f"{(first + x - 1) / 2:g}\t{ENGINE_TITLES.get(engine, engine)}")
        x += 1
    blank = "NaN\tNaN\t0\t-\tNaN"
    return "\n\n\n".join("\n".join(block) if block else blank for block in (located, bounds, groups)) + "\n"


def text_page(headings, body):
    """text.gp data: headings then body lines, each with its line number."""
    def block(lines, start):
        return "\n".join(f"{start + index * (2 if start == 0 else 1):g}\t{line.replace(chr(9), ' ')}"
                         for index, line in enumerate(lines)) or "0\t "
    return block(headings, 0) + "\n\n\n" + block(body, 2 * len(headings) + 1) + "\n"


def title_lines(run):
    manifest = run.manifest
    host, options = manifest["host"], manifest["options"]
    body = [f"run {manifest['run_id']}: {manifest.get('started', '?')} to {manifest.get('finished', 'unfinished')}",
            f"git {manifest.get('git', {}).get('commit', '?')}"
            f"{' (uncommitted changes)' if manifest.get('git', {}).get('dirty') else ''}",
            f"machine: {host['cores']} cores ({host.get('cpu_model', '?')}), {host['memory_gib']} GiB; "
            f"httperf on CPUs {manifest['pinning']['client_cpus']}, servers on {manifest['pinning']['server_cpus']}",
            f"plan: {options['mode']}, {options['duration_s']:g} s steps, precision {options['precision']:.0%}, "
            f"probe {options['probe_s']:g} s, JIT warm-up {options['warmup_s']:g} s, at most {options['max_steps']} steps a cell",
            f"verdict: {', '.join(f'{key} {value}' for key, value in options['thresholds'].items())}",
            "", "versions:"]
    body += [f"  {name:<16} {version}" for name, version in manifest["versions"].items()]
    body += ["", "settings:"]
    settings = list(manifest["settings"].items())
    for index in range(0, len(settings), 3):
        body.append("  " + "".join(f"{f'{key}={value}':<36}" for key, value in settings[index:index + 3]))
    body += ["", "Pages: the saturation table; saturation bars per workload; the apps overlaid per workload",
             "and engine; MyISAM against InnoDB per app; then every cell. Hollow circles are client-bound",
             "steps (not judged), diamonds the saturation points. Source data: results/"
             f"{manifest['run_id']}/cells/*/steps.tsv and raw/."]
    return ["Web architectures under load: PHP, servlet, pooled servlet, SOAP",
            f"Saturation sweep {manifest['run_id']}"], body


def table_lines(run, rows):
    header = (f"{'workload':<8} {'engine':<7} {'app':<15} {'req/s':>11} {'ratio':>6} {'2006':>5} "
              f"{'ms low':>8} {'ms sat':>8} {'overload':>9} {'CPU %':>6} {'RSS MB':>8}  status")
    body = [header, "-" * len(header)]
    for row in rows:
        body.append(f"{row['workload']:<8} {row['engine']:<7} {row['app']:<15} {throughput_text(row):>11} "
                    f"{row['ratio_to_fastest']!s:>6} {row['study_2006_rps'] or '-':>5} {row['reply_ms_low']!s:>8} "
                    f"{row['reply_ms_saturation']!s:>8} {row['overload_offered'] or '-':>9} "
                    f"{row['server_cpu_pct_saturation']!s:>6} {row['server_rss_mb_saturation']!s:>8}  {row['status']}")
    body += ["", "req/s: highest reply rate of a passing step (>= lower bound: client or plan limit, not the server).",
             "ratio: to the fastest app of the same workload and engine. 2006: the study's figure (other hardware).",
             "ms low / ms sat: reply time at the lowest passing rate / at saturation. overload: lowest failing",
             "offered rate above saturation. CPU %: servers' CPU over the saturation step, % of one core."]
    return [f"Saturation table, run {run.manifest['run_id']}"], body


# ---- the edge: files, gnuplot, pdfunite ----------------------------------------------------
def gnuplot(script, **variables):
    def literal(value):
        if isinstance(value, (int, float)):
            return f"{value:g}"
        return '"' + str(value).replace("\\", "\\\\").replace('"', '\\"') + '"'
    assignments = "; ".join(f"{name}={literal(value)}" for name, value in variables.items())
    result = subprocess.run(["gnuplot", "-e", assignments, str(SCRIPTS / script)],
                            capture_output=True, text=True)
    errors = [line for line in result.stderr.splitlines() if "warning" not in line.lower() and line.strip()]
    if result.returncode != 0:
        raise ReportError(f"gnuplot {script} failed for {variables.get('output')}:\n" + "\n".join(errors))


def rates_figure(output, heading, series, logx):
    """series: (data file, title, colour, dash) per line."""
    variables = {"output": output, "heading": heading, "n": len(series), "logx": int(logx)}
    for index, (data, title, colour, dash) in enumerate(series, start=1):
        variables.update({f"file{index}": data, f"title{index}": title, f"colour{index}": colour,
                          f"dash{index}": dash})
    gnuplot("rates.gp", **variables)


def make_report(run_dir):
    if not shutil.which("gnuplot") or not shutil.which("pdfunite"):
        raise ReportError("gnuplot and pdfunite are needed: run `make setup`")
    run = load_run(run_dir)
    out = run_dir / "plots"
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    rows = summary_rows(run, study_figures(read_tsv(STUDY_FILE)))
    with open(run_dir / "summary.tsv", "w", newline="") as target:
        writer = csv.DictWriter(target, SUMMARY_COLUMNS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    (run_dir / "summary.md").write_text(summary_markdown(run, rows))

    saturation = {(row["app"], row["engine"], row["workload"]): row for row in run.saturation}
    series_files = {}
    for cell, row in saturation.items():
        path = data / f"{'-'.join(cell)}.tsv"
        path.write_text(series_text(row, run.steps[cell]))
        series_files[cell] = path

    def offered(cells):
        return [point[0] for cell in cells for block in points(run.steps[cell]) for point in block]

    pages = {"title": out / "title.pdf", "table": out / "table.pdf", "summary": out / "summary.pdf"}
    for name, (headings, body) in {"title": title_lines(run), "table": table_lines(run, rows)}.items():
        page_data = data / f"{name}.tsv"
        page_data.write_text(text_page(headings, body))
        gnuplot("text.gp", output=pages[name], file=page_data)

    workloads = run.present("workloads")
    bars = {"output": pages["summary"], "workloads": " ".join(workloads), "n": len(run.apps)}
    for workload in workloads:
        bars_data = data / f"bars-{workload}.tsv"
        bars_data.write_text(bars_text(run, rows, workload))
        values = [number(row["saturation_rps"]) for row in rows if row["workload"] == workload]
        bars.update({f"file_{workload}": bars_data, f"logy_{workload}": int(spans_decades(values)),
                     f"heading_{workload}": f"Saturation throughput: {WORKLOAD_TITLES.get(workload, workload)}"})
    for index, app in enumerate(run.apps, start=1):
        bars.update({f"title{index}": run.title(app), f"colour{index}": run.colour(app)})
    gnuplot("bars.gp", **bars)

    figures = []
    for workload in workloads:
        for engine in run.present("engines"):
            cells = [(app, engine, workload) for app in run.apps if (app, engine, workload) in saturation]
            output = out / f"apps-{workload}-{engine}.pdf"
            rates_figure(output, f"All apps: {WORKLOAD_TITLES.get(workload, workload)}, "
                                 f"{ENGINE_TITLES.get(engine, engine)}",
                         [(series_files[cell], run.title(cell[0]), run.colour(cell[0]), 1) for cell in cells],
                         spans_decades(offered(cells)))
            figures.append(output)
    for app in run.apps:
        for workload in workloads:
            cells = [(app, engine, workload) for engine in run.present("engines") if (app, engine, workload) in saturation]
            output = out / f"engines-{app}-{workload}.pdf"
            rates_figure(output, f"{run.title(app)}: MyISAM against InnoDB, {WORKLOAD_TITLES.get(workload, workload)}",
                         [(series_files[cell], ENGINE_TITLES.get(cell[1], cell[1]), run.colour(app),
                           ENGINE_DASH.get(cell[1], 1)) for cell in cells],
                         spans_decades(offered(cells)))
            figures.append(output)
    for cell, row in saturation.items():
        app, engine, workload = cell
        output = out / f"cell-{app}-{engine}-{workload}.pdf"
        rates_figure(output, f"{run.title(app)}, {ENGINE_TITLES.get(engine, engine)}, "
                             f"{WORKLOAD_TITLES.get(workload, workload)}: {row['status']}",
                     [(series_files[cell], run.title(app), run.colour(app), 1)], spans_decades(offered([cell])))
        figures.append(output)

    report = out / "report.pdf"
    subprocess.run(["pdfunite", str(pages["title"]), str(pages["table"]), str(pages["summary"]),
                    *map(str, figures), str(report)], check=True, capture_output=True)
    return report


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", help="the run id under results/ (default: the latest run)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results folder (default: results/)")
    args = parser.parse_args(argv)
    try:
        run_dir = args.results / args.run if args.run else latest_run(args.results)
        if not run_dir.is_dir():
            raise ReportError(f"no run {args.run!r} under {args.results}")
        report = make_report(run_dir)
    except ReportError as error:
        print(f"plots: {error}", file=sys.stderr)
        return 1
    print(f"plots: {report} ({len(list(report.parent.glob('*.pdf')))} PDFs); "
          f"summary: {run_dir / 'summary.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
