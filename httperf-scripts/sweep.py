"""The saturation sweep: for every cell (app x engine x workload) run httperf at planned offered
rates, judge each step, and locate the highest rate the server sustains.

    python3 httperf-scripts/sweep.py [--apps php,soap] [--engines ...] [--workloads ...]
        [--mode adaptive|linear] [--duration S] [--precision P] [--run ID] [--quick]

Results go to results/<run-id>/ (see README). Re-running with the same --run resumes: finished
steps and cells are kept, not redone.
"""
import argparse
import csv
import io
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import measure  # noqa: E402
from httperf_output import FIGURES, IncompleteOutput, parse, reply_time_ms  # noqa: E402
from planner import AdaptivePlan, LinearPlan, round_rate  # noqa: E402
from stack import lab, lifecycle, registry, settings  # noqa: E402
from verdict import FAIL, INVALID, PASS, Thresholds, issue_rate, judge  # noqa: E402

RESULTS = settings.ROOT / "results"
# Every step sends at least this many requests, so a slow cell's low rates still measure something.
MIN_REQUESTS_PER_STEP = 10
# A probe-seeded plan starts near capacity, so the reply time at low load comes from one short
# baseline step at this share of the probe's estimate (half a step long, outside the plan).
BASELINE = "baseline"
BASELINE_SHARE = 0.1


@dataclass(frozen=True)
class Profile:
    """How a workload is driven. The 16,000-row pages live at 1-100 req/s, single rows at
    hundreds to thousands."""
    start: float            # first rate when no probe seeds the plan
    timeout_s: float        # httperf --timeout (shortened by the descriptor budget at high rates)
    linear_step: float      # the linear plan's START and STEP
    linear_max: float
    probe_connections: int  # closed-loop concurrency of the capacity probe


PROFILES = {
    "single": Profile(start=100, timeout_s=2, linear_step=100, linear_max=5000, probe_connections=16),
    "large": Profile(start=2, timeout_s=10, linear_step=1, linear_max=100, probe_connections=4),
}


@dataclass(frozen=True)
class Options:
    apps: tuple
    engines: tuple
    workloads: tuple
    mode: str = "adaptive"
    duration_s: float = 6
    precision: float = 0.05
    probe_s: float = 3
    warmup_s: float = 5
    cooldown_s: float = 60
    max_steps: int = 14
    client_cpus: str = ""
    server_cpus: str = ""
    thresholds: Thresholds = Thresholds()

    @property
    def cells(self):
        return [(app, engine, workload) for app in self.apps for engine in self.engines
                for workload in self.workloads]


STEP_COLUMNS = (["step", "role", "offered_rate", "timeout_s", "num_conns", "verdict", "reason", "killed",
                 "wall_s", "port_wait_s", "issue_rate", "raw"] + FIGURES
                + [f"{name}_{figure}" for name in lifecycle.SERVERS for figure in ("cpu_s", "rss_peak_mb")])
SATURATION_COLUMNS = ["app", "engine", "workload", "status", "saturation_rps", "saturation_offered",
                      "overload_offered", "reply_ms_low", "reply_ms_saturation",
                      "server_cpu_s_saturation", "server_rss_mb_saturation", "steps", "restarts", "note"]


def write_atomically(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(tmp, path)


def tsv(columns, rows):
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, columns, delimiter="\t", lineterminator="\n", extrasaction="ignore")
    writer.writeheader()
    writer.writerows(rows)
    return buffer.getvalue()


def read_tsv(path):
    if not path.exists():
        return []
    with open(path, newline="") as source:
        return list(csv.DictReader(source, delimiter="\t"))


