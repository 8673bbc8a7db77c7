"""The run: round after round, every cell in the round's interleaved order (harness/run/schedule.py), its
summary written after each, progress with an ETA, and the manifest that makes the run traceable.
Between rounds the servers restart, so that every round samples a fresh JVM and process layout. The
first stage's rounds done, the apps by turns (harness/run/turns.py), then any round ROUNDS=auto adds.
Re-running a run id resumes it, with the seed it started with."""
import functools
import json
import time

from harness.hosts import servers
from harness.hosts.prices import price_list
from harness.hosts.watch import quiet_check, speed_watch
from harness.measure import processes
from harness.results.manifest import Manifest, servers_pinning_text
from harness.results import prices
from harness.results.records import TOO_DISTURBED
from harness.results.speed import SpeedHistory
from harness.results.store import (RESULTS, RunFiles, earlier_cell_walls, read_cell_state, read_summaries,
                                   read_tsv, tsv_text, write_atomically, write_summaries)
from harness.run import jvm_warmup, workload_hooks
from harness.run.auto_rounds import AutoRounds
from harness.run.cell import Cell, now
from harness.run.guard import Guard
from harness.run.procedure import measure_cell
from harness.run.run_manifest import write_manifest
from harness.run.progress import describe, format_duration, planned_eta, step_line, sweep_eta
from harness.run.schedule import schedule
from harness.run.turns import expected_s as turns_expected_s, take_turns
from stack import lifecycle, registry, settings


# Knobs a server's start records that do not shape it: the sweep's own CPUs (it pins the servers
# itself), which host of TOPOLOGY=ssh the remote lab was, and where the load comes from (and which httperf).
NOT_THE_SERVERS = ("CLIENT_CPUS", "SERVER_CPUS", "DB_CPUS", "LAB_ON_HOST", "CLIENT_HOSTS", "LARGE_BODY_HTTPERF")
# The short watches that give each lab CPU its first canary readings (two each: before and after).
CALIBRATION_CHECKS = 5
# The ETA before a run with no earlier walls to go by: what a step costs beyond its load (the gate's
# checks, the monitors, the pauses), and how much of its cap a JVM warm-up takes (docs/results.md).
STEP_OVERHEAD_S = 4
JVM_WARMUP_SHARE = 0.65


