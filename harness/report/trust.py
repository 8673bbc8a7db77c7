"""How far a run's figures can be trusted, in words for the report: its rounds and their spread
(raw and divided by the machine's speed), the A/A control, what ROUNDS=auto added, the cells left
out, the disturbance and the speed canary with its calibration. Pure: a run's records in, text out."""
import statistics

from harness.report.series import ratio_interval_text
from harness.results.calibration import calibration
from harness.results.minutes import spent
from harness.results.records import TOO_DISTURBED, WORK_MISSING
from harness.results.rounds import control_noise, round_spread
from harness.results.speed import references as canary_references


def rounds_sentence(view):
    options = view.manifest.options
    noise = control_noise(view.run)
    text = (f"{view.rounds} round(s), seed {options.get('seed', '-')}: every round visits every cell in a fresh "
            "random order, the apps of one engine and workload next to each other, the servers restarted "
            "between rounds.")
    if view.rounds < 2:
        text += " With one round no figure has an interval and no difference between apps can be called real."
    text += added_rounds_text(view.manifest.data.get("added_rounds"))
    if noise:
        key, ratio = noise
        text += (f" A/A control: {key} measured twice a round; second / first = {ratio_interval_text(ratio)}, "
                 "the noise floor of this run.")
    stopped = [row for row in view.run.saturation if row.status == TOO_DISTURBED]
    if stopped:
        text += (" Left out of every figure, interval, ratio and the A/A control, because disturbed steps stopped "
                 "them on their visit and on their retry later in the round: "
                 + ", ".join(f"{row.key} round {row.round}" + (" (its repeat)" if row.replica > 1 else "")
                             for row in stopped) + ".")
    text += work_missing_text(view.run.saturation)
    minutes = minutes_text(view)
    if minutes:
        text += f" The sweep's minutes: {minutes}."
    spread = round_spread(view.cells)
    if spread:
        text += (f" The rounds' spread: the geometric 95 % interval's half-width is "
                 f"±{spread.median_half_width:.0%} at the median cell of {spread.cells} and "
                 f"±{spread.widest_half_width:.0%} at the widest ({spread.widest}); at the median cell's "
                 f"spread, ±{spread.target:.0%} would take {spread.rounds_for_target} rounds.")
        adjusted = round_spread(view.cells, adjusted=True)
        if adjusted:
            text += (f" Divided by the machine's speed at saturation (the speed canary's), the rounds' figures would "
                     f"spread ±{adjusted.median_half_width:.0%} at the median cell and ±{adjusted.widest_half_width:.0%} "
                     f"at the widest ({adjusted.widest}). The intervals use the figures as measured: a figure is "
                     "never rescaled, and how far the canary's speed predicts the servers' is in docs/method.md.")
    return text


def work_missing_text(saturation):
    """The cells whose replies skipped the database work their workload declares, in a sentence; ""
    when none did."""
    short = [row for row in saturation if row.status == WORK_MISSING]
    if not short:
        return ""
    return (" Left out of every figure, interval and ratio, because MariaDB's own count shows their replies "
            "doing less than their workload declares (\"database work missing\"): "
            + ", ".join(f"{row.key} round {row.round} ({row.work_missing_steps} of {row.steps} steps)" for row in short) + ".")


def calibration_lines(view):
    """How far the speed canary predicted what a reply cost the servers in this run (results/calibration.py)."""
    found = calibration(view.run.saturation)
    if found.r is None:
        return []
    return [f"Speed canary against the servers' cost: over {found.cells} cells' rounds ({len(found.points)} points), "
            f"the machine's slowness at saturation and the servers' CPU ms per reply (each over its cell's median) "
            f"correlate with r = {found.r:.2f}.", ""]


def added_rounds_text(added):
    """ROUNDS=auto in words: the method, the cells that took added rounds and why, the cap."""
    if not added:
        return ""
    more = {cell: each for cell, each in added["cells"].items() if each["rounds"] > added["first_rounds"]}
    text = (f" ROUNDS=auto: after {added['first_rounds']} rounds, Stein's two-stage procedure gave each cell the rounds "
            f"its first rounds' spread needs for a geometric interval within ±{added['target']:.0%}, and its "
            f"intervals (and its pairs') take their spread from those first rounds alone, so that looking at them "
            f"does not spoil the confidence")
    text += (": " + "; ".join(f"{cell} {each['rounds']} rounds (first rounds "
                              f"{', '.join(f'{value:g}' for value in each['first_figures'])})" for cell, each in more.items())
             if more else ": no cell needed more")
    if added.get("stopped_at_cap_after_round"):
        text += f"; the time cap stopped the added rounds after round {added['stopped_at_cap_after_round']}"
    return text + "."