def number(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def summarize(app, engine, workload, steps, restarts):
    """The saturation.tsv row for one cell, from its judged steps."""
    row = {"app": app, "engine": engine, "workload": workload, "steps": len(steps), "restarts": restarts}
    passed = [step for step in steps if step["verdict"] == PASS]
    failed = [number(step["offered_rate"]) for step in steps if step["verdict"] == FAIL]
    invalid = [number(step["offered_rate"]) for step in steps if step["verdict"] == INVALID]
    if not passed:
        row.update(status="no-pass", note="no step passed; the server could not sustain even the lowest rate")
        return row
    best = max(passed, key=lambda step: number(step["reply_rate"]))
    lowest = min(passed, key=lambda step: number(step["offered_rate"]))
    top = number(best["offered_rate"])
    overload = min((rate for rate in failed if rate > top), default=None)
    ceiling = min((rate for rate in invalid if rate > top), default=None)
    row.update(saturation_rps=round(number(best["reply_rate"]), 2), saturation_offered=top,
               reply_ms_low=reply_time_ms(lowest), reply_ms_saturation=reply_time_ms(best),
               server_cpu_s_saturation=round(sum(number(best.get(f"{name}_cpu_s")) or 0
                                                 for name in lifecycle.SERVERS), 2),
               server_rss_mb_saturation=round(sum(number(best.get(f"{name}_rss_peak_mb")) or 0
                                                  for name in lifecycle.SERVERS), 1))
    if overload is not None and (ceiling is None or overload < ceiling):
        row.update(status="located", overload_offered=overload)
    elif ceiling is not None:
        row.update(status="client-bound",
                   note=f">= {row['saturation_rps']} req/s, client-bound at {ceiling:g} req/s offered")
    else:
        row.update(status="plan-limit", note=f">= {row['saturation_rps']} req/s; raise the plan's maximum")
    return row


class Sweep:
    def __init__(self, options, run_id, results_dir=None):
        self.options = options
        self.run_dir = (results_dir or RESULTS) / run_id
        self.run_id = run_id
        self.step_walls = []
        self.cell_walls = []
        self.cells_left = 0

    # ---- manifest -------------------------------------------------------------------------
    def write_manifest(self, finished=False):
        path = self.run_dir / "manifest.json"
        manifest = json.loads(path.read_text()) if path.exists() else {
            "run_id": self.run_id, "started": now()}
        manifest.update({
            "options": {**asdict(self.options), "apps": list(self.options.apps)},
            "profiles": {name: asdict(profile) for name, profile in PROFILES.items()},
            "fd_budget": measure.FD_BUDGET,
            "settings": settings.knobs(),
            "max_connections": settings.max_connections(),
            "pinning": {"client_cpus": self.options.client_cpus or "none",
                        "server_cpus": self.options.server_cpus or "none"},
            "versions": measure.versions(),
            "host": measure.host(),
            "git": git_state(),
            "registry": registry.REGISTRY,
        })
        if finished:
            manifest["finished"] = now()
        write_atomically(path, json.dumps(manifest, indent=2, default=str) + "\n")

    # ---- one cell -------------------------------------------------------------------------
    def plan_for(self, workload, seed):
        profile = PROFILES[workload]
        if self.options.mode == "linear":
            return LinearPlan(profile.linear_step, profile.linear_step, profile.linear_max)
        if seed:
            return AdaptivePlan(start=max(0.5, 0.85 * seed), factor=1.25, precision=self.options.precision,
                                max_steps=self.options.max_steps)
        return AdaptivePlan(start=profile.start, factor=2, precision=self.options.precision,
                            max_steps=self.options.max_steps)

    def probe(self, request, workload, cell_dir, cell_state):
        """Warm the JVM (Java cells) and measure closed-loop capacity to seed the plan."""
        profile = PROFILES[workload]
        if "probe" in cell_state:
            return cell_state["probe"]["replies_per_s"]
        if registry.app(cell_state["app"])["server"] == "tomcat" and self.options.warmup_s:
            cell_state["warmup"] = measure.wrk_throughput(request, self.options.warmup_s,
                                                          profile.probe_connections,
                                                          self.options.client_cpus, cell_dir)
            cell_state["warmup"]["seconds"] = self.options.warmup_s
        if not self.options.probe_s or self.options.mode == "linear":
            return None
        result = measure.wrk_throughput(request, self.options.probe_s, profile.probe_connections,
                                        self.options.client_cpus, cell_dir)
        result.update(seconds=self.options.probe_s, connections=profile.probe_connections)
        cell_state["probe"] = result
        return result["replies_per_s"] if result["non2xx"] == 0 else None

    def run_cell(self, index, app, engine, workload):
        cell_dir = self.run_dir / "cells" / f"{app}-{engine}-{workload}"
        state_path = cell_dir / "cell.json"
        cell_state = json.loads(state_path.read_text()) if state_path.exists() else {
            "app": app, "engine": engine, "workload": workload, "events": [], "restarts": 0}
        steps_path = cell_dir / "steps.tsv"
        steps = read_tsv(steps_path)
        label = f"cell {index}/{len(self.options.cells)} {app}/{engine}/{workload}"
        if cell_state.get("done"):
            self.say(f"{label}: done in an earlier invocation ({len(steps)} steps), kept")
            return summarize(app, engine, workload, steps, cell_state["restarts"])
        request = registry.request(app, workload, engine=engine)
        server = registry.app(app)["server"]
        if not self.healthy(request, server, cell_state, label):
            cell_state.setdefault("events", []).append(f"{now()} target never answered; cell skipped")
            write_atomically(state_path, json.dumps(cell_state, indent=2) + "\n")
            return summarize(app, engine, workload, steps, cell_state["restarts"])
        session_file = None
        if request.method != "GET":
            session_file = cell_dir / "session.txt"
            write_atomically(session_file, measure.session_file_text(request))
        seed = self.probe(request, workload, cell_dir, cell_state)
        write_atomically(state_path, json.dumps(cell_state, indent=2) + "\n")
        plan = self.plan_for(workload, seed)

        def take_step(rate, role="", duration_s=None):
            step = self.run_step(len(steps) + 1, rate, request, workload, session_file, cell_dir, duration_s)
            step["role"] = role
            steps.append(step)
            write_atomically(steps_path, tsv(STEP_COLUMNS, steps))
            self.progress(label, step, len(steps))
            if step["verdict"] != PASS:
                self.cool_down(request, server, cell_state, label)
            write_atomically(state_path, json.dumps(cell_state, indent=2) + "\n")
            return step

        if seed and not any(step.get("role") == BASELINE for step in steps):
            take_step(round_rate(max(0.5, BASELINE_SHARE * seed)), BASELINE, self.options.duration_s / 2)
        history = [(number(step["offered_rate"]), step["verdict"]) for step in steps if step.get("role") != BASELINE]
        while (rate := plan.next_rate(history)) is not None:
            if not self.healthy(request, server, cell_state, label):
                cell_state["events"].append(f"{now()} target down before step at {rate:g}; cell stopped")
                break
            history.append((rate, take_step(rate)["verdict"]))
        cell_state["done"] = True
        write_atomically(state_path, json.dumps(cell_state, indent=2) + "\n")
        return summarize(app, engine, workload, steps, cell_state["restarts"])

    def run_step(self, number_, rate, request, workload, session_file, cell_dir, duration_s=None):
        timeout_s = measure.step_timeout(rate, PROFILES[workload].timeout_s)
        num_conns = max(MIN_REQUESTS_PER_STEP, round(rate * (duration_s or self.options.duration_s)))
        command = measure.httperf_command(request, rate, num_conns, timeout_s, session_file)
        wall_limit = num_conns / max(rate, 0.1) * 1.5 + timeout_s + 15
        port_wait = measure.wait_for_ports(num_conns)
        sampler = measure.ServerSampler()
        sampler.start()
        started = time.monotonic()
        output, killed = measure.run_httperf(command, wall_limit, self.options.client_cpus)
        wall = time.monotonic() - started
        server_figures = sampler.finish()
        raw_name = f"raw/step-{number_:02d}-rate-{rate:g}.txt"
        write_atomically(cell_dir / raw_name, output)
        try:
            figures = parse(output)
        except IncompleteOutput:
            figures = None
        verdict, reason = judge(figures, rate, timeout_s, num_conns, killed, self.options.thresholds)
        self.step_walls.append(wall + 1)
        step = {"step": number_, "offered_rate": rate, "timeout_s": timeout_s, "num_conns": num_conns,
                "verdict": verdict, "reason": reason, "killed": int(killed), "wall_s": round(wall, 2),
                "port_wait_s": port_wait,
                "raw": raw_name, **server_figures}
        if figures:
            step.update({name: figures.get(name, "") for name in FIGURES})
            step["issue_rate"] = round(issue_rate(figures, timeout_s), 2)
        return step

    # ---- guarding the measurement ---------------------------------------------------------
    def healthy(self, request, server, cell_state, label):
        if measure.answers(request, timeout_s=10) and lifecycle.SERVERS[server].pid():
            return True
        return self.recover(request, server, cell_state, label)

    def cool_down(self, request, server, cell_state, label):
        """After a step that did not pass: the health request queues behind whatever the overload
        left, so its answer means the server has drained (or it is recovered)."""
        self.healthy(request, server, cell_state, label)

    def recover(self, request, server, cell_state, label):
        """Wait for the target to answer again; restart its server (and the database when the
        database is the one gone) through the lifecycle `make up` uses when it does not. A server
        whose main process has died is restarted at once."""
        dead = [name for name in ("mariadb", server) if not lifecycle.SERVERS[name].pid()]
        deadline = time.monotonic() + (0 if dead else self.options.cooldown_s)
        while time.monotonic() < deadline:
            if measure.answers(request, timeout_s=10):
                return True
            time.sleep(2)
        names = dead or [server] + ([] if lifecycle.SERVERS["mariadb"].answers() else ["mariadb"])
        for name in sorted(set(names), key=["mariadb", server].index):
            self.say(f"{label}: {name} " + ("died" if name in dead else
                     f"did not answer within {self.options.cooldown_s:g} s") + "; restarting it")
            try:
                message = lifecycle.restart(name, self.options.server_cpus or None)
            except lifecycle.LabError as error:
                message = f"restart failed: {error}"
            cell_state["events"].append(f"{now()} restarted {name}: {message}")
            cell_state["restarts"] += 1
        if not measure.answers(request, timeout_s=10):
            return False
        if server == "tomcat" and server in names and self.options.warmup_s:
            # A restarted JVM runs interpreted: warm it again, or the next steps measure the JIT.
            warmup = measure.wrk_throughput(request, self.options.warmup_s, PROFILES[cell_state["workload"]]
                                            .probe_connections, self.options.client_cpus,
                                            self.run_dir / "cells" / "-".join(
                                                cell_state[key] for key in ("app", "engine", "workload")))
            cell_state["events"].append(f"{now()} JIT warm-up after the restart: {warmup['replies_per_s']} replies/s")
        return True

    # ---- progress -------------------------------------------------------------------------
    def say(self, text):
        print(text, flush=True)

    def progress(self, label, step, steps_in_cell):
        eta = estimate_eta(self.cells_left, self.cell_walls, steps_in_cell, self.step_walls)
        reply = number(step.get("reply_rate"))
        reply_time = reply_time_ms(step)
        self.say(f"[{label}] step {step['step']}: offered {step['offered_rate']:g} req/s -> "
                 f"reply {reply if reply is not None else float('nan'):.1f}/s, "
                 f"reply time {reply_time if reply_time is not None else float('nan'):.1f} ms: "
                 f"{step['verdict'].upper()} | ETA ~{format_duration(eta)}")

    # ---- the run --------------------------------------------------------------------------
    def run(self):
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.write_manifest()
        measure.pin_servers(self.options.server_cpus)
        saturation_path = self.run_dir / "saturation.tsv"
        rows = {(row["app"], row["engine"], row["workload"]): row for row in read_tsv(saturation_path)}
        self.say(f"sweep {self.run_id}: {len(self.options.cells)} cells, mode {self.options.mode}, "
                 f"{self.options.duration_s:g} s steps, precision {self.options.precision:.0%}; "
                 f"httperf on CPUs {self.options.client_cpus or 'any'}, servers on "
                 f"{self.options.server_cpus or 'any'}; results in {self.run_dir}")
        for index, (app, engine, workload) in enumerate(self.options.cells, start=1):
            self.cells_left = len(self.options.cells) - index
            started, steps_before = time.monotonic(), len(self.step_walls)
            rows[(app, engine, workload)] = self.run_cell(index, app, engine, workload)
            if len(self.step_walls) > steps_before:
                self.cell_walls.append(time.monotonic() - started)
            ordered = [rows[cell] for cell in self.options.cells if cell in rows]
            write_atomically(saturation_path, tsv(SATURATION_COLUMNS, ordered))
            row = rows[(app, engine, workload)]
            self.say(f"== {app}/{engine}/{workload}: {describe(row)}")
        self.write_manifest(finished=True)
        self.say(f"sweep {self.run_id} finished: {saturation_path}")
        return [rows[cell] for cell in self.options.cells]


def estimate_eta(cells_left, cell_walls, steps_in_cell, step_walls, typical_steps=8):
    """Seconds left: the current cell's typical remaining steps plus the cells after it, each as
    long as the cells measured so far took (or typical_steps steps before any cell finished)."""
    if not step_walls:
        return 0.0
    step = sum(step_walls) / len(step_walls)
    cell = sum(cell_walls) / len(cell_walls) if cell_walls else typical_steps * step
    return max(0, typical_steps - steps_in_cell) * step + cells_left * cell


def describe(row):
    if row.get("status") == "located":
        return (f"saturation {row['saturation_rps']} req/s (overload at {row['overload_offered']:g} "
                f"offered), reply time {row['reply_ms_low']} ms low / {row['reply_ms_saturation']} ms "
                f"at saturation")
    return row.get("note") or row.get("status", "")


def format_duration(seconds):
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}m{seconds:02d}s"


