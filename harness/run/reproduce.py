"""`make reproduce PAPER=icws08 [FIGURES=3,4] [ROUNDS=N] [RUN=]`: a paper's figures under the paper's
own load, each beside the paper's values, on a page of `<paper>.pdf`.

The paper is a declaration (experiments/papers/<paper>.json): its load (a verb and options, for
ICWS'08 the concurrency sweep with Apache Bench at 100 kept-alive connections), its figures (each the
apps, workloads and levels it needs, its x, the app its ratios are over, the paper's labels for our
apps, what still differs), and a TSV of the paper's values, each with its line in the paper's text.
Each round runs every chosen figure's experiment; a cell another figure of the round has measured is
not measured twice. A figure whose round folder is complete is skipped, so the same RUN resumes.

Into results/<run>/: round-<r>/fig-<id>/ (each a concurrency sweep's folder: manifest, raw reports),
plots/ (a page per figure and its data), <paper>.md and <paper>.pdf, and report/index.html to browse."""
import json
import subprocess
import textwrap
import time
from pathlib import Path

from harness import experiments
from harness.cli import verb_parser
from harness.judge.cpu_components import rules
from harness.report import html, paper_declaration, paper_figures, paper_markdown, paper_pages, paper_profiles
from harness.report.gnuplot import gnuplot
from harness.report.series import aligned_tables, text_page
from harness.results.chosen import Refused
from harness.results.store import RESULTS, read_tsv, write_atomically
from harness.run import concurrency, soap_phases
from harness.run.context import LevelWindows
from harness.run.options import listed, number
from harness.run.progress import format_duration
from stack import registry
from stack.settings import ROOT

PAPERS = ROOT / "experiments" / "papers"
# A cell's warm-up before its levels, as seen here (5-30 s; a JVM's first cell longer): the ETA's guess.
CELL_WARMUP_GUESS_S = 15
TEXT_WIDTH = 150  # characters of a line on a text page (plots/text.gp's monospaced body)
# A soap-phases run, as seen here: its servers restarted with the hooks on and back, a call of up to
# 5,000 records: the ETA's guesses.
SERVERS_RESTART_GUESS_S, PHASE_CALL_GUESS_S = 40, 0.3
X_LABELS = {"items": "structs or nodes in the message", "employees": "Employee records in the message",
            "connections": "concurrent connections (Apache Bench, kept alive)"}


def papers():
    return sorted(path.stem for path in PAPERS.glob("*.json"))


def read_paper(name):
    """(the paper's declaration, its value rows), both checked."""
    path = PAPERS / f"{name}.json"
    try:
        declaration = json.loads(path.read_text())
    except OSError as error:
        raise Refused(f"{path}: cannot read it ({error.strerror}); the papers: {', '.join(papers())}", code=2) from None
    except json.JSONDecodeError as error:
        raise Refused(f"{path}: not JSON: {error}", code=2) from None
    declaration = paper_declaration.checked(declaration, path)
    values_path = PAPERS / declaration["values"]
    values = paper_declaration.checked_values(read_tsv(values_path), declaration, values_path)
    return declaration, values


def figure_cells(declaration, figure):
    """(apps, workloads, levels) a figure's experiment measures, as its verb resolves them."""
    args = parsed(paper_declaration.experiment_of(declaration, figure), figure)
    context, _, ladder = concurrency.run_of(args)
    cells = context.selection.cells
    return (list(dict.fromkeys(cell.app for cell in cells)), list(dict.fromkeys(cell.workload for cell in cells)),
            ladder)


def parsed(experiment, figure, extra=()):
    """The options of a figure's experiment, as its verb (concurrency-sweep or soap-phases) parses them."""
    parser = verb_parser(experiment["verb"])[1]
    argv = experiments.argv_of(experiment, parser, f"figure {figure['id']}") + list(extra)
    return parser.parse_args(argv)


def is_phases(declaration, figure):
    return paper_declaration.verb_of(declaration, figure) == paper_declaration.PHASES_VERB


def phase_args(declaration, figure, extra=()):
    return parsed(paper_declaration.experiment_of(declaration, figure), figure, extra)


def round_calls(directory, folder):
    """[(round, soap-phases-calls.tsv's rows)] of a soap-phases figure's folder in every round."""
    return [(int(path.parent.parent.name.split("-")[1]), read_tsv(path))
            for path in sorted(directory.glob(f"round-*/{folder}/soap-phases-calls.tsv"))]


def phases_estimate_s(args):
    """The ETA's guess for a soap-phases run: its calls at PHASE_CALL_GUESS_S each, the JVMs' warm-up."""
    apps = [app for app in args.apps.split(",") if app]
    calls = len(apps) * len(args.sizes.split(",")) * len(args.kinds.split(",")) * (args.count + (args.warmup_calls or 0))
    return SERVERS_RESTART_GUESS_S + calls * PHASE_CALL_GUESS_S + sum(
        args.jvm_warmup for app in apps if registry.jit(app))


