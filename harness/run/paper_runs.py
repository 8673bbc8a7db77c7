"""The runs behind a paper's figures (`make reproduce PAPER=`): the paper read and checked, each
figure's experiment as its verb parses it, what a run's folder holds of each round, and the plan of
what is left to run with its ETA.

A concurrency-sweep figure measures its cells in round-<r>/fig-<id>/, skipping the cells another
figure of the round measured. A soap-phases or sweep figure runs in the folder of the first figure
with the same experiment (paper_declaration.shared_folder), once a round: one run of the phases gives
every measure of them, one sweep every cell of it. A sweep under the study's linear rates brackets
its cells' figures in a run of the default method that the round makes first, beside it. A sweep
resumes where it stopped."""
import json

from harness import cli
from harness.report import paper_declaration, paper_figures
from harness.results.chosen import Refused
from harness.results.manifest import Manifest
from harness.results.store import read_tsv
from harness.run import concurrency, options
from harness.run.context import LevelWindows, preset
from harness.run.study import STUDY_PRESET
from stack import registry, targets
from stack.settings import ROOT

PAPERS = ROOT / "experiments" / "papers"
# A cell's warm-up before its levels, as seen here (5-30 s; a JVM's first cell longer): the ETA's guess.
CELL_WARMUP_GUESS_S = 15
# A soap-phases run, as seen here: its servers restarted with the hooks on and back, a call of up to
# 5,000 records: the ETA's guesses.
SERVERS_RESTART_GUESS_S, PHASE_CALL_GUESS_S = 40, 0.3
# A sweep's cell before its steps (restart, warm-up, probe, a baseline step of half a step's length),
# as seen here: the ETA's guess, beside its steps.
SWEEP_CELL_GUESS_S = 60
# A plan's step: the run of the default method whose figures a figure's study sweep brackets, in the
# round's folder beside it (<folder>-reference).
REFERENCE = "reference"


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


def figure_experiment(declaration, figure, extra=(), apps=None):
    """A figure's Experiment (its paper's load and its own options, its apps narrowed to `apps` when
    given), with `extra` options over them."""
    return cli.experiment(paper_declaration.experiment_of(declaration, figure, apps), f"figure {figure['id']}", extra)


def figure_args(declaration, figure, extra=()):
    """A figure's options, as its verb types them."""
    return figure_experiment(declaration, figure, extra).args


def figure_cells(declaration, figure):
    """(apps, workloads, levels) a concurrency-sweep figure measures, as its verb resolves them."""
    context, _, ladder = concurrency.run_of(figure_args(declaration, figure))
    cells = context.selection.cells
    return (list(dict.fromkeys(cell.app for cell in cells)), list(dict.fromkeys(cell.workload for cell in cells)),
            ladder)


def is_phases(declaration, figure):
    return paper_declaration.verb_of(declaration, figure) == paper_declaration.PHASES_VERB


def own_run(declaration, figure):
    """Whether a figure's experiment runs whole in a folder of its own (soap-phases, a sweep), not
    cell by cell beside other figures' (a concurrency sweep)."""
    return paper_declaration.verb_of(declaration, figure) != paper_declaration.LOAD_VERB


def round_of(path, depth):
    """The round number of a file `depth` folders below round-<r>/."""
    return int(path.parents[depth].name.split("-")[1])


def round_calls(directory, folder):
    """[(round, soap-phases-calls.tsv's rows)] of a soap-phases figure's folder in every round."""
    return [(round_of(path, 1), read_tsv(path)) for path in sorted(directory.glob(f"round-*/{folder}/soap-phases-calls.tsv"))]


def round_steps(directory, folder):
    """[(round, {"cell": cell.json, "steps": steps.tsv's rows})] of a sweep figure's folder in every round."""
    return [(round_of(path, 3), {"cell": json.loads(path.read_text()), "steps": read_tsv(path.parent / "steps.tsv")})
            for path in sorted(directory.glob(f"round-*/{folder}/cells/*/cell.json"))]


def round_summaries(directory, folder):
    """[(round, saturation.tsv's rows)] of a sweep figure's folder in every round."""
    return [(round_of(path, 1), read_tsv(path)) for path in sorted(directory.glob(f"round-*/{folder}/saturation.tsv"))]


def round_results(directory):
    """[(round, concurrency.json's results)] of every figure's sweep under the run's folder."""
    return [(round_of(path, 1), json.loads(path.read_text()))
            for path in sorted(directory.glob("round-*/fig-*/concurrency.json"))]


def recorded_registry(directory, folder):
    """The registry as a figure's own run recorded it (a Manifest of it): its folder's manifest.json
    or soap-phases.json in the first round that has one. Today's registry for a figure with no run of
    its own (every cell it draws measured by another figure's sweep) or from before soap-phases.json
    kept it."""
    for path in [*sorted(directory.glob(f"round-*/{folder}/manifest.json")),
                 *sorted(directory.glob(f"round-*/{folder}/soap-phases.json"))]:
        recorded = json.loads(path.read_text()).get("registry")
        if recorded:
            return Manifest.of_registry(recorded)
    return Manifest.of_registry(targets.registry())


