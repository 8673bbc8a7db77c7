"""The sweep's options: defaults, presets, plan factors and workload profiles come from
httperf-scripts/sweep.json, CPU pinning from stack/settings.py, the selection from the registry; the
command line overrides them. Nothing here is a literal of its own."""
import argparse
import json
import os
import random
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path

from harness.judge.verdict import Thresholds
from harness.results.records import CellKey
from harness.results.store import RESULTS
from stack import lifecycle, registry, settings, topology

SWEEP_FILE = settings.ROOT / "httperf-scripts" / "sweep.json"
SWEEP = json.loads(SWEEP_FILE.read_text())
DEFAULTS = SWEEP["options"]
PLAN = SWEEP["plan"]


@dataclass(frozen=True)
class Profile:
    """How a workload is driven (sweep.json's profiles)."""
    start: float
    timeout_s: float
    linear_step: float
    linear_max: float
    probe_connections: int
    warmup_window_s: float


PROFILES = {name: Profile(**values) for name, values in SWEEP["profiles"].items()}
SIZE_SWEEP = SWEEP["size_sweep"]


def profile_for(workload):
    """How a workload is driven: its own profile, or for the payload workload at N rows the single
    row's below size_sweep.large_profile_from rows and the 16,000 rows' from there on."""
    count = registry.row_count(workload)
    if count is None:
        return PROFILES[workload]
    return PROFILES["large" if count >= SIZE_SWEEP["large_profile_from"] else "single"]


@dataclass(frozen=True)
class Options:
    apps: tuple
    engines: tuple = tuple(registry.REGISTRY["engines"])
    workloads: tuple = tuple(registry.REGISTRY["workloads"])
    mode: str = DEFAULTS["mode"]
    duration_s: float = DEFAULTS["duration_s"]
    precision: float = DEFAULTS["precision"]
    warmup_cap_s: float = DEFAULTS["warmup_cap_s"]
    warmup_windows: int = DEFAULTS["warmup_windows"]
    warmup_tolerance: float = DEFAULTS["warmup_tolerance"]
    jit_warmup_cap_s: float = DEFAULTS["jit_warmup_cap_s"]
    jit_quiet_share: float = DEFAULTS["jit_quiet_share"]
    jvm_warmup_cap_s: float = DEFAULTS["jvm_warmup_cap_s"]
    recovery_wait_s: float = DEFAULTS["recovery_wait_s"]
    max_steps: int = DEFAULTS["max_steps"]
    max_confirm_steps: int = DEFAULTS["max_confirm_steps"]
    rounds: int = DEFAULTS["rounds"]
    aa_control: str = DEFAULTS["aa_control"]
    clients: int = DEFAULTS["clients"]
    seed: int = 0
    min_requests_per_step: int = DEFAULTS["min_requests_per_step"]
    baseline_share: float = DEFAULTS["baseline_share"]
    fd_budget: int = DEFAULTS["fd_budget"]
    max_steal_pct: float = DEFAULTS["max_steal_pct"]
    max_other_pct: float = DEFAULTS["max_other_pct"]
    max_redos: int = DEFAULTS["max_redos"]
    gate_factor: float = DEFAULTS["gate_factor"]
    gate_floor_ms: float = DEFAULTS["gate_floor_ms"]
    gate_wait_s: float = DEFAULTS["gate_wait_s"]
    gate_pause_s: float = DEFAULTS["gate_pause_s"]
    client_cpus: str = field(default_factory=lambda: settings.knob("CLIENT_CPUS"))
    server_cpus: str = field(default_factory=lambda: settings.knob("SERVER_CPUS"))
    db_cpus: str = ""  # empty: DB_CPUS when set, else the same as server_cpus
    app_set: str = registry.DEFAULT_SET
    presets: tuple = ()
    thresholds: Thresholds = Thresholds()

    @property
    def cells(self):
        return [CellKey(app, engine, workload) for app in self.apps
                for engine in registry.engines_of(app, self.engines)
                for workload in registry.workloads_of(app, self.workloads)]

    @property
    def control(self):
        """The A/A control cell, when it is one of the run's cells."""
        if not self.aa_control:
            return None
        key = CellKey(*self.aa_control.split("/"))
        return key if key in self.cells else None

    def __post_init__(self):
        if not self.db_cpus:
            object.__setattr__(self, "db_cpus", os.environ.get("DB_CPUS") or self.server_cpus)

    def host_cpus(self, host):
        """The CPU list of a host's servers: the database's, or the web servers'."""
        return self.db_cpus if host == "db" else self.server_cpus

    def cpus_of(self, server):
        """The CPU list a server is pinned to: its host's."""
        return self.host_cpus(lifecycle.SERVERS[server].host)

    def as_manifest(self):
        return {**asdict(self), "apps": list(self.apps), "engines": list(self.engines),
                "workloads": list(self.workloads), "presets": list(self.presets)}


