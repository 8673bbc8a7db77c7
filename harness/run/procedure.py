"""How one cell is measured: the target must answer, and answer right; then warm-up and probe, one
baseline step at low load, and the plan's steps until the plan is done."""
from harness.hosts import servers
from harness.judge.disturbance import redone_while_disturbed
from harness.results.records import BASELINE, DISTURBED, PASS, UNREACHABLE, WRONG_ANSWER
from harness.run import verify
from harness.run.context import plan_factors, profile_for
from harness.run.planner import AdaptivePlan, LinearPlan, ListedPlan, expected_capacity, round_rate, walk
from harness.run.probe import probe
from harness.run.step import take_step
from stack import registry


def expected_figure(estimate, earlier):
    """What the cell should reach: what its earlier rounds found, scaled by this round's warm-up
    `estimate` (the probe's replies per second, or None); in round 1 the estimate itself."""
    return expected_capacity(earlier, estimate, plan_factors()["round_probe_scale_max"]) if earlier else estimate


def plan_for(plan, workload, estimate, earlier=(), reference=None):
    """The cell's plan: the rates given (RATES=); else linear, bracketing the `reference` run's figure
    for the cell when the plan asks for it (linear_rates), else the study's ramp from the profile's
    first rate; or adaptive, near what the earlier rounds found when there are any (`earlier`: their
    (figure, probe) pairs), else near the probe's `estimate`, else blind from the profile's start. With several rounds no
    step is repeated: the rounds are the repeats, and a figure is their median, so no single step
    decides it."""
    profile = profile_for(workload)
    if plan.rates:
        return ListedPlan(plan.rates, plan.linear_stop_after)
    if plan.mode == "linear" and plan.linear_rates and reference:
        return LinearPlan.bracketing(reference, plan.linear_rates, plan.linear_low, plan.linear_high,
                                     plan.linear_stop_after)
    if plan.mode == "linear":
        return LinearPlan(profile.linear_step, profile.linear_step, profile.linear_max, plan.linear_stop_after)
    confirm_steps = plan.max_confirm_steps if plan.rounds == 1 else plan_factors()["round_confirm_steps"]
    if earlier:
        return AdaptivePlan(start=max(0.5, plan_factors()["round_start_share"] * expected_figure(estimate, earlier)),
                            factor=plan_factors()["round_factor"], precision=plan.precision,
                            max_steps=plan.max_steps, max_confirm_steps=confirm_steps)
    if estimate:
        return AdaptivePlan(start=max(0.5, plan_factors()["probed_start_share"] * estimate), factor=plan_factors()["probed_factor"],
                            precision=plan.precision, max_steps=plan.max_steps,
                            max_confirm_steps=confirm_steps)
    return AdaptivePlan(start=profile.start, factor=plan_factors()["blind_factor"], precision=plan.precision,
                        max_steps=plan.max_steps, max_confirm_steps=confirm_steps)


def measure_cell(cell, context, guard, progress, earlier=()):
    """Run a cell's remaining steps; `progress(cell, step)` is told of each one. `earlier`: the
    (figure, probe) pairs of the cell's rounds before this one (none in round 1)."""
    if cell.state.done:
        return
    if not guard.ready(cell):
        cell.not_measured(UNREACHABLE, "the target never answered; cell skipped")
        return
    if cell.state.verification is None:
        correct, verdict = verify.verify_cell(cell.key, cell.request, servers.server(registry.database_server()))
        if not correct:
            cell.not_measured(WRONG_ANSWER, f"the answer differs from the database: {verdict}; not measured")
            return
        cell.update(verification=verdict)
    estimate = probe(cell, context)
    plan = plan_for(context.plan, cell.key.workload, estimate, earlier,
                    reference=context.plan.reference_figures.get(str(cell.key)))

    def attempt(rate, role, duration_s):
        taken = take_step(cell, rate, context, guard.speed, role, duration_s)
        progress(cell, taken)
        if taken.verdict != PASS:
            # Before a disturbed step's redo too: it may have overloaded the server, and a redo at
            # once measured the aftermath (a test over ssh: 867 of 1,284 req/s disturbed, then
            # its redo got 82 requests through, where a settled server passed 1,105).
            guard.settle(cell)
            guard.wait_for_speed(cell, taken)
        return taken

    def step(rate, role="", duration_s=None):
        """One judged step at this rate: a disturbed one is redone, at most max_redos times."""
        return redone_while_disturbed(lambda: attempt(rate, role, duration_s),
                                      lambda taken: taken.verdict == DISTURBED, context.disturbance.max_redos)[0]

    expected = expected_figure(estimate, earlier)
    if expected and not cell.has_baseline:
        step(round_rate(max(0.5, context.plan.baseline_share * expected)), BASELINE, context.plan.duration_s / 2)
    stopped = []  # the rate of a step disturbed in every try: the cell is not done

    def take(rate):
        """The verdict of the plan's step at `rate`; None when the cell stops here."""
        if not guard.ready(cell):
            cell.event(f"target down before the step at {rate:g}; cell stopped")
            return None
        taken = step(rate)
        if taken.verdict == DISTURBED:
            # Not a figure, not even a lower bound: the runner retries the cell later in its round.
            cell.stopped_by_disturbance(f"the step at {rate:g} was disturbed in all its "
                                        f"{context.disturbance.max_redos + 1} tries, the last: {taken.reason}; "
                                        f"cell stopped")
            stopped.append(rate)
            return None
        return taken.verdict

    walk(plan, take, cell.history)
    if not stopped:
        cell.finish()