def finished(folder, verb):
    """Whether a figure's own run in `folder` is complete."""
    if verb == paper_declaration.PHASES_VERB:
        return (folder / "soap-phases-calls.tsv").exists()
    manifest = folder / "manifest.json"
    return manifest.exists() and bool(json.loads(manifest.read_text()).get("finished"))


def phases_estimate_s(args):
    """The ETA's guess for a soap-phases run: its calls at PHASE_CALL_GUESS_S each, each workload's
    warm-up (seconds of it, or calls), the JVMs' warm-up."""
    apps = [app for app in args.apps.split(",") if app]
    cells = len(apps) * len(args.sizes.split(",")) * len(args.kinds.split(","))
    warmup_s = cells * args.warmup if args.warmup_calls is None else 0
    return (SERVERS_RESTART_GUESS_S + cells * (args.count + (args.warmup_calls or 0)) * PHASE_CALL_GUESS_S
            + warmup_s + sum(args.jvm_warmup for app in apps if registry.jit(app)))


def bracketed(args):
    """Whether a sweep's args run the study's linear rates around a reference run (no rates listed)."""
    return bool(getattr(args, "study", False)) and not args.rates


def sweep_estimate_s(args):
    """The ETA's guess for a sweep: each cell's warm-up and its steps at the plan's length, at the
    rates listed, at the study's linear rates around a reference (every rate, though a cell stops at
    its first that fails; the reference may not be run yet), or the adaptive plan's whole budget."""
    if bracketed(args):
        study = preset(STUDY_PRESET)["options"]
        cells = len(args.apps) * len(args.engines) * len(args.workloads)
        return cells * (SWEEP_CELL_GUESS_S + study["linear_rates"] * study["duration_s"])
    context = options.from_args(args)[0]
    steps = len(context.plan.rates) if context.plan.rates else context.plan.max_steps
    return len(context.selection.cells) * context.plan.rounds * (SWEEP_CELL_GUESS_S + steps * context.plan.duration_s)


def reference_experiment(declaration, figure, extra=()):
    """The reference of a figure under the study's linear rates: its cells by the default method, one
    round (it only places the bracket)."""
    experiment = paper_declaration.experiment_of(declaration, figure)
    options_of = {key: value for key, value in experiment["options"].items() if key != "study"}
    return cli.experiment({**experiment, "options": {**options_of, "rounds": 1}}, f"figure {figure['id']}'s reference", extra)


def reference_folder(declaration, figure):
    """The folder, in each round's, of the run a figure's study sweep brackets: beside its own."""
    return f"{paper_declaration.shared_folder(declaration, figure)}-{REFERENCE}"


def bracket_args(declaration, figure, round_directory):
    """What a figure's sweep is told of its reference: the path of the round's reference run, when
    its rates bracket one."""
    if not bracketed(figure_args(declaration, figure)):
        return []
    return ["--reference", str(round_directory / reference_folder(declaration, figure))]


def estimate_s(cells, levels, declaration, figure):
    """The ETA's guess for a figure's sweep of `cells` at `levels` levels, in the windows it declares."""
    args = figure_args(declaration, figure)
    windows = LevelWindows.of(args.window_s, args.windows, args.settle_windows)
    return cells * (CELL_WARMUP_GUESS_S + levels * windows.per_level_s(concurrency.LEVEL_OVERHEAD_S))


def plan(declaration, figures, rounds, directory):
    """[(round, figure, apps to run, or None for a run of its own, or REFERENCE for the run its own
    brackets)] and the ETA's guess in seconds: each round's figures, each with the apps whose cells no
    figure before it in that round (or a run before, resumed) measured."""
    steps, guess = [], 0.0
    measured = paper_figures.measured_levels(round_results(directory))
    for number in range(1, rounds + 1):
        ran = []  # (figure, the cells its sweep measures) of this round's plan so far
        folders = set()  # the runs of their own in this round's plan so far
        for figure in figures:
            if own_run(declaration, figure):
                folder = paper_declaration.shared_folder(declaration, figure)
                verb = paper_declaration.verb_of(declaration, figure)
                args = figure_args(declaration, figure)
                reference = directory / f"round-{number}" / reference_folder(declaration, figure)
                if folder not in folders and bracketed(args) and not finished(reference, verb):
                    steps.append((number, figure, REFERENCE))
                    guess += sweep_estimate_s(reference_experiment(declaration, figure).args)
                if folder not in folders and not finished(directory / f"round-{number}" / folder, verb):
                    steps.append((number, figure, None))
                    guess += phases_estimate_s(args) if is_phases(declaration, figure) else sweep_estimate_s(args)
                folders.add(folder)
                continue
            apps, workloads, levels = figure_cells(declaration, figure)
            if (directory / f"round-{number}" / f"fig-{figure['id']}" / "concurrency.md").exists():
                continue
            done = {key for key, found in measured.items() if len(paper_figures.round_levels(figure, found)) >= number}
            done |= {key for earlier, keys in ran if paper_figures.covers(earlier, figure) for key in keys}
            todo = paper_figures.apps_to_run(apps, workloads, levels, done)
            if todo:
                steps.append((number, figure, todo))
                guess += estimate_s(len(todo) * len(workloads), len(levels), declaration, figure)
                ran.append((figure, {(app, workload, level) for app in todo for workload in workloads for level in levels}))
    return steps, guess