class Runner:
    def __init__(self, context, run_id, results_dir=None, say=functools.partial(print, flush=True)):
        self.run_id = run_id
        self.files = RunFiles((results_dir or RESULTS) / run_id)
        self.context = self.resumed_seed(context)
        self.say = say
        self.speed = SpeedHistory(self.files.canary)
        self.guard = Guard(self.context, self.say, self.speed)
        self.step_walls, self.cell_walls = [], {}  # cell_walls: round -> seconds per measured cell
        self.jvm_warmup_s = 0.0  # the latest round's JVM warm-ups: each round left will take about as long
        self.last_step_end = None
        self.quiet = None
        self.topology = None
        plan, selection = self.context.plan, self.context.selection
        self.auto = AutoRounds(plan, selection, self.say)
        self.visits = schedule(selection.cells, plan.rounds, plan.seed, selection.control)
        self.turns_s = turns_expected_s(self.context)

    def resumed_seed(self, context):
        """A resumed run keeps the seed it started with, so its rounds keep their order."""
        if not self.files.manifest.exists():
            return context
        seed = Manifest.read(self.files.manifest).options.get("seed")
        return context.with_seed(seed) if seed else context

    def write_manifest(self, finished=False):
        write_manifest(self.files.manifest, self.run_id, self.context, self.topology, self.quiet,
                       added_rounds=self.auto.added, finished=finished)

    def check_quiet(self, say=True):
        """Before any load: is something else already using the lab's CPUs? Warn, and keep the
        answer in the manifest."""
        quiet = quiet_check(self.context)
        if quiet["disturbed"] and say:
            self.say(f"warning: the machine is not quiet before the run: {quiet['disturbed']}; steps it disturbs "
                     f"are redone, but a quiet machine gives figures sooner")
        return quiet

    def retry_later(self, visit, cell):
        """A cell that disturbed steps stopped is measured once more, after the last cell of its round
        (the machine may have settled by then); stopped on its retry too, it is not measured."""
        if cell.state.disturbed_stops > 1:
            cell.not_measured(TOO_DISTURBED, "disturbed steps stopped it on its visit and on its retry; not measured, "
                                             "and no figure of the run counts it")
            return
        last = max(number for number, each in enumerate(self.visits) if each.round == visit.round)
        self.visits.insert(last + 1, visit)
        self.say(f"{visit}: stopped by disturbance; retried after the last cell of round {visit.round}")

    def wait_for_quiet(self, cell):
        """Before a retry: the quiet check every few seconds until the machine is quiet, for at most
        quiet_wait_s; the retry then goes ahead either way (its steps are judged as ever)."""
        deadline = time.monotonic() + self.context.disturbance.quiet_wait_s
        while (shared := self.check_quiet(say=False)["disturbed"]) and time.monotonic() < deadline:
            time.sleep(3)
        cell.event("retry after a stop by disturbance: " + (f"still not quiet ({shared}), measured anyway" if shared
                                                            else "the machine is quiet"))

    def calibrate_speed(self):
        """Before the first step: canary readings on every lab CPU until each has a reference speed
        (a resumed run has its own already): the quiet check's, then at most CALIBRATION_CHECKS more."""
        self.speed.add(self.quiet["figures"])
        for _ in range(CALIBRATION_CHECKS):
            if self.speed.calibrated():
                return
            with speed_watch(self.context) as watch:
                time.sleep(0.1)
            self.speed.add(watch.figures)

    def warn_of_other_knobs(self):
        """The servers run with the knobs they were started with; say so when today's differ."""
        for name, server in servers.all_servers().items():
            today = {**settings.knobs(), **registry.server_knobs(name)}
            started = server.started_with() or {}
            differing = [f"{key}={started[key]} (now {value})" for key, value in today.items()
                         if key in started and started[key] != value and key not in NOT_THE_SERVERS]
            if differing:
                self.say(f"note: {name} was started with {', '.join(differing)}; the manifest records both "
                         f"(restart with `make down up` to apply today's)")

    def planned_eta_text(self):
        """Before the first cell: how long the run should take, from the walls of the same cells in
        earlier runs under results/ (and their JVM warm-ups), else from the plan's step budget."""
        plan, warmup = self.context.plan, self.context.warmup
        left = [(visit.key.app, visit.key.workload, visit.round == 1) for visit in self.visits
                if not self.files.cell_state(visit.key, visit.round, visit.replica).exists()]

        def from_the_plan(first):
            # A third of the step budget in a first round, two steps in a later one, a quarter of the
            # warm-up's cap: 57 s and 33 s a cell by default, a little above the 33-49 s and 21-53 s that
            # gSOAP's and PHP's echo-1 and echo-10 took (run drivers-debian, AMD EPYC). Listed rates
            # (RATES=) are that many steps.
            steps = len(plan.rates) if plan.rates else plan.max_steps / 3 if first else 2
            return warmup.warmup_cap_s / 4 + steps * (plan.duration_s + STEP_OVERHEAD_S)
        seconds, known = planned_eta(left, earlier_cell_walls(self.files.directory.parent, self.run_id), from_the_plan)
        rounds_with_jvm = len({visit.round for visit in self.visits if registry.jit(visit.key.app)})
        seconds += rounds_with_jvm * warmup.jvm_warmup_cap_s * JVM_WARMUP_SHARE + self.turns_s
        return (f"expected to take ~{format_duration(seconds)} ({known} of {len(left)} cell visits planned from the same "
                f"cells' walls in earlier runs, the rest from other cells' or the plan's step budget; the JVM's warm-ups "
                f"at {JVM_WARMUP_SHARE:.0%} of their cap, and the turns)" + (" + the rounds ROUNDS=auto adds" if plan.auto_rounds else ""))

    def progress(self, cell, step):
        ended = time.monotonic()
        self.step_walls.append(ended - (self.last_step_end or ended - step.wall_s))
        self.last_step_end = ended
        plan = self.context.plan
        cap = (time.monotonic() - self.auto.started, plan.auto_cap_min * 60) if plan.auto_rounds else None
        eta = sweep_eta([visit.round for visit in self.visits[self.index:]], cell.visit.round,
                        self.typical_cell_walls(cell.visit.round), len(cell.steps), self.step_walls, self.jvm_warmup_s, cap
                        ) + (self.turns_s if self.auto.added is None else 0)  # the turns follow the first stage
        self.say(step_line(f"cell {self.index}/{len(self.visits)} {cell.visit}", step, eta))

    def typical_cell_walls(self, round_):
        """The cell walls that best predict the cells left: this round's, else the latest round's (a
        first round searches from scratch, later ones start near its figures and take less)."""
        measured = [number for number in sorted(self.cell_walls) if number <= round_]
        return self.cell_walls[measured[-1]] if measured else []

    def round_cells(self, round_):
        """The cells a round visits: every cell, or in a round ROUNDS=auto added those that need it."""
        return list(dict.fromkeys(each.key for each in self.visits if each.round == round_))

    def rounds_text(self):
        plan = self.context.plan
        return f"{plan.rounds}+auto" if plan.auto_rounds else f"{plan.rounds}"

    def begin_round(self, visit, cell):
        """Before a round's first measurement (round 2 on): restart the servers its cells need, unless
        a resumed round has begun already."""
        if visit.round == 1 or any(self.files.cell_state(each.key, each.round, each.replica).exists()
                                   for each in self.visits if each.round == visit.round):
            return
        needed = {need for key in self.round_cells(visit.round) for need in lifecycle.with_needs(registry.server_of(key.app))}
        self.say(f"round {visit.round}/{self.rounds_text()}: restarting the servers for a fresh process layout")
        for name in [name for name in lifecycle.lab_servers() if name in needed]:
            try:
                message = servers.server(name).restart(self.context.pinning.cpus_of(name))
            except lifecycle.LabError as error:
                message = f"restart failed: {error} (the cell's readiness check recovers it)"
            cell.event(f"round {visit.round} begins: restarted {name}: {message}")

    def price_round(self, round_, cell):
        """At a round's start (after its restarts, before its warm-ups): the host's price list on the
        client's CPUs and the servers', appended to prices.tsv, unless this round has one or the run
        reads none (PRICE_LIST=0)."""
        path = self.files.prices
        rows = read_tsv(path)
        if not self.context.disturbance.price_list or round_ in prices.rounds_priced(rows):
            return
        readings = price_list(self.context.pinning, self.context.topology.ssh)
        rows += prices.price_rows(round_, now(), readings)
        write_atomically(path, tsv_text(prices.COLUMNS, rows))
        for missing in prices.missing_prices(readings):
            self.say(f"note: the price list could not read {missing}")
        listed = "; ".join(f"{name} {value:.3g}" for name, value in prices.round_prices(rows).get(round_, {}).items())
        self.say(f"round {round_}/{self.rounds_text()}: the host's price list on the servers' CPUs: {listed or 'none read'}")
        cell.event(f"round {round_}: price list read ({len(readings)} CPUs)")

    def warm_jvms(self, round_, cell):
        """Before a round's first cell: warm each JIT server once for all its cells, unless this round
        already did with the same process (a resumed run); also before the next cell once the guard has
        restarted one (that cell's own warm-up covered only itself)."""
        warmup = self.context.warmup
        if not warmup.jvm_warmup_cap_s:
            return
        path = self.files.jvm_warmups
        records = json.loads(path.read_text()) if path.exists() else []
        for name, cells in jvm_warmup.servers_of(self.round_cells(round_)).items():
            pid = servers.server(name).pid()
            done = {(record["round"], record["server"], record["pid"]) for record in records}
            if pid is None or (round_, name, pid) in done:
                continue
            self.say(f"round {round_}/{self.rounds_text()}: warming {name} for its {len(cells)} cells until "
                     f"its compiler is quiet (at most {warmup.jvm_warmup_cap_s:g} s)")
            record = jvm_warmup.warm_jvm(name, cells, self.context, self.files.directory)
            if record:
                records.append({"round": round_, **record})
                self.jvm_warmup_s = sum(each["seconds"] for each in records if each["round"] == round_)
                write_atomically(path, json.dumps(records, indent=1) + "\n")
                cell.event(f"round {round_}: {jvm_warmup.describe(record)}")
                self.say(jvm_warmup.describe(record))

    def earlier_rounds(self, summaries, visit):
        """(figure, probe) of the cell's measurements in earlier rounds that found a figure; they
        seed its plan (none in round 1)."""
        pairs = []
        for seen, row in summaries.items():
            if seen.key == visit.key and seen.round < visit.round and row.saturation_rps:
                state = read_cell_state(self.files.cell_state(seen.key, seen.round, seen.replica))
                probe = (state.probe or {}).get("replies_per_s") if state else None
                pairs.append((row.saturation_rps, probe))
        return pairs

    def run(self):
        self.files.directory.mkdir(parents=True, exist_ok=True)
        context = self.context
        processes.pin_harness(context.pinning.client_cpus)
        servers.pin_servers(context.pinning)
        self.quiet = self.check_quiet()
        self.calibrate_speed()
        self.topology = servers.described_topology(context.topology)
        for warning in servers.time_wait_warnings(self.topology):
            self.say(warning)
        self.write_manifest()
        self.warn_of_other_knobs()
        summaries = {row.visit: row for row in read_summaries(self.files.saturation)}
        selection, plan, pinning = context.selection, context.plan, context.pinning
        for action in workload_hooks.before_run(selection.workloads, servers.server(registry.database_server())):
            self.say(f"before the run: {action}, as its workloads declare")
        self.say(f"sweep {self.run_id}: {len(selection.cells)} cells x {self.rounds_text()} round(s)"
                 f"{f', {selection.control} measured twice a round (A/A control)' if selection.control else ''}, "
                 f"seed {plan.seed}, mode {plan.mode}, {plan.duration_s:g} s steps, precision "
                 f"{plan.precision:.0%}; httperf on CPUs {pinning.client_cpus}, "
                 f"{servers_pinning_text(pinning.server_cpus, pinning.db_cpus)}; results in {self.files.directory}")
        self.say(self.planned_eta_text())
        index = 0
        self.auto.start()
        while index < len(self.visits):
            visit, index = self.visits[index], index + 1
            if self.auto.stops_before(visit, self.visits[:index - 1], self.round_cells(visit.round), self.jvm_warmup_s):
                del self.visits[index - 1:]  # the rounds the cap stopped are not the run's
                break
            self.index = index
            cell = Cell(self.files, visit.key, visit.round, visit.replica)
            if cell.state.done:
                self.say(f"cell {self.index}/{len(self.visits)} {visit}: done in an earlier invocation "
                         f"({len(cell.steps)} steps), kept")
            else:
                self.begin_round(visit, cell)
                self.price_round(visit.round, cell)
                self.warm_jvms(visit.round, cell)
                if cell.awaiting_retry:
                    self.wait_for_quiet(cell)
            started, steps_before = time.monotonic(), len(self.step_walls)
            self.last_step_end = None
            try:
                measure_cell(cell, context, self.guard, self.progress, self.earlier_rounds(summaries, visit))
            except lifecycle.LabError as error:
                # A host the lab cannot reach: the run stops with its steps saved, to resume when it is back.
                cell.event(f"run stopped: {error}")
                raise
            if cell.awaiting_retry:
                self.retry_later(visit, cell)
            if len(self.step_walls) > steps_before:
                wall_s = time.monotonic() - started
                self.cell_walls.setdefault(visit.round, []).append(wall_s)
                self.auto.measured(visit.key, wall_s)
                cell.update(wall_s=round(wall_s, 1))
            summaries[visit] = cell.summary()
            write_summaries(self.files.saturation, [summaries[each] for each in dict.fromkeys(self.visits)
                                                    if each in summaries])
            self.say(f"== {visit}: {describe(summaries[visit])}")
            if index == len(self.visits) and self.auto.added is None:  # the first stage done: turns, then added rounds
                take_turns(self.files, context, summaries, self.speed, self.say, self.step_walls)
                if added := self.auto.extension(summaries):
                    self.visits += added
                    self.write_manifest()
        self.write_manifest(finished=True)
        self.say(f"sweep {self.run_id} finished: {self.files.saturation}")
        return [summaries[visit] for visit in dict.fromkeys(self.visits)]
