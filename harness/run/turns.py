"""A sweep's turns (turn_cycles, sweep.json): once the first stage's rounds have located the cells, for
each workload and engine (or each app and workload, across its engines: turn_pairs) the cells' steps
by turns, nothing restarted, each at turn_share of its own
figure so far, in the cycles of a shuffled Williams design (harness/results/interleave.py plans them,
harness/run/spread.py takes them as `make interleave` does). Their CPU per reply, paired by cycle,
decides each pair at one moment, where the rounds' figures spread with the host's minutes. Into the
run's turns.tsv, a row per step (the steps' folders under turns/); a resumed run keeps the groups
done and takes an interrupted one again from its start."""
import shutil
import statistics
import time

from harness.results import spread as spread_rows
from harness.results.interleave import located_figures, turn_groups
from harness.results.store import read_tsv, tsv_text, write_atomically
from harness.run.progress import format_duration
from harness.run.spread import interleave

# turns.tsv's: a spread step's row and the group it was taken in (TurnGroup.label).
COLUMNS = [*spread_rows.COLUMNS, "group"]

# A step's wall beyond its load when the run has none to go by (the gate's checks, the monitors, a
# disturbed step's redo): 0.7-1.7 s in four default runs (docs/results.md).
STEP_OVERHEAD_S = 1.0


def planned(context, summaries):
    """[TurnGroup] the run's turns take, from its measurements so far ({Visit: CellSummary})."""
    plan, selection = context.plan, context.selection
    if not plan.turn_cycles:
        return []
    return turn_groups(selection.cells, located_figures(summaries.values()), selection.control,
                       plan.turn_cycles, plan.seed, plan.turn_pairs)


def steps_of(group):
    return len(group.orders) * group.members


def expected_s(context):
    """Before a run: how long its turns take if every cell is located, at STEP_OVERHEAD_S a step."""
    plan, selection = context.plan, context.selection
    if not plan.turn_cycles:
        return 0
    every = turn_groups(selection.cells, dict.fromkeys(selection.cells, 1.0), selection.control,
                        plan.turn_cycles, plan.seed, plan.turn_pairs)
    return sum(map(steps_of, every)) * (plan.turn_step_s + STEP_OVERHEAD_S)


def taken_before(group, rows):
    """Whether turns.tsv holds the group's steps: by its label, or in a run from before the label (one
    group per workload and engine) by its first cell."""
    return any(row["group"] == group.label if row.get("group") else row["cell"] == str(group.keys[0])
               for row in rows)


def take_turns(files, context, summaries, speed, say, step_walls=()):
    """The turns of every group not yet in turns.tsv, each written there once whole."""
    rows = read_tsv(files.turns)
    groups = [group for group in planned(context, summaries) if not taken_before(group, rows)]
    if not groups:
        return
    plan = context.plan
    overhead_s = max(0.0, statistics.median(step_walls) - plan.duration_s) if step_walls else STEP_OVERHEAD_S
    step_s = plan.turn_step_s + overhead_s
    left = sum(map(steps_of, groups))
    say(f"turns: {len(groups)} group{'s' * (len(groups) != 1)} of cells by turns, each at {plan.turn_share:g} of its own figure, "
        f"{left} steps, expected ~{format_duration(left * step_s)}")
    cell_files = files.turn_files
    for number, group in enumerate(groups, start=1):
        for key in group.keys:  # an interrupted try's steps do not count
            shutil.rmtree(cell_files.cell(key), ignore_errors=True)
        rates = [round(plan.turn_share * group.figures[key], 1) for key in group.keys]
        say(f"turns {number}/{len(groups)}: {group.workload}, {group.held}: "
            + ", ".join(f"{key.app} at {rate:g} req/s" for key, rate in zip(group.keys, rates))
            + (f", and {group.keys[0].app}'s A/A twin" if group.control else "") + f"; {len(group.orders)} cycles")
        started = time.monotonic()

        def cycle_done(taken, group=group, started=started):
            per_step = (time.monotonic() - started) / len(taken)
            remaining = left - len(taken)
            say(f"turns {number}/{len(groups)}: cycle {len(taken) // group.members}/"
                f"{len(group.orders)} done; turns ETA ~{format_duration(remaining * per_step)}")
        # The rounds left every cell warm and nothing has restarted since: the JVMs' warm-up only checks
        # that their compilers are quiet, and no cell's own warm-up is taken again.
        taken = interleave(list(group.keys), rates, context, cell_files, list(group.orders), group.control, say,
                           cycle_done, speed, step_s=plan.turn_step_s, warm_cells=False)
        left -= len(taken)
        rows += [{**row, "group": group.label} for row in taken]
        write_atomically(files.turns, tsv_text(COLUMNS, rows))
