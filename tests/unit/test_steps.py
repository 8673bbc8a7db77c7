"""The one stepper's pure halves (harness/judge/steps.py) replayed on recorded steps: run cost-b's
PHP cell (QUICK=1, Intel Xeon; three passing steps and an overloaded one in each of its first two
rounds), planned from the run's own options and profile and judged from each step's raw httperf output
and its row's watched figures, gives each row's verdict, reason, requests, timeout and issue rate."""
import json

import pytest

from harness.drivers import driver
from harness.judge.steps import Observed, Rules, judged, planned
from harness.results.figures import STEP_FIGURES
from harness.results.records import BASELINE, DISTURBED, PASS
from harness.results.store import STEP_COLUMNS, read_steps
from harness.run.context import Profile, RunContext
from stack.settings import ROOT

RUN = ROOT / "tests" / "fixtures" / "results" / "cost-b"
CELL = RUN / "cells" / "php-myisam-single"
HTTPERF = driver("httperf")


def recorded_steps():
    return [(folder, step) for folder in (CELL, CELL / "round-2") for step in read_steps(folder / "steps.tsv")]


def replayed(folder, step, context, profile, **seen):
    """The recorded `step` planned and judged again from its raw output and its watched figures."""
    output = (folder / step.raw).read_text()
    figures = HTTPERF.figures(output)
    watched = {name: value for name, value in step.figures.items() if name not in STEP_FIGURES and name not in STEP_COLUMNS}
    # A baseline step is planned for its own length: its requests at its rate.
    duration_s = step.num_conns / step.offered_rate if step.role == BASELINE else None
    plan = planned(step.step, step.offered_rate, context.plan, profile, sessions=True, suffix="txt",
                   duration_s=duration_s, raw=step.raw)
    runs = [(step.offered_rate, step.num_conns, output, False, figures)]
    return plan, judged(plan, Observed(runs, figures, watched, step.wall_s, port_wait_s=step.port_wait_s, **seen),
                        Rules(context.thresholds), step.round, step.role)


@pytest.fixture(scope="module")
def run_context():
    manifest = json.loads((RUN / "manifest.json").read_text())
    return RunContext.recorded(manifest["options"]), Profile(**manifest["profiles"]["single"])


@pytest.mark.parametrize("folder, step", recorded_steps(), ids=lambda value: getattr(value, "raw", ""))
def test_a_recorded_step_replayed_through_the_stepper_gives_its_row(run_context, folder, step):
    context, profile = run_context
    plan, again = replayed(folder, step, context, profile)
    assert (plan.requests, plan.timeout_s) == (step.num_conns, step.timeout_s)
    assert (again.verdict, again.reason, again.issue_rate, again.raw) == (step.verdict, step.reason, step.issue_rate, step.raw)


def test_a_replayed_step_that_other_work_shared_is_disturbed_and_says_what_it_would_have_been(run_context):
    context, profile = run_context
    folder, passing = recorded_steps()[1]
    _, again = replayed(folder, passing, context, profile, shared="other processes used 12% of CPU 1")
    assert again.verdict == DISTURBED and passing.verdict == PASS
    assert again.reason == f"other processes used 12% of CPU 1; not judged (would have been: pass, {passing.reason})"
