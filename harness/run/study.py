"""STUDY=1's reference: the figures of a run of the default method that its linear rates bracket
(experiments/presets/study.json, linear_rates). Read once, when the run starts, and kept in its manifest,
so a resumed run plans the same rates without the reference run."""
from pathlib import Path

from harness.results.manifest import Manifest
from harness.results.rounds import cell_figures
from harness.results.store import ResultsError, load_run

STUDY_PRESET = "study"


def run_figures(run):
    """{cell "app/engine/workload": its median over the run's rounds} for the cells that have one."""
    return {str(key): figures.median.estimate for key, figures in cell_figures(run).items() if figures.median}


def of_the_default_method(run):
    """A run of the adaptive plan without a preset (QUICK=1's coarse figures are no reference)."""
    return run.manifest.options.get("mode") == "adaptive" and not run.manifest.options.get("presets")


def reference_figures(results_dir, cells, run_id=""):
    """(run id, {cell: figure}) for these cells: from run `run_id`, or else from the latest run of the
    default method that measured them all. SystemExit in words when there is none."""
    wanted = [str(key) for key in cells]
    if run_id:
        candidates = [Path(results_dir) / run_id]
        if not (candidates[0] / "manifest.json").is_file():
            raise SystemExit(f"REFERENCE={run_id}: no such run under {results_dir}")
    else:
        candidates = sorted((path.parent for path in Path(results_dir).glob("*/manifest.json")),
                            key=lambda path: (Manifest.read(path / "manifest.json").started or "", path.name),
                            reverse=True)
    for directory in candidates:
        try:
            run = load_run(directory)
        except ResultsError:
            continue
        figures = run_figures(run)
        missing = [cell for cell in wanted if cell not in figures]
        if run_id and (missing or not of_the_default_method(run)):
            raise SystemExit(f"REFERENCE={run_id} cannot set the linear rates: "
                             + (f"it has no figure for {', '.join(missing)}" if missing
                                else "it is not a run of the default (adaptive) method"))
        if not missing and of_the_default_method(run):
            return directory.name, {cell: round(figures[cell], 2) for cell in wanted}
    raise SystemExit("STUDY=1 brackets each cell's figure from a run of the default method, and no run under "
                     f"{results_dir} has all of {', '.join(wanted)}: run `make saturation-sweep` with the same "
                     "cells first, name one with REFERENCE=, or give LINEAR_RATES=0 for the study's ramp from "
                     "its first rate")


def kept_or_found(results_dir, run_id, cells, reference_run=""):
    """(reference run id, figures) for run `run_id`: what its manifest kept when it is resumed, else
    reference_figures()."""
    manifest = Path(results_dir) / run_id / "manifest.json"
    if manifest.is_file():
        kept = Manifest.read(manifest).options
        if kept.get("reference_figures"):
            return kept.get("reference_run", ""), kept["reference_figures"]
    return reference_figures(results_dir, cells, reference_run)
