"""The run context: what a run is told, built once at its start and handed out in small values, each
to the functions that use it. sweep.json gives the defaults, plan factors and workload profiles, and
each preset is a file of its own (experiments/presets/); the knobs give the CPU lists and the topology, read here and nowhere else in the harness;
the command line (options.py) overrides them. Every knob keeps the one name it has in sweep.json and
in the manifest."""
import functools
import json
from dataclasses import asdict, dataclass, field, fields, replace

from harness.judge.disturbance import Limits
from harness.judge.verdict import Thresholds
from harness.hosts.servers import Pinning
from harness.results.interleave import TURN_PAIRS
from harness.results.records import CellKey
from harness.run.option_types import linear_rate_count, number, offered_rates, positive, rounds_count, switch
from stack import registry, settings, workload_names
from stack.topology import Topology, current as current_topology

SWEEP_FILE = settings.ROOT / "httperf-scripts" / "sweep.json"
PRESETS = settings.ROOT / "experiments" / "presets"


@functools.cache
def sweep():
    """sweep.json, read on first use: the options' defaults, the plan's factors, the size sweep's and
    the cross-check's settings, the workloads' profiles."""
    return json.loads(SWEEP_FILE.read_text())


@functools.cache
def preset(name):
    """experiments/presets/NAME.json, read on first use: its `about` and its `options`, the values it
    sets by the names they keep in sweep.json and the manifest (QUICK=1 is the quick preset)."""
    return json.loads((PRESETS / f"{name}.json").read_text())


def defaults():
    """The options' defaults (sweep.json `options`), each by the name it keeps in the manifest."""
    return sweep()["options"]


def plan_factors():
    """How a round's steps start and grow from the probe or an earlier round (sweep.json `plan`)."""
    return sweep()["plan"]


def size_sweep():
    return sweep()["size_sweep"]


def crosscheck_settings():
    """The cross-check's ladder and the concurrency sweep's windows (sweep.json `crosscheck`)."""
    return sweep()["crosscheck"]


@dataclass(frozen=True)
class LevelWindows:
    """A concurrency level's windows: `settle` unrecorded, then `count` recorded, each `seconds` long
    (at least the workload's warm-up window); sweep.json's unless a run sets its own (Infosys's phase 2
    is one window of a minute)."""
    seconds: float
    count: int
    settle: int

    @classmethod
    def of(cls, seconds=None, count=None, settle=None):
        settings_ = crosscheck_settings()["concurrency"]
        return cls(settings_["window_s"] if seconds is None else seconds,
                   settings_["windows"] if count is None else count,
                   settings_["settle_windows"] if settle is None else settle)

    def per_level_s(self, overhead_s):
        return (self.settle + self.count) * (self.seconds + overhead_s)


def default(name, flag=None, **option):
    """A field whose default is sweep.json's option `name`, read when a value is made. With a `flag`
    it is a knob of the sweep's command line (options.py), `option` its argparse settings and
    sweep.json's options_about its help; make takes it as the flag's KEY= (harness/experiments.py)."""
    return field(default_factory=lambda: defaults()[name],
                 metadata={"flag": flag, "option": option} if flag else {})


@dataclass(frozen=True)
class Profile:
    """How a workload is driven (sweep.json's profiles)."""
    start: float
    timeout_s: float
    linear_step: float
    linear_max: float
    probe_connections: int
    warmup_window_s: float


@functools.cache
def profiles():
    """{workload: how it is driven} (sweep.json `profiles`)."""
    return {name: Profile(**values) for name, values in sweep()["profiles"].items()}

# How a step's connections carry its requests (CONN=): one each, or `calls` each, kept alive.
CLOSE, KEEPALIVE = "close", "keepalive"
CONNECTIONS = (CLOSE, KEEPALIVE)


def profile_for(workload):
    """How a workload is driven: its own profile, or for the payload workload at N rows (an echo
    workload at N items) the single row's below size_sweep.large_profile_from and the 16,000 rows'
    from there on; quote, the single row's; a mix at any share, the mix's."""
    count = workload_names.row_count(workload) or workload_names.item_count(workload)
    if count is None:
        return profiles()["single" if workload_names.is_echo(workload) else workload_names.parse_workload(workload)[0]]
    return profiles()["large" if count >= size_sweep()["large_profile_from"] else "single"]


