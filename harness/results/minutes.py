"""Where a sweep's minutes went, from its records: the manifest's start and end, each cell visit's
wall (cell.json: its warm-up, its steps, and between them the gate's checks, the probe and the check
of its answer), the JVMs' warm-ups (jvm-warmups.json) and the turns' times (turns.tsv), as a
store.Run holds them. A default run is to finish within its hour (ROUNDS=auto's cap), and this says
which part took the time. Pure."""
from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class Minutes:
    sweep: float
    visits: float       # the cells' visits, each from its warm-up to its last step
    warmups: float      # of them, the cells' own warm-ups
    steps: float        # of them, the plan's steps (baselines included)
    jvm_warmups: float
    turns: float = 0.0  # the first turn's start to the last one's
    first_turn: float = None  # minutes from the sweep's start to its first turn

    @property
    def between_steps(self):
        """The visits' minutes outside warm-ups and steps: gate checks, probes, checks of the answer."""
        return self.visits - self.warmups - self.steps

    @property
    def rest(self):
        """The sweep's minutes outside visits, JVM warm-ups and turns: restarts, price lists, reports."""
        return self.sweep - self.visits - self.jvm_warmups - self.turns


def moment(text):
    return datetime.fromisoformat(text).timestamp()


def spent(run):
    """Minutes of a finished sweep (a store.Run; None without its start and end)."""
    started, finished = run.manifest.started, run.manifest.finished
    if not (started and finished):
        return None
    states = run.states.values()
    seconds = [sum(values) / 60 for values in (
        (state.wall_s or 0 for state in states),
        ((state.warmup or {}).get("seconds") or 0 for state in states),
        (step.wall_s or 0 for steps in run.steps.values() for step in steps),
        (record.get("seconds") or 0 for record in run.jvm_warmups))]
    times = sorted(moment(row["at"]) for row in run.turns if row.get("at"))
    start = moment(started)
    return Minutes((moment(finished) - start) / 60, *seconds,
                   turns=(times[-1] - times[0]) / 60 if times else 0.0,
                   first_turn=(times[0] - start) / 60 if times else None)
