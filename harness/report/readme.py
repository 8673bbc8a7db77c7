"""README's table of the study's four, written from kept runs (reference-runs/), one per machine kind:
each cell's median saturation figure over a run's rounds with their lowest and highest, beside the
2006 study's figure, under a line that names each run, its CPU model, its speed canary and its date.
Pure: Views in, lines out; `python3 -m harness.report.readme reference-runs/RUN ...` prints them, and
tests/unit/test_readme.py holds README to what they say."""
import re
import sys

from harness.report.tables import study_figures
from harness.report.view import View
from harness.results.records import CellKey
from harness.results.speed import references as canary_references
from harness.results.store import load_run
from stack.workload_names import workload_title

# The study's workloads, in its order; its apps are the run's registry's `study` set.
STUDY_WORKLOADS = ("single", "large")


def figure_text(value):
    """A saturation figure as README writes it: whole replies a second from 100 up, else one decimal."""
    return f"{value:,.0f}" if value >= 100 else f"{value:.1f}"


def cell_text(figures, study):
    """"1,786 [1,458–1,858] (480)": the median over the rounds [their lowest–highest] (the 2006
    study's figure, or — where it gives none); "—" for a cell with no figure."""
    paper = f" ({study['saturation_rps']})" if study and study.get("saturation_rps") else " (—)"
    if figures is None or not figures.figures:
        return "—" + paper
    values = figures.figures.values()
    return (f"{figure_text(figures.median.estimate)} [{figure_text(min(values))}–{figure_text(max(values))}]"
            + paper)


def machine_kind(model):
    """A CPU model's maker and family, as a row names its run: "Intel(R) Xeon(R) Processor" is
    "Intel Xeon"."""
    return " ".join(re.sub(r"\((R|TM)\)|\b(Processor|CPU)\b", " ", model).split()) or "CPU unknown"


def run_text(view):
    """Which run a table's rows are from: its machine kind, name, CPU model, canary, date and rounds."""
    manifest, run = view.manifest, view.run
    references = sorted(canary_references(run.canary).values())
    canary = (("canary " + (f"{references[0]:.2f}" if references[0] == references[-1]
                            else f"{references[0]:.2f}–{references[-1]:.2f}") + " ms") if references else "no canary")
    rounds = sorted({row.round for row in run.saturation})
    return (f"{machine_kind(manifest.host.get('cpu_model', ''))}, run `{manifest.run_id}` "
            f"({manifest.host.get('cpu_model', 'CPU unknown')}, {canary}, {manifest.data.get('started', '')[:10]}, "
            f"{len(rounds)} rounds)")


def study_table(views, study=None):
    """A line naming the runs (run_text), then | machine | workload | engine | each of the study's apps |,
    a row per run, workload and engine it measured."""
    study = study_figures() if study is None else study
    apps = [app for app in views[0].manifest.data["registry"]["sets"]["study"] if app in views[0].apps]
    lines = ["From the [kept runs](reference-runs/README.md): " + "; ".join(map(run_text, views)) + ".", "",
             "| machine | workload | engine | " + " | ".join(map(views[0].title, apps)) + " |",
             "|---|---|---|" + "---|" * len(apps)]
    for view in views:
        kind = machine_kind(view.manifest.host.get("cpu_model", ""))
        for workload in STUDY_WORKLOADS:
            for engine in view.present("engines"):
                cells = [cell_text(view.cells.get(CellKey(app, engine, workload)), study.get((workload, engine, app)))
                         for app in apps]
                lines.append(f"| {kind} | {workload_title(workload, short=True)} | {view.engine_title(engine)} | "
                             + " | ".join(cells) + " |")
    return lines


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python3 -m harness.report.readme reference-runs/RUN [reference-runs/RUN ...]")
    print("\n".join(study_table([View(load_run(path)) for path in sys.argv[1:]])))
