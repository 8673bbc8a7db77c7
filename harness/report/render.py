"""The plots and report of one sweep run, made from its saved results alone (no server needed).

    python3 -m harness plots [--run RUN_ID]   (plots/report.py; make plots [RUN=RUN_ID]; default: the latest run)

Into results/<run>/plots/: for a size sweep, sizes.pdf (throughput and reply time against N, a
column per sized workload); a PDF per cell, per workload x engine (the apps overlaid), per app x
workload (MyISAM against InnoDB), summary.pdf (saturation bars, a page per workload), canary.pdf
(the speed canary against the servers' cost, with two rounds or more) and report.pdf (all of them
behind a title page and the saturation table); into results/<run>/: summary.md and
summary.tsv, and the pages to browse with results.json (harness/report/html.py). Every plotted point is a row of a cell's steps.tsv; the data files in plots/data/ keep
the name of the raw httperf output each point comes from.
"""
import shutil
import subprocess

from harness.judge.cpu_components import rules
from harness.report import concurrency, html, profiles, soap_phases, write_share
from harness.report.compare import comparison_markdown, comparison_rows
from harness.report.gnuplot import ReportError, gnuplot, rates_figure, series_file
from harness.report.series import bars_text, points, series_text, spans_decades, text_page
from harness.report.sizes import group_title, reference_levels, size_series_text, sized_rows
from harness.report.tables import (SUMMARY_COLUMNS, study_figures, summary_markdown, summary_rows,
                                   table_lines, title_lines)
from harness.report.turns import judged_ratios
from harness.report.view import ENGINE_DASH, View
from harness.results.calibration import calibration
from harness.results.chosen import add_run_arguments
from harness.results.kinds import CONCURRENCY, SWEEP
from harness.results.store import latest_run, load_run, run_kind, tsv_text
from stack.workload_names import workload_title


def text_pages(view, rows, out, data):
    pages = {}
    for name, (headings, body) in {"title": title_lines(view), "table": table_lines(view, rows)}.items():
        page_data = data / f"{name}.tsv"
        page_data.write_text(text_page(headings, body))
        pages[name] = out / f"{name}.pdf"
        gnuplot("text.gp", output=pages[name], file=page_data)
    return pages


def bars_page(view, rows, output, data):
    workloads = view.present("workloads")
    # gnuplot's variable names take no "-" (rows-100): each workload's variables go by a name without.
    names = {workload: workload.replace("-", "_") for workload in workloads}
    bars = {"output": output, "workloads": " ".join(names.values()), "n": len(view.apps)}
    for workload, name in names.items():
        bars_data = data / f"bars-{workload}.tsv"
        bars_data.write_text(bars_text(view, rows, workload))
        values = [float(row["saturation_rps"]) if row["saturation_rps"] else None
                  for row in rows if row["workload"] == workload]
        bars.update({f"file_{name}": bars_data, f"logy_{name}": int(spans_decades(values)),
                     f"heading_{name}": f"Saturation throughput: {workload_title(workload)}"})
    for index, app in enumerate(view.apps, start=1):
        bars.update({f"title{index}": view.title(app), f"colour{index}": view.colour(app)})
    gnuplot("bars.gp", **bars)
    return output


def figure_pages(view, out, data):
    """The rate figures: apps overlaid, engines compared (each cell's representative round), and
    every cell with all its rounds overlaid; and {CellKey: draw(path)}, each cell's figure drawn again
    as an SVG (the HTML report's)."""
    summaries = view.summaries
    series_files = {}
    for key in summaries:
        for visit, steps in view.measurements(key):
            series_files[visit] = series_file(data, visit)
            series_files[visit].write_text(series_text(view.measured_rows[visit], steps))

    def offered(visits):
        return [point[0] for visit in visits for block in points(view.run.steps[visit]) for point in block]

    figures, svgs = [], {}

    def draw(name, heading, visits, line, key=None):
        series = [(series_files[visit], *line(visit)) for visit in visits]
        rates_figure(out / name, heading, series, spans_decades(offered(visits)))
        figures.append(out / name)
        if key:
            svgs[key] = lambda path: rates_figure(path, heading, series, spans_decades(offered(visits)), svg=True)

    engines, workloads = view.present("engines"), view.present("workloads")
    for workload in workloads:
        for engine in engines:
            keys = [key for key in summaries if (key.engine, key.workload) == (engine, workload)]
            if not keys:
                continue
            keys.sort(key=lambda key: view.apps.index(key.app))
            draw(f"apps-{workload}-{engine}.pdf", f"All apps: {workload_title(workload)}, {view.engine_title(engine)}",
                 [summaries[key].visit for key in keys],
                 lambda visit: (view.title(visit.key.app), view.colour(visit.key.app), 1))
    for app in view.apps:
        for workload in workloads:
            keys = [key for engine in engines for key in summaries if (key.app, key.engine, key.workload)
                    == (app, engine, workload)]
            if len(keys) < 2:
                continue
            draw(f"engines-{app}-{workload}.pdf",
                 f"{view.title(app)}: MyISAM against InnoDB, {workload_title(workload)}",
                 [summaries[key].visit for key in keys],
                 lambda visit: (view.engine_title(visit.key.engine), view.colour(visit.key.app),
                                ENGINE_DASH.get(visit.key.engine, 1)))
    for key, summary in summaries.items():
        visits = [visit for visit, _ in view.measurements(key)]
        rounds = f", {len(visits)} measurements" if len(visits) > 1 else ""
        draw(f"cell-{key.name}.pdf", f"{view.title(key.app)}, {view.engine_title(key.engine)}, "
             f"{workload_title(key.workload)}: {summary.status}{rounds}", visits,
             lambda visit: (measurement_title(view, visit, len(visits)), view.colour(visit.key.app),
                            visits.index(visit) + 1), key)
    return figures, svgs


