"""How a run is shown: apps in registry order with a fixed colour each, and which of the
run's selection has results (the titles of workloads and engines are the registry's). Pure."""
from dataclasses import dataclass
from functools import cached_property

from harness.results.rounds import cell_figures
from harness.results.store import Run

# Colour-blind-safe (Okabe-Ito), taken in registry order, so an app keeps its colour in every figure.
# Beyond its eight, Paul Tol's muted colours.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000",
           "#882255", "#44AA99", "#999933", "#AA4499", "#888888"]
ENGINE_DASH = {"myisam": 1, "innodb": 2}
@dataclass
class View:
    run: Run

    @property
    def manifest(self):
        return self.run.manifest

    @property
    def apps(self):
        """The run's apps in registry order (the order that fixes each app's colour)."""
        measured = {row.app for row in self.run.saturation}
        return [app for app in self.manifest.apps if app in measured]

    def title(self, app):
        return self.manifest.title(app)

    def engine_title(self, engine):
        return self.manifest.engine_title(engine)

    def colour(self, app):
        return PALETTE[self.manifest.colour_index(app) % len(PALETTE)]

    def present(self, kind):
        """The run's engines or workloads (kind: "engines", "workloads") that have results, the
        chosen ones first (then "none", the baselines' engine)."""
        attribute = kind[:-1]
        measured = list(dict.fromkeys(getattr(row, attribute) for row in self.run.saturation))
        chosen = [value for value in self.manifest.options[kind] if value in measured]
        return chosen + [value for value in measured if value not in chosen]

    @cached_property
    def cells(self):
        """{CellKey: CellFigures}: each cell's rounds, its median figure and intervals."""
        return cell_figures(self.run)

    @property
    def summaries(self):
        """{CellKey: the CellSummary of the cell's representative round} (its median figure's)."""
        return {key: figures.representative for key, figures in self.cells.items()}

    @cached_property
    def measured_rows(self):
        """{Visit: its CellSummary}: every measurement's own row."""
        return {row.visit: row for row in self.run.saturation}

    def steps_of(self, key):
        """The steps of the cell's representative round."""
        return self.run.steps[self.summaries[key].visit]

    def measurements(self, key):
        """(Visit, steps) of every measurement of the cell: each round, and the A/A control's repeats."""
        return [(visit, steps) for visit, steps in sorted(self.run.steps.items()) if visit.key == key]

    @property
    def rounds(self):
        return max((row.round for row in self.run.saturation), default=0)