@dataclass(frozen=True)
class Selection:
    """Which cells the run measures, and its A/A control."""
    apps: tuple
    engines: tuple = field(default_factory=lambda: tuple(registry.engines()))
    workloads: tuple = field(default_factory=lambda: tuple(workload_names.workloads()))
    app_set: str = field(default_factory=registry.default_set)
    aa_control: str = default("aa_control")

    @property
    def cells(self):
        return [CellKey(app, engine, workload) for app in self.apps
                for engine, workload in registry.cells_of(app, self.engines, self.workloads)]

    @property
    def control(self):
        """The A/A control cell, when it is one of the run's cells."""
        if not self.aa_control:
            return None
        key = CellKey(*self.aa_control.split("/"))
        return key if key in self.cells else None


@dataclass(frozen=True)
class Plan:
    """How each cell's steps are planned and sized, by how many clients, over how many rounds."""
    mode: str = default("mode")
    duration_s: float = default("duration_s", "--duration", type=positive(float))
    precision: float = default("precision", "--precision", type=number(float, 0, 1, low_included=False))
    max_steps: int = default("max_steps")
    max_confirm_steps: int = default("max_confirm_steps")
    rounds: int = default("rounds", "--rounds", type=rounds_count)  # with auto_rounds, the first stage's
    auto_rounds: bool = default("auto_rounds")
    auto_max_rounds: int = default("auto_max_rounds")
    auto_cap_min: float = default("auto_cap_min", "--auto-cap-min", type=positive(float))
    turn_cycles: int = default("turn_cycles", "--turn-cycles", type=number(int, 0))
    turn_share: float = default("turn_share", "--turn-share", type=number(float, 0, 1, low_included=False))
    turn_step_s: float = default("turn_step_s", "--turn-step", type=positive(float))
    turn_pairs: str = default("turn_pairs", "--turn-pairs", choices=tuple(TURN_PAIRS))
    min_requests_per_step: int = default("min_requests_per_step")
    baseline_share: float = default("baseline_share")
    fd_budget: int = default("fd_budget")
    clients: int = default("clients", "--clients", type=number(int, 1))
    seed: int = 0
    step_timeout_s: float = default("step_timeout_s", "--step-timeout", type=positive(float))
    linear_rates: int = default("linear_rates", "--linear-rates", type=linear_rate_count)
    linear_low: float = default("linear_low")
    linear_high: float = default("linear_high")
    linear_stop_after: int = default("linear_stop_after")
    rates: tuple = default("rates", "--rates", type=offered_rates)  # [] in sweep.json: the plan's own rates
    reference_run: str = default("reference_run", "--reference")
    # {cell name: the reference run's figure}: what the linear rates bracketed, kept with the run.
    reference_figures: dict = field(default_factory=dict)
    connection: str = default("connection", "--conn", choices=CONNECTIONS)
    calls: int = default("calls", "--calls", type=number(int, 1))
    min_connections: int = default("min_connections")
    # Which httperf sends a POST: "auto" Debian's wherever it can send the body whole, "always" the lab's
    # large-body build (harness/drivers/httperf.py); set from the knob LARGE_BODY_HTTPERF.
    httperf_build: str = "auto"

    @property
    def keepalive(self):
        return self.connection == KEEPALIVE

    def requests(self, rate, duration_s=None):
        """How many requests a step at `rate` sends: its length's worth, never fewer than the floor."""
        return max(self.min_requests_per_step, round(rate * (duration_s or self.duration_s)))

    def step_load(self, rate, duration_s=None):
        """(requests, calls per connection) of a step at `rate`: a connection per request when
        connections close; kept alive, `calls` on each, fewer where that would open under
        `min_connections`, and the requests rounded up to whole connections."""
        requests = self.requests(rate, duration_s)
        if not self.keepalive:
            return requests, 1
        calls = max(1, min(self.calls, requests // self.min_connections))
        return -(-requests // calls) * calls, calls

    def timeout_for(self, profile):
        """httperf's --timeout before fd_budget shortens it: the plan's own, else the workload's."""
        return self.step_timeout_s or profile.timeout_s


@dataclass(frozen=True)
class Warmup:
    """When a cell, and a JIT server's JVM, count as warm."""
    warmup_cap_s: float = default("warmup_cap_s")
    warmup_windows: int = default("warmup_windows")
    warmup_tolerance: float = default("warmup_tolerance")
    warmup_counting_sds: float = default("warmup_counting_sds")
    jit_warmup_cap_s: float = default("jit_warmup_cap_s")
    jit_quiet_share: float = default("jit_quiet_share")
    jvm_warmup_cap_s: float = default("jvm_warmup_cap_s")


@dataclass(frozen=True)
class Gate:
    """After a step that did not pass: how long the target may take to answer, and the gate's checks."""
    recovery_wait_s: float = default("recovery_wait_s")
    gate_factor: float = default("gate_factor")
    gate_floor_ms: float = default("gate_floor_ms")
    gate_wait_s: float = default("gate_wait_s")
    gate_pause_s: float = default("gate_pause_s")
    gate_min_requests: int = default("gate_min_requests")


@dataclass(frozen=True)
class Disturbance:
    """When other work or a slower machine disturbed a step (harness/judge/disturbance.py and
    speed.py), how often such a step is redone, and how long the run waits for a quiet machine (a
    stopped cell's retry) or one back to speed (after a slower step); whether each round starts by
    reading the host's price list, which says what moved under a figure (harness/measure/prices.py)."""
    max_steal_pct: float = default("max_steal_pct", "--max-steal-pct", type=number(float, 0))
    max_other_pct: float = default("max_other_pct", "--max-other-pct", type=number(float, 0))
    max_redos: int = default("max_redos")
    quiet_wait_s: float = default("quiet_wait_s")
    quiet_check_s: float = default("quiet_check_s", "--quiet-check", type=number(float, 0, low_included=False))
    min_speed: float = default("min_speed", "--min-speed", type=number(float, 0, 1))
    slow_wait_s: float = default("slow_wait_s")
    price_list: bool = default("price_list", "--price-list", type=switch)

    @property
    def limits(self):
        return Limits(self.max_steal_pct, self.max_other_pct)


# The groups whose fields are knobs of their own name (sweep.json's options, the manifest's).
GROUPS = {"selection": Selection, "plan": Plan, "warmup": Warmup, "gate": Gate, "disturbance": Disturbance}


@dataclass(frozen=True)
class RunContext:
    selection: Selection
    plan: Plan
    warmup: Warmup
    gate: Gate
    disturbance: Disturbance
    pinning: Pinning
    thresholds: Thresholds
    topology: Topology
    presets: tuple = ()

    @classmethod
    def of(cls, apps, thresholds=Thresholds(), presets=(), client_cpus=None, server_cpus=None, db_cpus=None,
           topology=None, **knobs):
        """A context from knobs by their flat names (sweep.json's), the rest from sweep.json and the
        environment (the topology the knobs ask for, unless given); a name no group knows is a TypeError."""
        groups = {}
        for name, kind in GROUPS.items():
            own = {item.name for item in fields(kind)}
            groups[name] = kind(**{key: knobs.pop(key) for key in list(knobs) if key in own},
                                **({"apps": tuple(apps)} if kind is Selection else {}))
        if knobs:
            raise TypeError(f"unknown knobs: {', '.join(knobs)}")
        return cls(**groups, pinning=Pinning.from_knobs(client_cpus, server_cpus, db_cpus), thresholds=thresholds,
                   topology=topology or current_topology(), presets=tuple(presets))

    @classmethod
    def recorded(cls, options):
        """The context a run recorded (its manifest's options); sweep.json's today for what it did not."""
        known = {item.name for kind in (*GROUPS.values(), Pinning) for item in fields(kind)}
        values = {name: value for name, value in options.items() if name in known and name != "apps"}
        for name in ("engines", "workloads"):
            if name in values:
                values[name] = tuple(values[name])
        return cls.of(options["apps"], thresholds=Thresholds(**options.get("thresholds", {})), **values)

    def with_seed(self, seed):
        return replace(self, plan=replace(self.plan, seed=seed))

    def as_manifest(self):
        """The manifest's options: every knob by its flat name, as earlier runs recorded them."""
        flat = {}
        for name in (*GROUPS, "pinning"):
            flat.update(asdict(getattr(self, name)))
        return {**flat, "apps": list(self.selection.apps), "engines": list(self.selection.engines),
                "workloads": list(self.selection.workloads), "thresholds": asdict(self.thresholds),
                "presets": list(self.presets)}