def size_pages(view, rows, out, data):
    """make size-sweep's figure: throughput and reply time against N, one line per app, a column per
    sized workload (rows-N per engine, each echo), the SOAP baselines as dashed lines; none without."""
    groups = sized_rows(rows)
    if not groups:
        return []
    variables = {"output": out / "sizes.pdf", "g": len(groups), "heading": "Throughput and reply time against N"}
    for column, ((kind, engine), by_app) in enumerate(groups.items(), start=1):
        apps = [app for app in view.apps if app in by_app]
        levels = reference_levels(view, rows, engine)
        variables.update({f"heading_{column}": group_title(kind, engine, view), f"n_{column}": len(apps),
                          f"levels_{column}": len(levels)})
        for index, app in enumerate(apps, start=1):
            series = data / f"sizes-{kind}-{engine}-{app}.tsv"
            series.write_text(size_series_text(by_app[app]))
            variables.update({f"file_{column}_{index}": series, f"title_{column}_{index}": view.title(app),
                              f"colour_{column}_{index}": view.colour(app)})
        for index, (app, level) in enumerate(levels, start=1):
            variables.update({f"level_{column}_{index}": level, f"levelcolour_{column}_{index}": view.colour(app),
                              f"leveltitle_{column}_{index}": f"{view.title(app)}: getQuote {level:,.0f}/s"})
    gnuplot("sizes.gp", **variables)
    return [variables["output"]]


def write_share_page(view, rows, out, data):
    """The write-share curve's figure, a column per app of the first mix measured at several shares:
    [the PDF], or [] for a run with no curve."""
    found = write_share.curves(rows)
    apps = {app: engines for app, engines in next(iter(found.values()), {}).items()
            if write_share.engine_pair(view, engines)}
    if not apps:
        return []
    pair = write_share.engine_pair(view, next(iter(apps.values())))
    shares = sorted({share for engines in apps.values() for share in write_share.shares_of(engines)})
    judged = judged_ratios(view.run)
    variables = {"output": out / "write-share.pdf", "n": len(apps),
                 "heading": "The write-share curve: saturation and the engines by turns against the share of writes",
                 "shares": ", ".join(f'"{share} %%" {place}' for place, share in enumerate(shares)),
                 "first": view.engine_title(pair[0]), "second": view.engine_title(pair[1])}
    for index, (app, engines) in enumerate(apps.items(), start=1):
        series = data / f"write-share-{app}.tsv"
        series.write_text(write_share.series_text(view, engines, app, pair, judged, shares))
        variables.update({f"file_{index}": series, f"title_{index}": view.title(app)})
    gnuplot("write-share.gp", **variables)
    return [variables["output"]]


def phases_page(rows, title, colour, out, data):
    """`make soap-phases`' figure, when there are phases: [the PDF] or []. title, colour: an app's."""
    kinds = soap_phases.by_kind(rows)
    if not kinds:
        return []
    variables = {"output": out / "soap-phases.pdf", "g": len(kinds),
                 "heading": "Where a SOAP request's time goes: median phases against N, one request at a time"}
    for column, (kind, apps) in enumerate(kinds.items(), start=1):
        variables.update({f"heading_{column}": kind + "-N", f"n_{column}": len(apps)})
        for index, (app, text) in enumerate(soap_phases.series(rows, kind).items(), start=1):
            series = data / f"phases-{kind}-{app}.tsv"
            series.write_text(text)
            variables.update({f"file_{column}_{index}": series, f"title_{column}_{index}": title(app),
                              f"colour_{column}_{index}": colour(app)})
    gnuplot("phases.gp", **variables)
    return [variables["output"]]


def breakdown_page(view, out, data):
    """The CPU profiles' stacked bars (`make profile`), when the run has them: [the PDF] or []."""
    if not any("breakdown" in result for result in view.run.profiles.values()):
        return []
    bars = data / "breakdown.tsv"
    bars.write_text(profiles.bars_data(view.run.profiles, view.title))
    output = out / "breakdown.pdf"
    gnuplot("breakdown.gp", output=output, file=bars, n=len(rules().components),
            heading="Where the servers' CPU goes at saturation (perf, one profiled step per cell)")
    return [output]