def round_results(directory):
    """[(round, concurrency.json's results)] of every figure's sweep under the run's folder."""
    found = []
    for path in sorted(directory.glob("round-*/fig-*/concurrency.json")):
        found.append((int(path.parent.parent.name.split("-")[1]), json.loads(path.read_text())))
    return found


def estimate_s(cells, levels, declaration, figure):
    """The ETA's guess for a figure's sweep of `cells` at `levels` levels, in the windows it declares."""
    args = parsed(paper_declaration.experiment_of(declaration, figure), figure)
    windows = LevelWindows.of(args.window_s, args.windows, args.settle_windows)
    return cells * (CELL_WARMUP_GUESS_S + levels * windows.per_level_s(concurrency.LEVEL_OVERHEAD_S))


def plan(declaration, figures, rounds, directory):
    """[(round, figure, apps to run)] and the ETA's guess in seconds: each round's figures, each with
    the apps whose cells no figure before it in that round (or a run before, resumed) measured."""
    steps, guess = [], 0.0
    measured = paper_figures.measured_levels(round_results(directory))
    for number_ in range(1, rounds + 1):
        ran = []  # (figure, the cells its sweep measures) of this round's plan so far
        folders = set()  # the soap-phases runs of this round's plan so far
        for figure in figures:
            if is_phases(declaration, figure):
                folder = paper_declaration.shared_folder(declaration, figure)
                if folder not in folders and not (directory / f"round-{number_}" / folder / "soap-phases-calls.tsv").exists():
                    steps.append((number_, figure, None))
                    guess += phases_estimate_s(phase_args(declaration, figure))
                folders.add(folder)
                continue
            apps, workloads, levels = figure_cells(declaration, figure)
            if (directory / f"round-{number_}" / f"fig-{figure['id']}" / "concurrency.md").exists():
                continue
            done = {key for key, found in measured.items() if len(paper_figures.round_levels(figure, found)) >= number_}
            done |= {key for earlier, keys in ran if paper_figures.covers(earlier, figure) for key in keys}
            todo = paper_figures.apps_to_run(apps, workloads, levels, done)
            if todo:
                steps.append((number_, figure, todo))
                guess += estimate_s(len(todo) * len(workloads), len(levels), declaration, figure)
                ran.append((figure, {(app, workload, level) for app in todo for workload in workloads for level in levels}))
    return steps, guess


def draw(declaration, values, figures, directory):
    """A page per figure that has points (whichever figure's sweep measured them), <paper>.pdf of them
    and <paper>.md; their paths."""
    measured = paper_figures.measured_levels(round_results(directory))
    plots = directory / "plots"
    (plots / "data").mkdir(parents=True, exist_ok=True)
    pages, sections = [], []
    breakdowns = read_tsv(PAPERS / declaration["breakdowns"]) if "breakdowns" in declaration else []
    for figure in figures:
        if is_phases(declaration, figure):
            points = paper_figures.phase_points(figure, round_calls(directory, paper_declaration.shared_folder(
                declaration, figure)))
        else:
            apps, workloads, levels = figure_cells(declaration, figure)
            points = None if figure["x"] in paper_profiles.KINDS else paper_figures.figure_points(
                figure, apps, workloads, levels, measured)
        if figure["x"] in paper_profiles.KINDS:
            drawn = draw_profiles(declaration, figure, values, breakdowns,
                                  paper_profiles.app_levels(figure, apps, workloads, levels, measured), plots)
            if drawn:
                pages += drawn[0]
                sections.append(drawn[1])
            continue
        if not points:
            continue
        ratios = paper_figures.ratio_series(figure, points)
        verdicts = paper_figures.verdict_rows(figure, values, points)
        sections.append(paper_markdown.figure_markdown(figure, values, points))
        data, notes = plots / "data" / f"fig-{figure['id']}.tsv", plots / "data" / f"fig-{figure['id']}-notes.tsv"
        notes.write_text(paper_pages.notes_text(figure, declaration, verdicts, points))
        variables = {"output": plots / f"fig-{figure['id']}.pdf", "data": data, "notes": notes,
                     "heading": f"{declaration['paper']} Fig. {figure['id']}: {figure['title']}",
                     "reference": registry.app(figure["reference"])["title"]}
        if figure["x"] == "app":
            data.write_text(paper_pages.bars_text(figure, values, points, ratios))
            variables.update(kind="app")
        else:
            text, series = paper_pages.lines_text(figure, values, points, ratios)
            data.write_text(text)
            variables.update(kind="lines", n=len(series), logx=int(figure["x"] == "connections"),
                             xlabel=X_LABELS["employees" if {kind for _, kind in points} == {"employees"} else figure["x"]],
                             ylabel=paper_figures.value_label(figure)[0])
            for index, (title, colour, dash) in enumerate(series, start=1):
                variables.update({f"title{index}": title, f"colour{index}": colour, f"dash{index}": dash})
        gnuplot("paper-figure.gp", **variables)
        pages.append(str(variables["output"]))
    name = declaration["paper"].lower().replace("'", "")
    markdown = directory / f"{name}.md"
    described = sorted(directory.glob("round-*/fig-*/soap-phases.json")) + sorted(directory.glob("round-*/fig-*/manifest.json"))
    first = json.loads(described[0].read_text()) if described else {}
    host = {**first["host"], "canary": first.get("canary")} if first else {}
    write_atomically(markdown, paper_markdown.paper_markdown(declaration, host, sections, declaration.get("not_run", [])))
    pdf = None
    if pages:
        pdf = directory / f"{name}.pdf"
        subprocess.run(["pdfunite", *pages, str(pdf)] if len(pages) > 1 else ["cp", pages[0], str(pdf)], check=True)
    html.write_documents_report(directory, f"{declaration['paper']} reproduced: run {directory.name}",
                                figures=[pdf] if pdf else [])
    html.write_index(directory.parent)
    return markdown, pdf


