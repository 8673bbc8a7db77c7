"""What a run's rounds add up to: per cell its figure over the rounds with intervals, per pair of apps
in a block the ratio of their figures with its interval, the A/A control's noise floor, and how far
the rounds spread over the run's cells. Pure: a
loaded run in, records out; the statistics are harness/results/stats.py's.

A cell's figure is the median of its rounds' figures. The round whose figure is that median (the
lower one for an even count) is the cell's representative: its steps are the ones the report draws
for the cell beside other cells, and its status, reply times and bottleneck are the cell's.
"""
from dataclasses import dataclass
from itertools import combinations

from harness.results.stats import geometric_interval, median_interval, ratio_interval, rounds_for, stein_interval


@dataclass
class CellFigures:
    rows: list                  # the cell's CellSummary of each round (first measurements), by round
    representative: object      # the CellSummary whose figure is the median
    median: object = None       # Interval over the rounds' figures; None when no round has one
    geometric: object = None
    lower_bound: bool = False   # the median is only a lower bound
    first: int = None           # ROUNDS=auto: the first stage's rounds (Stein's intervals), else None

    @property
    def key(self):
        return self.representative.key

    @property
    def figures(self):
        """{round: figure} of the rounds that have one."""
        return {row.round: row.saturation_rps for row in self.rows if row.saturation_rps}


def auto_first(run):
    """The first stage of a ROUNDS=auto run (its rounds before any were added), else None."""
    options = run.manifest.options
    return options.get("rounds") if options.get("auto_rounds") else None


def cell_figures(run):
    """{CellKey: CellFigures} in the order the cells were first measured."""
    cells = {}
    for row in run.saturation:
        if row.replica == 1:
            cells.setdefault(row.key, []).append(row)
    return {key: figures_of(sorted(rows, key=lambda row: row.round), auto_first(run)) for key, rows in cells.items()}


def stage_interval(values_by_round, first):
    """The geometric interval of values in round order {round: value}; Stein's over the rounds up to
    `first` when ROUNDS=auto added rounds after them (and at least two of them have a value)."""
    values = [values_by_round[number] for number in sorted(values_by_round)]
    stage = sum(1 for number in values_by_round if first and number <= first)
    return stein_interval(values, stage) if stage >= 2 else geometric_interval(values)


def figures_of(rows, first=None):
    measured = sorted((row for row in rows if row.saturation_rps), key=lambda row: row.saturation_rps)
    if not measured:
        return CellFigures(rows, rows[0], lower_bound=rows[0].lower_bound, first=first)
    values = [row.saturation_rps for row in measured]
    # A round that is only a lower bound can move the median up when it sits at or below the middle
    # (both middles for an even count); one above the middle cannot move it.
    lower_bound = any(row.lower_bound for row in measured[:len(measured) // 2 + 1])
    return CellFigures(rows, measured[(len(measured) - 1) // 2], median_interval(values),
                       stage_interval({row.round: row.saturation_rps for row in measured}, first), lower_bound, first)


@dataclass(frozen=True)
class PairRatio:
    engine: str
    workload: str
    app: str
    other: str
    rounds: int
    ratio: object               # Interval of app's figure / other's, paired within rounds

    @property
    def real(self):
        """The difference is real when its interval excludes 1 (needs two rounds or more)."""
        return self.ratio.excludes(1.0)


def pair_ratios(cells, app_order):
    """Every pair of apps inside an engine x workload block, the faster app first (by median),
    with the geometric mean of their per-round ratios and its interval."""
    pairs = []
    blocks = {}
    for key, figures in cells.items():
        blocks.setdefault((key.engine, key.workload), {})[key.app] = figures
    for (engine, workload), by_app in blocks.items():
        apps = [app for app in app_order if app in by_app and by_app[app].median]
        for app, other in combinations(apps, 2):
            if by_app[app].median.estimate < by_app[other].median.estimate:
                app, other = other, app
            mine, theirs = by_app[app].figures, by_app[other].figures
            shared = sorted(set(mine) & set(theirs))
            if shared:
                pairs.append(PairRatio(engine, workload, app, other, len(shared),
                                       paired_interval(mine, theirs, shared, by_app[app].first)))
    return pairs


def paired_interval(mine, theirs, shared, first):
    """The interval of mine / theirs over the shared rounds: Stein's with ROUNDS=auto's first stage."""
    stage = sum(1 for number in shared if first and number <= first)
    return ratio_interval([(mine[number], theirs[number]) for number in shared], first=stage if stage >= 2 else None)


def control_noise(run):
    """The A/A control: (cell, Interval of its second figure / its first, paired by round), or None
    when the run had no control (or no round measured it twice)."""
    repeats = {row.round: row for row in run.saturation if row.replica == 2 and row.saturation_rps}
    if not repeats:
        return None
    key = next(iter(repeats.values())).key
    firsts = {row.round: row for row in run.saturation
              if row.key == key and row.replica == 1 and row.saturation_rps}
    shared = sorted(set(repeats) & set(firsts))
    if not shared:
        return None
    return key, paired_interval({number: row.saturation_rps for number, row in repeats.items()},
                                {number: row.saturation_rps for number, row in firsts.items()}, shared, auto_first(run))


@dataclass(frozen=True)
class RoundSpread:
    """Over the cells whose rounds give an interval: the geometric interval's half-width at the
    median cell and at the widest, and how many rounds the median cell's spread needs for +-target."""
    cells: int
    median_half_width: float
    widest_half_width: float
    widest: object          # CellKey
    target: float
    rounds_for_target: int


def speed_adjusted(figures):
    """A cell's round figures each divided by its saturation step's canary speed: what the round would
    have read on a machine at its reference speed. Empty unless every round with a figure has a speed."""
    rows = [row for row in figures.rows if row.saturation_rps]
    if not rows or not all(row.machine_speed_saturation for row in rows):
        return []
    return [row.saturation_rps / row.machine_speed_saturation for row in rows]


def round_spread(cells, target=0.10, adjusted=False):
    """The RoundSpread of cell_figures' cells, over their rounds' figures (adjusted: divided by the
    machine's speed, speed_adjusted); None when no cell has two rounds (the median cell is the lower
    middle one for an even count, as a cell's representative round is)."""
    per_cell = {key: speed_adjusted(figures) if adjusted else list(figures.figures.values())
                for key, figures in cells.items()}
    spreads = sorted((geometric_interval(values).half_width, key, values)
                     for key, values in per_cell.items() if len(values) > 1)
    if not spreads:
        return None
    median_width, _, median_figures = spreads[(len(spreads) - 1) // 2]
    widest_width, widest, _ = spreads[-1]
    return RoundSpread(len(spreads), median_width, widest_width, widest, target,
                       rounds_for(median_figures, target))