def canary_page(view, out, data):
    """The speed canary against the servers' cost, cell by cell (results/calibration.py); none without
    two rounds of a cell with the canary's speed."""
    found = calibration(view.run.saturation)
    if found.r is None:
        return []
    apps = [app for app in view.apps if any(key.app == app for key, *_ in found.points)]
    variables = {"output": out / "canary.pdf", "n": len(apps),
                 "heading": f"The speed canary against the servers' cost: r = {found.r:.2f} over {found.cells} cells' "
                            f"rounds ({len(found.points)} points)"}
    for index, app in enumerate(apps, start=1):
        series = data / f"canary-{app}.tsv"
        series.write_text("".join(f"{slowness:.4f}\t{cost:.4f}\t{round_}\n"
                                  for key, round_, slowness, cost in found.points if key.app == app))
        variables.update({f"file{index}": series, f"title{index}": view.title(app), f"colour{index}": view.colour(app)})
    gnuplot("canary.gp", **variables)
    return [variables["output"]]


def measurement_title(view, visit, count):
    if count == 1:
        return view.title(visit.key.app)
    figure = view.measured_rows[visit].saturation_rps
    return (f"round {visit.round}" + (" (A/A repeat)" if visit.replica > 1 else "")
            + (f": {figure:,.1f} req/s" if figure else ": none passed"))


def make_report(run_dir, beside=None):
    """The run's PDFs, summary.md and summary.tsv; `beside`, another run (its folder) whose cells
    summary.md sets this run's beside: the other connection mode's run made with it, say."""
    if not shutil.which("gnuplot") or not shutil.which("pdfunite"):
        raise ReportError("gnuplot and pdfunite are needed: run `make setup`")
    run = load_run(run_dir)
    view = View(run)
    out = run_dir / "plots"
    data = out / "data"
    data.mkdir(parents=True, exist_ok=True)
    rows = summary_rows(view, study_figures())
    (run_dir / "summary.tsv").write_text(tsv_text(SUMMARY_COLUMNS, rows))
    markdown = summary_markdown(view, rows)
    if beside:
        other = load_run(beside)
        markdown += "\n" + comparison_markdown(other, run, comparison_rows(other, run), heading="##")
    (run_dir / "summary.md").write_text(markdown)
    pages = text_pages(view, rows, out, data)
    summary = bars_page(view, rows, out / "summary.pdf", data)
    sizes = size_pages(view, rows, out, data) + write_share_page(view, rows, out, data)
    figures, svgs = figure_pages(view, out, data)
    canary = canary_page(view, out, data)
    breakdown = breakdown_page(view, out, data)
    phases = phases_page(run.soap_phases, view.title, view.colour, out, data)
    report = out / "report.pdf"
    subprocess.run(["pdfunite", str(pages["title"]), str(pages["table"]), *map(str, sizes), str(summary),
                    *map(str, breakdown), *map(str, phases), *map(str, figures), *map(str, canary), str(report)], check=True,
                   capture_output=True)
    overlays = [figure for figure in figures if figure.name.startswith("apps-")]
    front = html.write_run_pages(view, rows, run_dir, lambda key, path: svgs[key](path),
                                 [*sizes, summary, *overlays, *breakdown, *phases, *canary])
    html.write_index(run_dir.parent)
    return report, front


def add_arguments(parser):
    add_run_arguments(parser)
    parser.add_argument("--beside", help="another run id whose figures summary.md sets this run's beside, paired "
                                         "by round, with the apps' order in each (e.g. the close run beside a keep-alive one)")


def execute(args):
    run_dir = args.results / args.run if args.run else latest_run(args.results)
    if not run_dir.is_dir():
        raise ReportError(f"no run {args.run!r} under {args.results}")
    if args.beside and not (args.results / args.beside).is_dir():
        raise ReportError(f"no run {args.beside!r} under {args.results} to set beside")
    kind = run_kind(run_dir)
    if kind == CONCURRENCY:
        markdown, pdfs, front = concurrency.write_report(run_dir)
        print(f"plots: {', '.join(map(str, pdfs))}; summary: {markdown}; browse: {front}")
        return
    if kind != SWEEP:
        # A paper's run (`make reproduce`) or SOAP phases alone: its figures as its own command drew them.
        front = html.write_documents_report(run_dir, f"Run {run_dir.name}", figures=sorted(run_dir.glob("*.pdf")))
        html.write_index(run_dir.parent)
        print(f"browse: {front}")
        return
    report, front = make_report(run_dir, args.results / args.beside if args.beside else None)
    print(f"plots: {report} ({len(list(report.parent.glob('*.pdf')))} PDFs); "
          f"summary: {run_dir / 'summary.md'}; browse: {front}")
