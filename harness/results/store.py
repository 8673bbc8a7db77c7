"""Reading and writing a run's files: results/<run>/saturation.tsv, cells/<cell>/steps.tsv and
cell.json, manifest.json. Every write is atomic (a reader or a crash never sees half a file); every
read gives back the typed records of `records`, also from runs written before this format had an
owner (no round column: round 1)."""
import csv
import io
import json
from dataclasses import dataclass, field, fields
from pathlib import Path

from harness.results import kinds
from harness.results.figures import STEP_FIGURES
from harness.results.manifest import Manifest
from harness.results.records import CellKey, CellState, CellSummary, Step
from stack.files import write_atomically
from stack.settings import ROOT

# Where runs go unless --results (RESULTS_DIR=) says otherwise.
RESULTS = ROOT / "results"
# Runs the repository keeps, without their raw outputs: a run of one machine to set another's beside.
REFERENCE_RUNS = ROOT / "reference-runs"

STEP_COLUMNS = ["step", "round", "role", "offered_rate", "timeout_s", "num_conns", "verdict", "reason",
                "killed", "wall_s", "port_wait_s", "issue_rate", "raw", "work_missing"]
SUMMARY_COLUMNS = [item.name for item in fields(CellSummary)]


class ResultsError(Exception):
    """A run folder that cannot be read as a sweep run; the message says what is missing."""


def tsv_text(columns, rows):
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, columns, delimiter="\t", lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def read_tsv(path):
    """Rows of a TSV file as dicts of strings; lines starting with # are comments; [] when absent."""
    path = Path(path)
    if not path.exists():
        return []
    with open(path, newline="") as source:
        return list(csv.DictReader((line for line in source if not line.startswith("#")), delimiter="\t"))