def draw_profiles(declaration, figure, values, breakdowns, levels_by_app, plots):
    """The pages of a breakdown (its stacked bars, then its text) or a footprint (its text) and the
    figure's section of <paper>.md; None when no app has a level that serves it."""
    if not levels_by_app:
        return None
    heading = f"{declaration['paper']} Fig. {figure['id']}: {figure['title']}"
    pages = []
    if figure["x"] == "breakdown":
        ours = {app: paper_profiles.pooled(levels, paper_profiles.covered(figure, app))
                for app, levels in levels_by_app.items()}
        bars = plots / "data" / f"fig-{figure['id']}.tsv"
        bars.write_text(paper_profiles.breakdown_bars(figure, breakdowns, ours))
        pages.append(plots / f"fig-{figure['id']}.pdf")
        gnuplot("breakdown.gp", output=pages[-1], file=bars, n=len(rules().components),
                heading=f"{heading} (share of the servers' CPU, %)")
        body = paper_profiles.breakdown_lines(figure, breakdowns, ours)
    else:
        body = paper_profiles.memory_lines(figure, values, levels_by_app)
    differs = [f"Differs: {item}" for item in figure.get("differs", [])]
    text = plots / "data" / f"fig-{figure['id']}-text.tsv"
    text.write_text(text_page([heading], [row for line in aligned_tables(body) + [""] + differs
                                          for row in textwrap.wrap(line, TEXT_WIDTH, subsequent_indent="    ") or [""]]))
    pages.append(plots / f"fig-{figure['id']}-text.pdf")
    gnuplot("text.gp", output=pages[-1], file=text)
    section = [f"## Fig. {figure['id']}: {figure['title']}", "", *body, "",
               "What still differs, beside the paper's own list: " + " ".join(figure.get("differs", [])), ""]
    return [str(page) for page in pages], section


def add_arguments(parser):
    parser.add_argument("--paper", default="icws08", help=f"the paper's declaration in experiments/papers/ ({', '.join(papers())})")
    parser.add_argument("--figures", type=listed, default=(), help="only these figures (default: every one declared)")
    parser.add_argument("--rounds", type=number(int, 1), default=1, help="rounds of every figure (default 1: "
                        "an interval is then the range of the round's windows)")
    parser.add_argument("--draw-only", action="store_true", help="draw the pages of the run's figures measured so far")
    parser.add_argument("--run", default=None, help="run id (default: <paper>-<UTC time>); an existing one resumes")
    parser.add_argument("--results", type=Path, default=RESULTS)


def execute(args):
    declaration, values = read_paper(args.paper)
    figures = paper_declaration.chosen_figures(declaration, args.figures)
    run_id = args.run or time.strftime(f"{args.paper}-%Y%m%d-%H%M%S", time.gmtime())
    directory = args.results / run_id
    steps, guess = ([], 0) if args.draw_only else plan(declaration, figures, args.rounds, directory)
    print(f"reproduce {declaration['paper']}: figures {', '.join(figure['id'] for figure in figures)}, "
          f"{args.rounds} round(s), {len(steps)} sweeps; expected ~{format_duration(guess)} plus the JVMs' "
          f"warm-ups; results in {directory}", flush=True)
    started = time.monotonic()
    for done, (round_number, figure, apps) in enumerate(steps):
        print(f"== round {round_number}, Fig. {figure['id']} ({figure['title']}): {', '.join(apps or ['its engines'])}"
              f" [{done + 1}/{len(steps)}, {format_duration(time.monotonic() - started)} so far]", flush=True)
        where = ["--results", str(directory / f"round-{round_number}")]
        if apps is None:  # a soap-phases figure's run, shared by the figures of the same experiment
            soap_phases.execute(phase_args(declaration, figure, ["--run", paper_declaration.shared_folder(
                declaration, figure), *where]), browse=False)
            continue
        args_of = parsed(paper_declaration.experiment_of(declaration, figure, apps), figure,
                         ["--run", f"fig-{figure['id']}", *where])
        concurrency.execute(args_of, browse=False)
    markdown, pdf = draw(declaration, values, declaration["figures"], directory)
    print(f"reproduce {declaration['paper']} finished in {format_duration(time.monotonic() - started)}: "
          f"{markdown}{', ' + str(pdf) if pdf else ' (nothing measured to draw)'}", flush=True)
