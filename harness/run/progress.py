"""Progress lines with an ETA: pure text from what the run has measured so far."""
from harness.results.records import LOCATED


def estimate_eta(cells_left, cell_walls, steps_in_cell, step_walls, typical_steps=8):
    """Seconds left: the current cell's typical remaining steps plus the cells after it, each as
    long as the cells measured so far took (or typical_steps steps before any cell finished)."""
    if not step_walls:
        return 0.0
    step = sum(step_walls) / len(step_walls)
    cell = sum(cell_walls) / len(cell_walls) if cell_walls else typical_steps * step
    return max(0, typical_steps - steps_in_cell) * step + cells_left * cell


def within_cap(current_s, further_s, sweep_s, cap_s):
    """Seconds left when a cap bounds the sweep (ROUNDS=auto starts no round that would end past it):
    the round under way in full, the rounds after it only up to the cap; never below zero."""
    current_s = max(0.0, current_s)
    return current_s + max(0.0, min(further_s, cap_s - sweep_s - current_s))


def sweep_eta(rounds_ahead, current_round, cell_walls, steps_in_cell, step_walls, jvm_warmup_s, cap=None):
    """Seconds left in a sweep: the cells after this one (`rounds_ahead`: each one's round), this
    round's in full, the rounds after it with their JVMs' warm-ups; `cap` (sweep seconds so far, the
    cap's seconds) bounds those under ROUNDS=auto (within_cap)."""
    this_round = estimate_eta(rounds_ahead.count(current_round), cell_walls, steps_in_cell, step_walls)
    after = (estimate_eta(len(rounds_ahead), cell_walls, steps_in_cell, step_walls) - this_round
             + len(set(rounds_ahead) - {current_round}) * jvm_warmup_s)
    return within_cap(this_round, after, *cap) if cap else this_round + after


def planned_eta(visits, walls, fallback_s):
    """(seconds, how many visits an earlier wall predicted) before a run starts: each visit (app,
    workload, first round?) as long as the median of that cell's walls of its kind in earlier runs (a
    first round searches from scratch, a later one starts near its figure); a cell no run measured, as
    the median of every known wall of its kind, else fallback_s(first round?)."""
    def median(values):
        ordered = sorted(values)
        return ordered[len(ordered) // 2]
    total, known = 0.0, 0
    for app, workload, first in visits:
        own = walls.get((app, workload, first))
        kind = [wall for (_, _, seen_first), values in walls.items() if seen_first == first for wall in values]
        total += median(own) if own else median(kind) if kind else fallback_s(first)
        known += bool(own)
    return total, known


def format_duration(seconds):
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}m{seconds:02d}s"


def figure(value, digits=1):
    return "n/a" if value is None else f"{value:.{digits}f}"


def step_line(label, step, eta_s):
    return (f"[{label}] step {step.step}: offered {step.offered_rate:g} req/s -> "
            f"reply {figure(step.reply_rate)}/s, reply time {figure(step.reply_time_ms)} ms: "
            f"{step.verdict.upper()}" + (f" ({step.work_missing})" if step.work_missing else "")
            + f" | ETA ~{format_duration(eta_s)}")


def describe(summary):
    """One line for a finished cell."""
    if summary.status == LOCATED:
        return (f"saturation {summary.saturation_rps} req/s (overload at {summary.overload_offered:g} "
                f"offered), reply time {summary.reply_ms_low} ms low / {summary.reply_ms_saturation} ms "
                f"at saturation")
    return summary.note or summary.status