def now():
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def git_state():
    def git(*args):
        result = subprocess.run(["git", *args], capture_output=True, text=True, cwd=settings.ROOT)
        return result.stdout.strip()
    return {"commit": git("rev-parse", "HEAD") or "unknown", "dirty": bool(git("status", "--porcelain"))}


def default_pinning():
    """httperf on CPU 0 and the servers on the rest, on a machine with at least two cores."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return "", ""
    return "0", f"1-{cores - 1}" if cores > 2 else "1"


def options_from(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    listed = lambda text: tuple(item for item in text.replace(",", " ").split() if item)  # noqa: E731
    parser.add_argument("--apps", type=listed, default=tuple(registry.apps()))
    parser.add_argument("--engines", type=listed, default=tuple(registry.REGISTRY["engines"]))
    parser.add_argument("--workloads", type=listed, default=tuple(registry.REGISTRY["workloads"]))
    parser.add_argument("--mode", choices=("adaptive", "linear"), default="adaptive")
    parser.add_argument("--duration", type=float, default=None, help="seconds of load per step")
    parser.add_argument("--precision", type=float, default=None, help="bisection stops within this ratio")
    parser.add_argument("--run", default=None, help="run id (re-use one to resume it)")
    parser.add_argument("--quick", action="store_true", help="smoke profile: short steps, coarse precision")
    parser.add_argument("--results", type=Path, default=RESULTS, help="the results folder (default: results/)")
    args = parser.parse_args(argv)
    for name in args.apps:
        registry.app(name)
    client_cpus, server_cpus = default_pinning()
    quick = dict(duration_s=3, precision=0.25, probe_s=1, warmup_s=2, max_steps=5, cooldown_s=30)
    base = quick if args.quick else {}
    options = Options(
        apps=args.apps, engines=args.engines, workloads=args.workloads, mode=args.mode,
        client_cpus=os.environ.get("CLIENT_CPUS") or client_cpus,
        server_cpus=os.environ.get("SERVER_CPUS") or server_cpus,
        **{**base, **{key: value for key, value in (("duration_s", args.duration),
                                                     ("precision", args.precision)) if value}})
    run_id = args.run or datetime.now().strftime("%Y%m%d-%H%M%S") + ("-quick" if args.quick else "")
    return options, run_id, args.results


def main(argv):
    options, run_id, results_dir = options_from(argv)
    problems = lab.verify(lifecycle.SERVERS["mariadb"])
    if problems:
        print("sweep: the data is not imported: " + "; ".join(problems) + " (run `make import`)", file=sys.stderr)
        return 1
    try:
        Sweep(options, run_id, results_dir).run()
    except KeyboardInterrupt:
        print(f"\nsweep interrupted: finished steps are saved; resume with RUN={run_id}", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