def minutes_text(view):
    """Where a finished sweep's minutes went (results/minutes.py), in words; "" when unfinished."""
    options, found = view.manifest.options, spent(view.run)
    if not found:
        return ""
    cap = f" (ROUNDS=auto's cap: {options['auto_cap_min']:g})" if options.get("auto_rounds") else ""
    parts = [f"the cells' visits {found.visits:.1f} (warm-ups {found.warmups:.1f}, steps {found.steps:.1f}, "
             f"gate checks and probes {found.between_steps:.1f})",
             found.jvm_warmups and f"the JVMs' warm-ups {found.jvm_warmups:.1f}",
             found.first_turn is not None and f"the turns {found.turns:.1f} from minute {found.first_turn:.1f}",
             f"the rest {found.rest:.1f} (restarts, price lists)"]
    return f"{found.sweep:.1f} of sweep{cap}: " + ", ".join(filter(None, parts))


def minutes_line(view):
    return f"minutes: {minutes_text(view) or 'the sweep is unfinished'}"


def rounds_line(view):
    options = view.manifest.options
    noise = control_noise(view.run)
    planned = options.get("rounds", 1)
    return (f"rounds: {view.rounds} of {planned} done, seed {options.get('seed', '-')}, interleaved, servers restarted "
            f"between rounds" + (f"; A/A control {noise[0]}: second / first {ratio_interval_text(noise[1])}" if noise else ""))


def disturbance_line(view):
    """How often other work shared the CPUs: steps redone, and what the run's quiet check saw."""
    options = view.manifest.options
    if "max_other_pct" not in options:
        return "disturbance: not checked (a run from before the check existed)"
    disturbed = sum(row.disturbed_steps for row in view.run.saturation)
    quiet = view.manifest.data.get("quiet_check") or {}
    return (f"disturbance: {disturbed} step(s) redone because other work shared the CPUs (other > "
            f"{options['max_other_pct']:g} % of a CPU or steal > {options['max_steal_pct']:g} %); "
            f"before the run: {quiet.get('disturbed') or 'quiet'}")


def database_work_line(view):
    """Whether every step's replies did the database work their workload declares, by MariaDB's count."""
    counted = [row for row in view.run.saturation if row.db_selects_per_reply_saturation is not None]
    if not counted:
        return "database work: not counted (no cell read the database, or a run from before the count)"
    short = [row for row in view.run.saturation if row.work_missing_steps]
    if not short:
        return (f"database work: every step's replies ran the SELECTs and read the rows their workload declares "
                f"(MariaDB's own count, {len(counted)} cell visits)")
    return (f"database work: MISSING in {len(short)} cell visit(s), no figure: "
            + ", ".join(f"{row.key} round {row.round}" for row in short))


def speed_line(view):
    """The speed canary: each lab CPU's reference time, the spread of the steps' speeds, how many
    steps it found slower (redone), and the cells measured on a slower machine."""
    min_speed = view.manifest.options.get("min_speed")
    if min_speed is None:
        return "speed canary: not run (a run from before it existed)"
    references = canary_references(view.run.canary)
    speeds = sorted(step.figures["machine_speed"] for steps in view.run.steps.values() for step in steps
                    if "machine_speed" in step.figures)
    slower_cells = [str(row.visit) for row in view.run.saturation if "slower machine" in row.note]
    text = ("speed canary: reference " + (", ".join(f"{key} {ms:g} ms" for key, ms in sorted(references.items()))
                                          or "none"))
    if speeds:
        text += f"; steps' speed {speeds[0]:.2f} to {speeds[-1]:.2f} of it, median {statistics.median(speeds):.2f}"
        text += (f"; {sum(each < min_speed for each in speeds)} step(s) under {min_speed:g} redone" if min_speed
                 else " (recorded, not judged: min_speed 0)")
    if slower_cells:
        text += f"; measured on a slower machine: {', '.join(slower_cells)}"
    return text