def listed(text):
    return tuple(item for item in text.replace(",", " ").split() if item)


def number(kind, low, high=None, low_included=True):
    """An argparse type: a number of `kind` from low (or above it) up to high, else one line saying so."""
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {'an integer' if kind is int else 'a number'}") from None
        too_low = value < low if low_included else value <= low
        if too_low or (high is not None and value >= high):
            accepted = (f"{'at least' if low_included else 'above'} {low:g}"
                        + (f" and below {high:g}" if high is not None else ""))
            raise argparse.ArgumentTypeError(f"{text} is out of range: it must be {accepted}")
        return value
    return parse


class OneLineErrors(argparse.ArgumentParser):
    """A bad option gets one line naming it and what it accepts (not argparse's usage block first)."""

    def error(self, message):
        self.exit(2, f"{self.prog}: {message} ({self.prog} --help lists the options)\n")


def parser(description):
    arguments = OneLineErrors(description=description)
    arguments.add_argument("--set", dest="app_set", default=None, choices=list(registry.sets()),
                           help=f"a named selection of apps: {', '.join(registry.sets())} (default "
                                f"{registry.DEFAULT_SET}; other sets run one round unless --rounds says otherwise)")
    arguments.add_argument("--apps", type=listed, default=None, help="these apps of the set only")
    arguments.add_argument("--engines", type=listed, default=None,
                           help="default: " + ", ".join(registry.REGISTRY["engines"]))
    arguments.add_argument("--workloads", type=listed, default=tuple(registry.REGISTRY["workloads"]))
    arguments.add_argument("--mode", choices=("adaptive", "linear"), default=DEFAULTS["mode"])
    arguments.add_argument("--duration", type=number(float, 0, low_included=False), default=None,
                           help=SWEEP["options_about"]["duration_s"])
    arguments.add_argument("--precision", type=number(float, 0, 1, low_included=False), default=None,
                           help=SWEEP["options_about"]["precision"])
    arguments.add_argument("--rounds", type=number(int, 1), default=None, help=SWEEP["options_about"]["rounds"])
    arguments.add_argument("--clients", type=number(int, 1), default=None, help=SWEEP["options_about"]["clients"])
    arguments.add_argument("--max-other-pct", type=number(float, 0), default=None,
                           help=SWEEP["options_about"]["max_other_pct"] + " (hosts that share one machine, as "
                                "the ssh test's namespaces do, each see the others' servers as other work)")
    arguments.add_argument("--max-steal-pct", type=number(float, 0), default=None,
                           help=SWEEP["options_about"]["max_steal_pct"] + " (tests whose subject is not "
                                "disturbance set it high, as a stealing host must not stop their cells)")
    arguments.add_argument("--seed", type=number(int, 0), default=None, help="the seed of the rounds' random order "
                           "(default: drawn at random and kept in the manifest; a resumed run keeps its own)")
    arguments.add_argument("--sizes", type=listed, default=None,
                           help="the size sweep: the payload workload at these row counts (e.g. "
                                + ",".join(map(str, SIZE_SWEEP["counts"])) + ") instead of --workloads")
    arguments.add_argument("--size-sweep", action="store_true",
                           help="make size-sweep: sweep.json's size_sweep (its counts, set, engines and rounds), "
                                "unless --sizes, --set, --engines or --rounds say otherwise")
    arguments.add_argument("--run", default=None, help="run id (re-use one to resume it)")
    arguments.add_argument("--quick", action="store_true", help="the quick preset of sweep.json: "
                           + ", ".join(f"{key}={value}" for key, value in SWEEP["presets"]["quick"].items()))
    arguments.add_argument("--results", type=Path, default=RESULTS,
                           help="the results folder (default: results/)")
    return arguments


