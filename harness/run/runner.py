"""The run: round after round, every cell in the round's interleaved order (harness/run/schedule.py), its
summary written after each, progress with an ETA, and the manifest that makes the run traceable.
Between rounds the servers restart, so that every round samples a fresh JVM and process layout.
Re-running a run id resumes it, with the seed it started with."""
import dataclasses
import json
import time

from harness.hosts import inventory, servers
from harness.hosts.watch import watching
from harness.measure import processes
from harness.results.manifest import FORMAT_VERSION, Manifest, servers_pinning_text
from harness.results.store import RESULTS, RunFiles, read_cell_state, read_summaries, write_atomically, write_summaries
from harness.run import jvm_warmup
from harness.run.cell import Cell, now
from harness.run.guard import Guard
from harness.run.options import PROFILES, SIZE_SWEEP, SWEEP
from harness.run.procedure import measure_cell
from harness.run.progress import describe, estimate_eta, step_line
from harness.run.schedule import schedule
from stack import database_access, lifecycle, registry, settings


# Knobs a server's start records that do not shape it: the sweep's own CPUs (it pins the servers
# itself), and which host of TOPOLOGY=ssh the remote lab was.
NOT_THE_SERVERS = ("CLIENT_CPUS", "SERVER_CPUS", "DB_CPUS", "LAB_ON_HOST")


def say_now(text):
    print(text, flush=True)


