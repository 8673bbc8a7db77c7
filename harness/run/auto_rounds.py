"""ROUNDS=auto in a running sweep: once the first stage is done, the rounds Stein's procedure adds
(harness/run/schedule.py), and the time cap, which starts no added round that would end past it."""
import time

from harness.run.schedule import auto_extension, round_minutes, starts_an_added_round

# How narrow each cell's geometric interval is to be (its ends within 10 % of the estimate).
AUTO_TARGET = 0.10


class AutoRounds:
    def __init__(self, plan, selection, say, clock=time.monotonic):
        self.plan, self.selection, self.say, self.clock = plan, selection, say, clock
        self.added = None  # the manifest's added_rounds, once the first stage is done
        self.started = clock()
        self.cell_walls = {}  # CellKey -> seconds of each of its measurements

    def start(self):
        self.started = self.clock()

    def measured(self, key, seconds):
        self.cell_walls.setdefault(key, []).append(seconds)

    def extension(self, summaries):
        """The added rounds' visits, once the first stage is done ({Visit: CellSummary} so far); none
        without ROUNDS=auto or once added."""
        plan, selection = self.plan, self.selection
        if not plan.auto_rounds or self.added is not None:
            return []
        self.added, visits = auto_extension(summaries, selection.cells, plan.rounds, AUTO_TARGET,
                                            plan.auto_max_rounds, plan.seed, selection.control)
        more = {cell: each["rounds"] for cell, each in self.added["cells"].items() if each["rounds"] > plan.rounds}
        self.say(f"ROUNDS=auto: after {plan.rounds} rounds, " + (
            "; ".join(f"{cell} {rounds} rounds in all" for cell, rounds in more.items()) + f" (for +-{AUTO_TARGET:.0%}, "
            f"at most {plan.auto_max_rounds}, while a round fits in {plan.auto_cap_min:g} min of sweep)" if more
            else f"every cell's interval is within +-{AUTO_TARGET:.0%}: no round added"))
        return visits

    def stops_before(self, visit, before, cells, warmup_s):
        """Whether the cap stops the run before `visit` (`before`: the visits before it): at an added
        round's start, when the sweep so far and the round (its `cells` at the walls they took before,
        and a JVM warm-up of `warmup_s`) would pass auto_cap_min, in this invocation."""
        plan = self.plan
        if not (plan.auto_rounds and starts_an_added_round(visit, before, plan.rounds)):
            return False
        minutes, expected = (self.clock() - self.started) / 60, round_minutes(cells, self.cell_walls, warmup_s)
        if minutes + expected <= plan.auto_cap_min:
            return False
        self.added["stopped_at_cap_after_round"] = visit.round - 1
        self.say(f"ROUNDS=auto: {minutes:.0f} min of sweep and round {visit.round}'s expected {expected:.0f} min would "
                 f"pass the cap of {plan.auto_cap_min:g} min; round {visit.round} and after not run")
        return True
