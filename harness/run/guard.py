"""Guarding the measurement: before each step the target must answer; after a step that did not
pass it must answer again (the health request queues behind whatever the overload left, so its
answer means the server has drained), or its server - and the servers it needs, when they are the
ones gone - is restarted through the lifecycle `make up` uses, and the restart is recorded. Then a
server that can shed the workers an overload made it grow does so (Apache's graceful restart), and
the gate: short low-rate checks until the reply time is back near the cell's baseline, so that an
overloaded step cannot degrade the steps after it."""
import time

from harness.hosts import servers
from harness.hosts.watch import watching
from harness.measure import load
from harness.results.records import BASELINE, PASS
from harness.run import step
from harness.run.probe import warm_up
from stack import lifecycle


# How often the canary is read again while the machine runs slower (wait_for_speed).
SPEED_RECHECK_S = 5


def settled(reply_ms, baseline_ms, factor, floor_ms):
    """Pure: whether a gate check's reply time is back within factor of the baseline's (never a
    bound below floor_ms)."""
    return reply_ms is not None and reply_ms <= max(factor * baseline_ms, floor_ms)


def gate_reference(steps):
    """(rate, reply ms) of the cell's baseline step, else of its lowest passing step; None when it
    has neither (then there is nothing to compare with)."""
    passing = [each for each in steps if each.verdict == PASS and each.reply_time_ms is not None]
    baseline = [each for each in passing if each.role == BASELINE]
    chosen = baseline or sorted(passing, key=lambda each: each.offered_rate)[:1]
    return (chosen[0].offered_rate, chosen[0].reply_time_ms) if chosen else None


class Guard:
    def __init__(self, context, say, speed):
        self.context = context
        self.gate = context.gate
        self.say = say
        self.speed = speed  # the run's canary readings (harness/results/speed.py)

    def ready(self, cell):
        """True when the cell's target answers (recovering it when it does not)."""
        if load.answers(cell.request, timeout_s=10) and servers.server(cell.server).pid():
            return True
        return self.recover(cell)

    def settle(self, cell):
        """After a step that did not pass: gate checks until the reply time is back near the
        baseline's, every gate_pause_s for at most gate_wait_s; else the server is restarted."""
        if not self.ready(cell):
            return False
        recycled = servers.server(cell.server).recycle()
        if recycled:
            cell.event(f"after step {len(cell.steps)}: {recycled}")
        reference = gate_reference(cell.steps)
        if reference is None:
            return True
        rate, baseline_ms = reference
        gate, deadline = self.gate, time.monotonic() + self.gate.gate_wait_s
        while True:
            cell.state.gate_checks += 1
            reply_ms = step.gate_check(cell, rate, self.context, cell.state.gate_checks)
            calm = settled(reply_ms, baseline_ms, gate.gate_factor, gate.gate_floor_ms)
            cell.event(f"gate check {cell.state.gate_checks} after step {len(cell.steps)}: reply time "
                       f"{reply_ms} ms at {rate:g} req/s, baseline {baseline_ms} ms: "
                       + ("settled" if calm else "not yet"))
            if calm:
                return True
            if time.monotonic() + gate.gate_pause_s > deadline:
                break
            time.sleep(gate.gate_pause_s)
        self.restart(cell, [cell.server], dead=[], why=f"did not settle within {gate.gate_wait_s:g} s")
        return load.answers(cell.request, timeout_s=10)

    def wait_for_speed(self, cell, taken):
        """After a step the canary found slower: the canary again every SPEED_RECHECK_S until every
        CPU is back to speed, for at most slow_wait_s. A slowdown that lasts longer marks the cell
        as measured on a slower machine: its steps go on, their speed recorded, not redone for it."""
        limits = self.context.disturbance
        if cell.state.slower_machine or taken.figures.get("machine_speed", 1.0) >= limits.min_speed:
            return
        started = time.monotonic()
        while True:
            with watching(self.context) as watch:
                pass
            step_speeds, slower = step.judged_speed(watch.figures, self.speed, limits.min_speed)
            if not slower or time.monotonic() - started >= limits.slow_wait_s:
                break
            time.sleep(SPEED_RECHECK_S)
        waited = f"{time.monotonic() - started:.0f} s"
        if not slower:
            cell.event(f"after step {len(cell.steps)}: the machine back to speed within {waited}")
            return
        cell.update(slower_machine={"from_step": len(cell.steps) + 1, "speed": min(step_speeds.values()),
                                    "reason": slower})
        cell.event(f"after step {len(cell.steps)}: {slower} still after {waited}; the cell is measured on the slower "
                   f"machine, its speed recorded in each step")
        self.say(f"{cell.key}: {slower} for over {limits.slow_wait_s:g} s; measuring on the slower machine")

    def recover(self, cell):
        """Wait for the target to answer again; restart what is gone or silent. A server whose main
        process has died is restarted at once."""
        chain = lifecycle.with_needs(cell.server)
        dead = [name for name in chain if not servers.server(name).pid()]
        deadline = time.monotonic() + (0 if dead else self.gate.recovery_wait_s)
        while time.monotonic() < deadline:
            if load.answers(cell.request, timeout_s=10):
                return True
            time.sleep(2)
        silent = [name for name in chain[:-1] if not servers.server(name).answers()] + [cell.server]
        restarting = [name for name in chain if name in (dead or silent)]
        self.restart(cell, restarting, dead, f"did not answer within {self.gate.recovery_wait_s:g} s")
        return load.answers(cell.request, timeout_s=10)

    def restart(self, cell, names, dead, why):
        """Restart servers through the lifecycle, in order, recording each; a restarted server is
        warmed up again."""
        for name in names:
            self.say(f"{cell.key}: {name} " + ("died" if name in dead else why) + "; restarting it")
            try:
                message = servers.server(name).restart(self.context.pinning.cpus_of(name))
            except lifecycle.LabError as error:
                message = f"restart failed: {error}"
            cell.state.restarts += 1
            cell.event(f"restarted {name}: {message}")
        if cell.server in names and load.answers(cell.request, timeout_s=10):
            # A restarted server (a JVM runs interpreted) is warmed again, or the next steps measure the JIT.
            warmup = warm_up(cell, self.context)
            if warmup:
                cell.event(f"warm-up after the restart: {warmup['windows']} replies/s in {warmup['window_s']:g} s "
                           f"windows, {'warm' if warmup['steady'] else 'NOT warm'}")
