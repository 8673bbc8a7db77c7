"""`make reproduce PAPER=icws08 [FIGURES=3,4] [ROUNDS=N] [RUN=]`: a paper's figures under the paper's
own load, each beside the paper's values, on a page of `<paper>.pdf`.

The paper is a declaration (experiments/papers/<paper>.json): its load (a verb and options, for
ICWS'08 the concurrency sweep with Apache Bench at 100 kept-alive connections), its figures (each the
apps, workloads and levels it needs, its x, the app its ratios are over, the paper's labels for our
apps, what still differs), and a TSV of the paper's values, each with its line in the paper's text.
Each round runs every chosen figure's experiment (harness/run/paper_runs.py plans them); a cell
another figure of the round has measured is not measured twice. A figure whose round folder is
complete is skipped, so the same RUN resumes.

Into results/<run>/: round-<r>/fig-<id>/ (each a concurrency sweep's, a soap-phases run's or a sweep's
folder: manifest, raw reports), plots/ (a page per figure and its data), <paper>.md and <paper>.pdf,
and report/index.html to browse."""
import json
import subprocess
import textwrap
import time

from harness import cli
from harness.judge.cpu_components import rules
from harness.report import (html, paper_declaration, paper_figures, paper_markdown, paper_pages, paper_phases, paper_profiles,
                            paper_sweeps)
from harness.report.gnuplot import gnuplot
from harness.report.series import aligned_tables, text_page
from harness.results.chosen import Refused, add_results_argument
from harness.results.store import read_tsv, write_atomically
from harness.run import paper_runs
from harness.run.option_types import listed, number
from harness.run.paper_runs import PAPERS
from harness.run.progress import format_duration

TEXT_WIDTH = 150  # characters of a line on a text page (plots/text.gp's monospaced body)
def draw(declaration, values, figures, directory):
    """A page per figure that has points (whichever figure's sweep measured them), <paper>.pdf of them
    and <paper>.md; their paths."""
    measured = paper_figures.measured_levels(paper_runs.round_results(directory))
    plots = directory / "plots"
    (plots / "data").mkdir(parents=True, exist_ok=True)
    pages, sections = [], []
    breakdowns = read_tsv(PAPERS / declaration["breakdowns"]) if "breakdowns" in declaration else []
    for figure in figures:
        folder = paper_declaration.shared_folder(declaration, figure)
        figure = {**figure, "verb": paper_declaration.verb_of(declaration, figure)}
        recorded = paper_runs.recorded_registry(directory, folder)  # the apps as measured, not as today
        if figure["x"] == "rate":
            drawn = draw_rates(declaration, figure, values, paper_runs.round_steps(directory, folder), plots, recorded)
            if drawn:
                pages.append(drawn[0])
                sections.append(drawn[1])
            continue
        if paper_runs.is_phases(declaration, figure):
            points = paper_phases.phase_points(figure, paper_runs.round_calls(directory, folder))
        elif paper_runs.own_run(declaration, figure):  # a sweep's saturation table
            points = paper_sweeps.saturation_points(paper_runs.round_summaries(directory, folder))
        else:
            apps, workloads, levels = paper_runs.figure_cells(declaration, figure)
            points = None if figure["x"] in paper_profiles.KINDS else paper_figures.figure_points(
                figure, apps, workloads, levels, measured)
        if figure["x"] in paper_profiles.KINDS:
            drawn = draw_profiles(declaration, figure, values, breakdowns,
                                  paper_profiles.app_levels(figure, apps, workloads, levels, measured), plots, recorded)
            if drawn:
                pages += drawn[0]
                sections.append(drawn[1])
            continue
        if not points:
            continue
        ratios = paper_figures.ratio_series(figure, points)
        verdicts = paper_figures.verdict_rows(figure, values, points)
        sections.append(paper_markdown.figure_markdown(figure, values, points, recorded))
        data, notes = plots / "data" / f"fig-{figure['id']}.tsv", plots / "data" / f"fig-{figure['id']}-notes.tsv"
        notes.write_text(paper_pages.notes_text(figure, declaration, verdicts, points, recorded))
        variables = {"output": plots / f"fig-{figure['id']}.pdf", "data": data, "notes": notes,
                     "heading": f"{declaration['paper']} Fig. {figure['id']}: {figure['title']}",
                     "reference": recorded.title(figure["reference"])}
        if figure["x"] == "app":
            data.write_text(paper_pages.bars_text(figure, values, points, ratios, recorded))
            variables.update(kind="app")
        else:
            text, series = paper_pages.lines_text(figure, values, points, ratios, recorded)
            data.write_text(text)
            variables.update(kind="lines", n=len(series), logx=paper_pages.log_base(figure, points),
                             xlabel=paper_pages.x_label(figure, points),
                             ylabel=paper_figures.value_label(figure)[0])
            for index, (title, colour, dash) in enumerate(series, start=1):
                variables.update({f"title{index}": title, f"colour{index}": colour, f"dash{index}": dash})
        gnuplot("paper-figure.gp", **variables)
        pages.append(str(variables["output"]))
    name = declaration["paper"].lower().replace("'", "")
    markdown = directory / f"{name}.md"
    described = sorted(directory.glob("round-*/fig-*/soap-phases.json")) + sorted(directory.glob("round-*/fig-*/manifest.json"))
    first = json.loads(described[0].read_text()) if described else {}
    # The speed canary: soap-phases' own readings, else a sweep's quiet check's before its first cell.
    canary = first.get("canary") or {name: value for name, value in first.get("quiet_check", {}).get("figures", {}).items()
                                      if name.startswith("canary_")}
    host = {**first["host"], "canary": canary} if first else {}
    write_atomically(markdown, paper_markdown.paper_markdown(declaration, host, sections, declaration.get("not_run", [])))
    pdf = None
    if pages:
        pdf = directory / f"{name}.pdf"
        subprocess.run(["pdfunite", *pages, str(pdf)] if len(pages) > 1 else ["cp", pages[0], str(pdf)], check=True)
    html.write_documents_report(directory, f"{declaration['paper']} reproduced: run {directory.name}",
                                figures=[pdf] if pdf else [])
    html.write_index(directory.parent)
    return markdown, pdf