def chosen_apps(app_set, apps):
    """The set's apps (the default set's when none is named), narrowed to `apps` when given; without
    a named set, `apps` may name any registry app."""
    unknown = [name for name in apps or () if name not in registry.apps()]
    if unknown:
        raise SystemExit(f"unknown apps {', '.join(unknown)}; the registry has {', '.join(registry.apps())}")
    members = registry.set_members(app_set or registry.DEFAULT_SET)
    if not apps:
        return tuple(members)
    outside = [name for name in apps if name not in members]
    if app_set and outside:
        raise SystemExit(f"{', '.join(outside)} not in set {app_set} ({', '.join(members)})")
    return tuple(apps)


def sized_workloads(counts):
    """The payload workload's names at these row counts (1 to 16,000 each)."""
    largest = SIZE_SWEEP["counts"][-1]
    wrong = [count for count in counts if not count.isdigit() or not 1 <= int(count) <= largest]
    if wrong:
        raise SystemExit(f"row counts must be integers from 1 to {largest}: not {', '.join(wrong)}")
    return tuple(registry.sized(count) for count in counts)


def from_argv(argv, description):
    """(Options, run id, results folder) from the command line."""
    args = parser(description).parse_args(argv)
    if args.size_sweep:
        args.sizes = args.sizes or tuple(map(str, SIZE_SWEEP["counts"]))
        args.app_set = args.app_set or SIZE_SWEEP["set"]
        args.engines = args.engines or tuple(SIZE_SWEEP["engines"])
        args.rounds = args.rounds or SIZE_SWEEP["rounds"]
    engines = args.engines or tuple(registry.REGISTRY["engines"])
    apps = chosen_apps(args.app_set, args.apps)
    workloads = sized_workloads(args.sizes) if args.sizes else args.workloads
    unknown = [value for value in engines if value not in registry.REGISTRY["engines"]]
    if unknown:
        raise SystemExit(f"unknown engines {', '.join(unknown)}; the registry has "
                         f"{', '.join(registry.REGISTRY['engines'])}")
    unknown = [value for value in workloads if not registry.is_workload(value)]
    if unknown:
        raise SystemExit(f"unknown workloads {', '.join(unknown)}; the registry has "
                         f"{', '.join(registry.REGISTRY['workloads'])}, and {registry.SIZE_WORKLOAD}-N (--sizes)")
    presets = ("quick",) if args.quick else ()
    values = {key: value for preset in presets for key, value in SWEEP["presets"][preset].items()}
    if args.app_set not in (None, registry.DEFAULT_SET):
        values["rounds"] = 1
    values.update({key: value for key, value in (("duration_s", args.duration), ("precision", args.precision),
                                                 ("rounds", args.rounds), ("clients", args.clients),
                                                 ("max_other_pct", args.max_other_pct),
                                                 ("max_steal_pct", args.max_steal_pct)) if value is not None})
    try:
        load_clients = topology.current().load_clients
    except ValueError as error:
        raise SystemExit(str(error)) from None
    if load_clients and not args.clients:
        values["clients"] = len(load_clients)  # one httperf on each load client host
    values["seed"] = random.SystemRandom().randrange(1, 10**6) if args.seed is None else args.seed
    options = Options(apps=apps, engines=engines, workloads=workloads, mode=args.mode,
                      app_set=args.app_set or registry.DEFAULT_SET, presets=presets, **values)
    run_id = args.run or (datetime.now().strftime("%Y%m%d-%H%M%S") + ("-sizes" if args.sizes else "")
                          + ("-quick" if args.quick else ""))
    return options, run_id, args.results
