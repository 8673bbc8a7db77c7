"""The saturation row a cell's judged steps imply (records.CellSummary): which rate's latest try
counts, which passing step is the figure, and what the steps above it say of the cell's status.
Pure."""
from harness.results.records import (CLIENT_BOUND, CLIENT_LIMITED, DISTURBED, FAIL, LOCATED, NO_PASS, PASS,
                                     PLAN_LIMIT, RSS_SUFFIX, WORK_MISSING, CellSummary)


def latest_verdicts(history):
    """{rate: the verdict of its latest try} from (rate, verdict) pairs in order: a repeat that
    disagrees overrides the first try."""
    latest = {}
    for rate, verdict in history:
        latest[rate] = verdict
    return latest


def passing(steps):
    """(the passing steps, {rate: its latest judged verdict}): a rate counts by its latest try, so a
    pass whose repeat failed is not among them."""
    latest = latest_verdicts((step.offered_rate, step.verdict) for step in steps if step.verdict != DISTURBED)
    return [step for step in steps if step.verdict == PASS and latest[step.offered_rate] == PASS], latest


def saturation_step(steps):
    """The step a cell's figure comes from (the passing step with the highest reply rate); None
    when none passed."""
    return max(passing(steps)[0], key=lambda step: step.reply_rate, default=None)


def summarize(key, steps, restarts, round_=1, unmeasured=None, replica=1):
    """The saturation.tsv row a cell's judged steps imply. `unmeasured` is (status, note) for a cell
    whose target never answered or answered wrongly."""
    short = [step for step in steps if step.work_missing]
    row = CellSummary(key.app, key.engine, key.workload, NO_PASS, steps=len(steps), restarts=restarts,
                      round=round_, replica=replica,
                      disturbed_steps=sum(1 for step in steps if step.verdict == DISTURBED), work_missing_steps=len(short))
    if unmeasured:
        row.status, row.note = unmeasured
        return row
    passed, latest = passing(steps)
    if not passed:
        row.note = "no step passed; the server could not sustain even the lowest rate"
        return row
    best = saturation_step(steps)
    for name, value in best.database_work().items():
        setattr(row, f"db_{name}_per_reply_saturation", value)
    if short:
        # As a disturbed cell's: its steps measured something other than the app's work, so no figure.
        row.status = WORK_MISSING
        row.note = (f"{len(short)} of {len(steps)} steps did less database work than declared, "
                    f"the first: {short[0].work_missing}; the would-be figure, {best.reply_rate:.1f} req/s, "
                    "is not the app's")
        return row
    lowest = min(passed, key=lambda step: step.offered_rate)
    top = best.offered_rate
    overload = min((rate for rate, verdict in latest.items() if verdict == FAIL and rate > top), default=None)
    ceiling = min((rate for rate, verdict in latest.items() if verdict == CLIENT_LIMITED and rate > top), default=None)
    row.saturation_rps, row.saturation_offered = round(best.reply_rate, 2), top
    row.reply_ms_low, row.reply_ms_saturation = lowest.reply_time_ms, best.reply_time_ms
    row.response_ms_low, row.transfer_ms_low = lowest.response_ms, lowest.transfer_ms
    row.response_ms_saturation, row.transfer_ms_saturation = best.response_ms, best.transfer_ms
    row.p50_ms_saturation, row.p99_ms_saturation = best.figures.get("p50_ms"), best.figures.get("p99_ms")
    row.server_cpu_s_saturation = round(best.server_total("_cpu_s"), 2)
    row.server_rss_mb_saturation = round(best.server_total(RSS_SUFFIX), 1)
    row.machine_speed_saturation = best.figures.get("machine_speed")
    if best.figures.get("replies"):
        row.server_cpu_ms_per_reply_saturation = round(1000 * best.server_total("_cpu_s") / best.figures["replies"], 3)
    for name, value in best.costs_per_reply().items():
        setattr(row, f"{name}_saturation", value)
    if overload is not None and (ceiling is None or overload < ceiling):
        row.status, row.overload_offered = LOCATED, overload
    elif ceiling is not None:
        row.status = CLIENT_BOUND
        row.note = f">= {row.saturation_rps} req/s, client-bound at {ceiling:g} req/s offered"
    else:
        row.status, row.note = PLAN_LIMIT, (f">= {row.saturation_rps} req/s; no rate above it failed on its latest "
                                            "try before the plan stopped (its step budget, max_confirm_steps or "
                                            "the linear plan's maximum)")
    return row