def draw_rates(declaration, figure, values, rounds_steps, plots, recorded):
    """The page of a per-rate table (ours beside the paper's rows) and its section of <paper>.md; None
    before its sweep has a step."""
    points = paper_sweeps.rate_points(rounds_steps)
    if not points:
        return None
    data, notes = plots / "data" / f"fig-{figure['id']}.tsv", plots / "data" / f"fig-{figure['id']}-notes.tsv"
    text, series = paper_sweeps.rates_text(figure, values, points, recorded)
    data.write_text(text)
    notes.write_text(paper_pages.numbered_notes(paper_sweeps.verdict(figure, values, points, recorded), figure, declaration))
    variables = {"output": plots / f"fig-{figure['id']}.pdf", "data": data, "notes": notes, "n": len(series),
                 "heading": f"{declaration['paper']} {figure['id']}: {figure['title']}"}
    for index, (title, colour) in enumerate(series, start=1):
        variables.update({f"title{index}": title, f"colour{index}": colour})
    gnuplot("paper-rates.gp", **variables)
    return str(variables["output"]), paper_sweeps.rates_markdown(figure, values, points, recorded)


def draw_profiles(declaration, figure, values, breakdowns, levels_by_app, plots, recorded):
    """The pages of a breakdown (its stacked bars, then its text) or a footprint (its text) and the
    figure's section of <paper>.md; None when no app has a level that serves it."""
    if not levels_by_app:
        return None
    heading = f"{declaration['paper']} Fig. {figure['id']}: {figure['title']}"
    pages = []
    if figure["x"] == "breakdown":
        ours = {app: paper_profiles.pooled(levels, paper_profiles.covered(figure, app, recorded))
                for app, levels in levels_by_app.items()}
        bars = plots / "data" / f"fig-{figure['id']}.tsv"
        bars.write_text(paper_profiles.breakdown_bars(figure, breakdowns, ours, recorded))
        pages.append(plots / f"fig-{figure['id']}.pdf")
        gnuplot("breakdown.gp", output=pages[-1], file=bars, n=len(rules().components),
                heading=f"{heading} (share of the servers' CPU, %)")
        body = paper_profiles.breakdown_lines(figure, breakdowns, ours, recorded)
    else:
        body = paper_profiles.memory_lines(figure, values, levels_by_app, recorded)
    differs = [paper_figures.sides_text(figure["sides"]), *(f"Differs: {item}" for item in figure.get("differs", []))]
    text = plots / "data" / f"fig-{figure['id']}-text.tsv"
    text.write_text(text_page([heading], [row for line in aligned_tables(body) + [""] + differs
                                          for row in textwrap.wrap(line, TEXT_WIDTH, subsequent_indent="    ") or [""]]))
    pages.append(plots / f"fig-{figure['id']}-text.pdf")
    gnuplot("text.gp", output=pages[-1], file=text)
    section = [f"## Fig. {figure['id']}: {figure['title']}", "", *body, "", paper_figures.sides_text(figure["sides"]), "",
               "What still differs, beside the paper's own list: " + " ".join(figure.get("differs", [])), ""]
    return [str(page) for page in pages], section


