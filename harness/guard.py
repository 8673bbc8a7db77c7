"""Guarding the measurement: before each step the target must answer; after a step that did not
pass it must answer again (the health request queues behind whatever the overload left, so its
answer means the server has drained), or its server - and the servers it needs, when they are the
ones gone - is restarted through the lifecycle `make up` uses, and the restart is recorded."""
import time

from harness import load
from harness.probe import warm_up
from stack import lifecycle


class Guard:
    def __init__(self, options, say):
        self.options = options
        self.say = say

    def ready(self, cell):
        """True when the cell's target answers (recovering it when it does not)."""
        if load.answers(cell.request, timeout_s=10) and lifecycle.SERVERS[cell.server].pid():
            return True
        return self.recover(cell)

    def recover(self, cell):
        """Wait for the target to answer again; restart what is gone or silent. A server whose main
        process has died is restarted at once."""
        chain = lifecycle.with_needs(cell.server)
        dead = [name for name in chain if not lifecycle.SERVERS[name].pid()]
        deadline = time.monotonic() + (0 if dead else self.options.recovery_wait_s)
        while time.monotonic() < deadline:
            if load.answers(cell.request, timeout_s=10):
                return True
            time.sleep(2)
        silent = [name for name in chain[:-1] if not lifecycle.SERVERS[name].answers()] + [cell.server]
        restarting = [name for name in chain if name in (dead or silent)]
        for name in restarting:
            self.say(f"{cell.key}: {name} " + ("died" if name in dead else
                     f"did not answer within {self.options.recovery_wait_s:g} s") + "; restarting it")
            try:
                message = lifecycle.restart(name, self.options.server_cpus)
            except lifecycle.LabError as error:
                message = f"restart failed: {error}"
            cell.state.restarts += 1
            cell.event(f"restarted {name}: {message}")
        if not load.answers(cell.request, timeout_s=10):
            return False
        if cell.server in restarting:
            # A restarted server (a JVM runs interpreted) is warmed again, or the next steps measure the JIT.
            warmup = warm_up(cell, self.options)
            if warmup:
                cell.event(f"warm-up after the restart: {warmup['windows']} replies/s in {warmup['window_s']:g} s "
                           f"windows, {'steady' if warmup['steady'] else 'NOT steady'}")
        return True