class Runner:
    def __init__(self, options, run_id, results_dir=None, say=say_now):
        self.run_id = run_id
        self.files = RunFiles((results_dir or RESULTS) / run_id)
        self.options = self.resumed_seed(options)
        self.say = say
        self.guard = Guard(self.options, self.say)
        self.step_walls, self.cell_walls = [], {}  # cell_walls: round -> seconds per measured cell
        self.cells_left = 0
        self.jvm_warmup_s = 0.0  # the latest round's JVM warm-ups: each round left will take about as long
        self.last_step_end = None
        self.quiet = None
        self.topology = None

    def resumed_seed(self, options):
        """A resumed run keeps the seed it started with, so its rounds keep their order."""
        if not self.files.manifest.exists():
            return options
        seed = Manifest.read(self.files.manifest).options.get("seed")
        return dataclasses.replace(options, seed=seed) if seed else options

    def write_manifest(self, finished=False):
        path = self.files.manifest
        manifest = json.loads(path.read_text()) if path.exists() else {"run_id": self.run_id, "started": now()}
        manifest.update({
            "format_version": FORMAT_VERSION,
            "options": self.options.as_manifest(),
            "plan": SWEEP["plan"],
            "profiles": {name: vars(profile) for name, profile in PROFILES.items()},
            "size_sweep": SIZE_SWEEP,
            "settings": {**settings.knobs(), "CLIENT_CPUS": self.options.client_cpus,
                         "SERVER_CPUS": self.options.server_cpus, "DB_CPUS": self.options.db_cpus,
                         "max_connections": database_access.max_connections()},
            "servers": {name: {"address": server.address, "port": server.port, "endpoint": server.endpoint,
                               "started_with": servers.server(name).started_with()}
                        for name, server in lifecycle.SERVERS.items()},
            "pinning": {"client_cpus": self.options.client_cpus, "server_cpus": self.options.server_cpus,
                        "db_cpus": self.options.db_cpus},
            "topology": self.topology,
            "versions": inventory.versions(),
            "host": inventory.host(),
            "git": inventory.git_state(),
            "registry": registry.REGISTRY,
            "quiet_check": self.quiet,
        })
        if finished:
            manifest["finished"] = now()
        write_atomically(path, json.dumps(manifest, indent=2, default=str) + "\n")

    def check_quiet(self, seconds=2):
        """Before any load: is something else already using the lab's CPUs? Warn, and keep the
        answer in the manifest."""
        with watching(self.options) as watch:
            time.sleep(seconds)
        shared = watch.disturbed()
        if shared:
            self.say(f"warning: the machine is not quiet before the run: {shared}; steps it disturbs "
                     f"are redone, but a quiet machine gives figures sooner")
        return {"seconds": seconds, "disturbed": shared, "figures": watch.figures}

    def warn_of_other_knobs(self):
        """The servers run with the knobs they were started with; say so when today's differ."""
        today = settings.knobs()
        for name, server in servers.all_servers().items():
            started = server.started_with() or {}
            differing = [f"{key}={started[key]} (now {value})" for key, value in today.items()
                         if key in started and started[key] != value and key not in NOT_THE_SERVERS]
            if differing:
                self.say(f"note: {name} was started with {', '.join(differing)}; the manifest records both "
                         f"(restart with `make down up` to apply today's)")

    def progress(self, cell, step):
        ended = time.monotonic()
        self.step_walls.append(ended - (self.last_step_end or ended - step.wall_s))
        self.last_step_end = ended
        eta = estimate_eta(self.cells_left, self.typical_cell_walls(cell.visit.round), len(cell.steps),
                           self.step_walls) + (self.options.rounds - cell.visit.round) * self.jvm_warmup_s
        self.say(step_line(f"cell {self.index}/{len(self.visits)} {cell.visit}", step, eta))

    def typical_cell_walls(self, round_):
        """The cell walls that best predict the cells left: this round's, else the latest round's (a
        first round searches from scratch, later ones start near its figures and take less)."""
        measured = [number for number in sorted(self.cell_walls) if number <= round_]
        return self.cell_walls[measured[-1]] if measured else []

    def begin_round(self, visit, cell):
        """Before a round's first measurement (round 2 on): restart every server, unless a resumed
        round has begun already."""
        if visit.round == 1 or any(self.files.cell_state(each.key, each.round, each.replica).exists()
                                   for each in self.visits if each.round == visit.round):
            return
        self.say(f"round {visit.round}/{self.options.rounds}: restarting the servers for a fresh process layout")
        for name in lifecycle.SERVERS:
            try:
                message = servers.server(name).restart(self.options.cpus_of(name))
            except lifecycle.LabError as error:
                message = f"restart failed: {error} (the cell's readiness check recovers it)"
            cell.event(f"round {visit.round} begins: restarted {name}: {message}")

    def warm_jvms(self, round_, cell):
        """Before a round's first cell: warm each JIT server once for all its cells, unless this round
        already did with the same process (a resumed run); also before the next cell once the guard has
        restarted one (that cell's own warm-up covered only itself)."""
        if not self.options.jvm_warmup_cap_s:
            return
        path = self.files.jvm_warmups
        records = json.loads(path.read_text()) if path.exists() else []
        for name, cells in jvm_warmup.servers_of(self.options.cells).items():
            pid = servers.server(name).pid()
            done = {(record["round"], record["server"], record["pid"]) for record in records}
            if pid is None or (round_, name, pid) in done:
                continue
            self.say(f"round {round_}/{self.options.rounds}: warming {name} for its {len(cells)} cells until its "
                     f"compiler is quiet (at most {self.options.jvm_warmup_cap_s:g} s)")
            record = jvm_warmup.warm_jvm(name, cells, self.options, self.files.directory)
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
        processes.pin_harness(self.options.client_cpus)
        servers.pin_servers(self.options)
        self.quiet = self.check_quiet()
        self.topology = servers.described_topology()
        for warning in servers.time_wait_warnings(self.topology):
            self.say(warning)
        self.write_manifest()
        self.warn_of_other_knobs()
        summaries = {row.visit: row for row in read_summaries(self.files.saturation)}
        options = self.options
        self.visits = schedule(options.cells, options.rounds, options.seed, options.control)
        self.say(f"sweep {self.run_id}: {len(options.cells)} cells x {options.rounds} round(s)"
                 f"{f', {options.control} measured twice a round (A/A control)' if options.control else ''}, "
                 f"seed {options.seed}, mode {options.mode}, {options.duration_s:g} s steps, precision "
                 f"{options.precision:.0%}; httperf on CPUs {options.client_cpus}, "
                 f"{servers_pinning_text(options.server_cpus, options.db_cpus)}; results in {self.files.directory}")
        for index, visit in enumerate(self.visits, start=1):
            self.index = index
            self.cells_left = len(self.visits) - self.index
            cell = Cell(self.files, visit.key, visit.round, visit.replica)
            if cell.state.done:
                self.say(f"cell {self.index}/{len(self.visits)} {visit}: done in an earlier invocation "
                         f"({len(cell.steps)} steps), kept")
            else:
                self.begin_round(visit, cell)
                self.warm_jvms(visit.round, cell)
            started, steps_before = time.monotonic(), len(self.step_walls)
            self.last_step_end = None
            measure_cell(cell, options, self.guard, self.progress, self.earlier_rounds(summaries, visit))
            if len(self.step_walls) > steps_before:
                self.cell_walls.setdefault(visit.round, []).append(time.monotonic() - started)
            summaries[visit] = cell.summary()
            write_summaries(self.files.saturation, [summaries[each] for each in self.visits if each in summaries])
            self.say(f"== {visit}: {describe(summaries[visit])}")
        self.write_manifest(finished=True)
        self.say(f"sweep {self.run_id} finished: {self.files.saturation}")
        return [summaries[visit] for visit in self.visits]