def add_arguments(parser):
    parser.add_argument("--paper", default="icws08",
                        help=f"the paper's declaration in experiments/papers/ ({', '.join(paper_runs.papers())})")
    parser.add_argument("--figures", type=listed, default=(), help="only these figures (default: every one declared)")
    parser.add_argument("--rounds", type=number(int, 1), default=1, help="rounds of every figure (default 1: "
                        "an interval is then the range of the round's windows)")
    parser.add_argument("--draw-only", action="store_true", help="draw the pages of the run's figures measured so far")
    parser.add_argument("--run", default=None, help="run id (default: <paper>-<UTC time>); an existing one resumes")
    add_results_argument(parser)


def execute(args):
    declaration, values = paper_runs.read_paper(args.paper)
    figures = paper_declaration.chosen_figures(declaration, args.figures)
    run_id = args.run or time.strftime(f"{args.paper}-%Y%m%d-%H%M%S", time.gmtime())
    directory = args.results / run_id
    steps, guess = ([], 0) if args.draw_only else paper_runs.plan(declaration, figures, args.rounds, directory)
    print(f"reproduce {declaration['paper']}: figures {', '.join(figure['id'] for figure in figures)}, "
          f"{args.rounds} round(s), {len(steps)} sweeps; expected ~{format_duration(guess)} plus the JVMs' "
          f"warm-ups; results in {directory}", flush=True)
    started = time.monotonic()
    for done, (round_number, figure, apps) in enumerate(steps):
        what = "its reference, by the default method" if apps == paper_runs.REFERENCE else ", ".join(apps or ["its engines"])
        print(f"== round {round_number}, Fig. {figure['id']} ({figure['title']}): {what}"
              f" [{done + 1}/{len(steps)}, {format_duration(time.monotonic() - started)} so far]", flush=True)
        where_round = directory / f"round-{round_number}"
        where = ["--results", str(where_round)]
        if apps == paper_runs.REFERENCE:  # the default method's figures that the study's rates bracket
            folder = paper_runs.reference_folder(declaration, figure)
            if cli.run(paper_runs.reference_experiment(declaration, figure, ["--run", folder, *where])):
                raise Refused(f"Fig. {figure['id']}'s reference sweep stopped (above): resume with RUN={run_id}", code=1)
            continue
        if apps is None:  # a run of its own, shared by the figures of the same experiment
            own = ["--run", paper_declaration.shared_folder(declaration, figure), *where]
            if paper_runs.is_phases(declaration, figure):
                cli.run(paper_runs.figure_experiment(declaration, figure, own), browse=False)
            elif cli.run(paper_runs.figure_experiment(
                    declaration, figure, own + paper_runs.bracket_args(declaration, figure, where_round))):
                raise Refused(f"Fig. {figure['id']}'s sweep stopped (above); its finished steps are kept: "
                              f"resume with RUN={run_id}", code=1)
            continue
        cli.run(paper_runs.figure_experiment(declaration, figure, ["--run", f"fig-{figure['id']}", *where], apps),
                browse=False)
    markdown, pdf = draw(declaration, values, declaration["figures"], directory)
    print(f"reproduce {declaration['paper']} finished in {format_duration(time.monotonic() - started)}: "
          f"{markdown}{', ' + str(pdf) if pdf else ' (nothing measured to draw)'}", flush=True)
