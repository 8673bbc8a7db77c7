"""What a workload declares to run beside the stepper (contract/targets.json's `before_run`,
`between_steps` and `around_steps`): named database actions, once before a run or before each of its
steps, and readings taken before and after each step, whose two values give the step's figures. The
names are this module's, and each makes one of the database server's named calls
(harness/hosts/servers.py), so that a declaration can ask for nothing else. Which hooks a workload
declares is pure (`hooks`); running them is the edge's (`before_run`, `around_step`)."""
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass

from harness.judge import database_work
from harness.judge.database_work import VERSIONS_RAISED
from stack import targets, workload_names
from stack.server import LabError


def settled_versions(database):
    """SUM(ver) over both tables once the writes have settled (database_work.settled); None when the
    database cannot be read."""
    def readings():
        deadline = time.monotonic() + database_work.VERSIONS_SETTLE_S
        while True:
            try:
                yield database.versions()
            except (LabError, OSError, ValueError):
                yield None
            if time.monotonic() > deadline:
                return
            time.sleep(database_work.VERSIONS_INTERVAL_S)
    return database_work.settled(readings())


def versions_raised(before, after):
    """{VERSIONS_RAISED: the step's rise} when both readings were taken, else {}."""
    return {VERSIONS_RAISED: after - before} if before is not None and after is not None else {}


@dataclass(frozen=True)
class Reading:
    """A reading around each step: `read(database)` before it and after it, `figures(before, after)`
    what the two give the step."""
    read: Callable
    figures: Callable


# What a workload may run once before a run, or before each of its steps.
ACTIONS = {
    # Every row's version back to the import's, for a workload whose steps must each start from the
    # same tables. None of the contract's declares it: an update's version only grows.
    "reset_versions": lambda database: database.reset_versions(),
}
# What a workload may read around each of its steps.
READINGS = {
    # SUM(ver), outside the watched window so that its scans count in no figure, once the writes have
    # settled so that no backlog of an earlier step (or cell) counts in this one's rise and this
    # one's all does; judged against the updates the step owes (database_work.write_problem).
    "versions": Reading(settled_versions, versions_raised),
}
PHASES = {"before_run": ACTIONS, "between_steps": ACTIONS, "around_steps": READINGS}


def declared_names(workload, phase):
    """The names a workload's declaration (its base's: mixed-10's is mixed's) lists for a phase."""
    base, _ = workload_names.parse_workload(workload)
    return targets.registry()["workloads"].get(base, {}).get(phase, [])


def problems(workloads):
    """What is wrong with the hooks the declared `workloads` ({name: declaration}) name: a hook its
    phase does not know, said with the ones it does; [] when none."""
    return [f"workload {name} declares {phase} {hook!r}, which is none of {', '.join(sorted(PHASES[phase]))}"
            for name, declared in workloads.items() for phase in PHASES
            for hook in declared.get(phase, []) if hook not in PHASES[phase]]


def hooks(workload, phase):
    """The hooks (ACTIONS' callables, or READINGS') a workload declares for a phase, in its order;
    ValueError naming an unknown one."""
    names = declared_names(workload, phase)
    wrong = problems({workload: {phase: names}})
    if wrong:
        raise ValueError(wrong[0])
    return [PHASES[phase][name] for name in names]


def before_run(workloads, database):
    """Run each action that the run's `workloads` declare before a run, once however many declare it:
    their names, in the order run."""
    actions = {}
    for workload in workloads:
        actions.update(zip(declared_names(workload, "before_run"), hooks(workload, "before_run")))
    for action in actions.values():
        action(database)
    return list(actions)


@contextmanager
def around_step(workload, database):
    """Held over a step of the workload (`database`: the database server as the sweep drives it, or
    None for an app that reads none, which runs no hook): its between-steps actions, then its
    readings before the step; it yields the figures that the readings after the step fill."""
    if database is None:
        yield {}
        return
    for action in hooks(workload, "between_steps"):
        action(database)
    readings = hooks(workload, "around_steps")
    before = [reading.read(database) for reading in readings]
    figures = {}
    yield figures
    for reading, value in zip(readings, before):
        figures.update(reading.figures(value, reading.read(database)))