def cell_text(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(int(value))
    return str(value)


def typed(kind, text):
    """A TSV cell as the record field's type; None for an empty cell."""
    if text is None or text == "":
        return None
    if kind is bool:
        return text not in ("0", "False", "false")
    if kind is int:
        return int(float(text))
    if kind is float:
        return float(text)
    return text


def record_from_row(cls, row, skip=()):
    values = {}
    for item in fields(cls):
        if item.name in skip or item.name not in row:
            continue
        value = typed(item.type, row[item.name])
        if value is not None:
            values[item.name] = value
    return cls(**values)


# ---- steps ---------------------------------------------------------------------------------------
def step_row(step):
    row = {name: cell_text(value) for name, value in step.figures.items()}
    row.update({name: cell_text(getattr(step, name)) for name in STEP_COLUMNS})
    return row


def step_from_row(row):
    step = record_from_row(Step, row, skip=("figures",))
    step.figures = {name: float(text) for name, text in row.items()
                    if name not in STEP_COLUMNS and text not in (None, "")}
    return step


def step_columns(steps):
    """The header of steps.tsv: the same for every step of a run (every figure of the lab's words, then what
    the step monitors add), so that rewriting a file keeps every cell of its finished rows. A figure that a
    step gives for the first time (a listen queue that filled) joins at the end, empty in earlier rows."""
    watched = dict.fromkeys(name for step in steps for name in step.figures
                            if name not in STEP_FIGURES and name not in STEP_COLUMNS)
    return STEP_COLUMNS + [name for name in STEP_FIGURES if name not in STEP_COLUMNS] + list(watched)


def write_steps(path, steps):
    write_atomically(path, tsv_text(step_columns(steps), [step_row(step) for step in steps]))


def read_steps(path):
    return [step_from_row(row) for row in read_tsv(path)]


# ---- cell state and summaries ---------------------------------------------------------------------
def write_cell_state(path, state):
    write_atomically(path, json.dumps(state.to_json(), indent=2) + "\n")


def read_cell_state(path):
    path = Path(path)
    return CellState.from_json(json.loads(path.read_text())) if path.exists() else None


def write_summaries(path, summaries):
    write_atomically(path, tsv_text(SUMMARY_COLUMNS, [{item: cell_text(getattr(row, item))
                                                       for item in SUMMARY_COLUMNS} for row in summaries]))


def read_summaries(path):
    return [record_from_row(CellSummary, row) for row in read_tsv(path)]


# ---- a whole run -----------------------------------------------------------------------------------
@dataclass
class RunFiles:
    """Where a run's files live."""
    directory: Path

    @property
    def manifest(self):
        return self.directory / "manifest.json"

    @property
    def saturation(self):
        return self.directory / "saturation.tsv"

    @property
    def canary(self):
        """The run's speed canary readings per CPU (harness/results/speed.py), a JSON object."""
        return self.directory / "canary.json"

    @property
    def prices(self):
        """The host's price list at the start of every round (harness/results/prices.py), a TSV."""
        return self.directory / "prices.tsv"

    @property
    def jvm_warmups(self):
        """The JVM warm-ups of the run (harness/run/jvm_warmup.py), a JSON list of records."""
        return self.directory / "jvm-warmups.json"

    @property
    def profile(self):
        """The run's CPU profiles (harness/run/profile.py): profile.json, profile.tsv, a folder per cell."""
        return self.directory / "profile"

    @property
    def soap_phases(self):
        """The SOAP engines' phases against N (harness/run/soap_phases.py), one row per (app, workload, N)."""
        return self.directory / "soap-phases.tsv"

    @property
    def turns(self):
        """The cells' steps by turns (harness/run/turns.py), a row per step (harness/results/spread.py)."""
        return self.directory / "turns.tsv"

    @property
    def turn_files(self):
        """Where the turns' steps keep their cells' folders, apart from the rounds'."""
        return RunFiles(self.directory / "turns")

    def profile_cell(self, key):
        return self.profile / key.name

    def cell(self, key, round_=1, replica=1):
        """A measurement's folder: round 1's is the cell's own (as in runs from before rounds), a later
        round's or a repeat's is a folder inside it."""
        folder = self.directory / "cells" / key.name
        if (round_, replica) == (1, 1):
            return folder
        return folder / (f"round-{round_}" + (f"-measurement-{replica}" if replica > 1 else ""))

    def cell_steps(self, key, round_=1, replica=1):
        return self.cell(key, round_, replica) / "steps.tsv"

    def cell_state(self, key, round_=1, replica=1):
        return self.cell(key, round_, replica) / "cell.json"


@dataclass
class Run:
    directory: Path
    manifest: Manifest
    saturation: list   # CellSummary per finished measurement (cell, round, repeat), in sweep order
    steps: dict        # Visit -> [Step]
    canary: dict = field(default_factory=dict)  # the speed canary's readings per CPU (canary.json)
    profiles: dict = field(default_factory=dict)  # "app/engine/workload" -> its CPU profile (profile/profile.json)
    soap_phases: list = field(default_factory=list)  # soap-phases.tsv's rows, as strings
    prices: list = field(default_factory=list)  # prices.tsv's rows, as strings (results/prices.py)
    turns: list = field(default_factory=list)  # turns.tsv's rows, as strings (results/spread.py)
    states: dict = field(default_factory=dict)  # Visit -> its CellState (cell.json)
    jvm_warmups: list = field(default_factory=list)  # jvm-warmups.json's records (run/jvm_warmup.py)


def run_record(directory):
    """(the kind of run in `directory` (harness/results/kinds.py), its record's data): its manifest's,
    else soap-phases.json's; (None, None) for a folder that holds no run."""
    directory = Path(directory)
    present = {path.name for path in directory.iterdir()} if directory.is_dir() else set()
    name = next((name for name in ("manifest.json", "soap-phases.json") if name in present), None)
    record = json.loads((directory / name).read_text()) if name else None
    try:
        return kinds.kind_of(record, present), record
    except ValueError as error:
        raise ResultsError(f"{directory}: {error}") from None


def run_kind(directory):
    return run_record(directory)[0]


def run_directory(results_dir, run_id, kept=REFERENCE_RUNS):
    """Where run `run_id` is: under the results folder, else among the runs the repository keeps."""
    here = Path(results_dir) / run_id
    return Path(kept) / run_id if not here.exists() and (Path(kept) / run_id).exists() else here


def load_run(directory):
    files = RunFiles(Path(directory))
    kind = run_kind(files.directory)
    if kind != kinds.SWEEP:
        raise ResultsError(f"{directory} holds a {kinds.TITLES[kind]}, not a sweep" if kind
                           else f"{directory} holds no run: no manifest.json")
    saturation = read_summaries(files.saturation)
    if not saturation:
        raise ResultsError(f"{directory} has no saturation.tsv rows yet: no cell has finished")
    steps = {row.visit: read_steps(files.cell_steps(row.key, row.round, row.replica)) for row in saturation}
    canary = json.loads(files.canary.read_text()) if files.canary.exists() else {}
    profiles = files.profile / "profile.json"
    states = {row.visit: state for row in saturation
              if (state := read_cell_state(files.cell_state(row.key, row.round, row.replica)))}
    return Run(files.directory, Manifest.read(files.manifest), saturation, steps, canary,
               json.loads(profiles.read_text())["cells"] if profiles.exists() else {}, read_tsv(files.soap_phases),
               read_tsv(files.prices), read_tsv(files.turns), states,
               json.loads(files.jvm_warmups.read_text()) if files.jvm_warmups.exists() else [])


def earlier_cell_walls(results_dir, this_run):
    """{(app, workload, first round?): [seconds, ...]}: how long each cell's visits took in the
    runs under results_dir but this one (those that recorded it), for the ETA before a run starts."""
    walls = {}
    for run in Path(results_dir).glob("*/"):
        if run.name == this_run:
            continue
        for path in run.glob("cells/**/cell.json"):
            state = read_cell_state(path)
            if state and state.wall_s:
                walls.setdefault((state.app, state.workload, state.round == 1), []).append(state.wall_s)
    return walls


def latest_run(results_dir):
    runs = [path.parent for path in Path(results_dir).glob("*/manifest.json")]
    if not runs:
        raise ResultsError(f"no sweep results under {results_dir}; run `make saturation-sweep` first")
    return max(runs, key=lambda run: (Manifest.read(run / "manifest.json").started, run.name))


__all__ = ["CellKey", "ResultsError", "Run", "RunFiles", "latest_run", "load_run", "read_cell_state",
           "read_steps", "read_summaries", "read_tsv", "run_kind", "run_record", "write_atomically", "write_cell_state",
           "write_steps", "write_summaries"]
