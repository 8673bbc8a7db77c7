"""The records a run is made of: one judged step, one cell's state, one cell's summary. Typed here,
stored as TSV and JSON by `store`; the names of verdicts and statuses are defined once, here."""
from dataclasses import asdict, dataclass, field, fields

from harness.results.figures import reply_time_ms

# The verdict of one step. A disturbed step (other work shared the lab's CPUs) is not judged. A
# client-limited step measured the client, not the server (httperf could not keep the offered rate,
# or ran out of descriptors or ports); results files have named it "invalid" since the first format.
CLIENT_LIMITED, PASS, FAIL, DISTURBED = "invalid", "pass", "fail", "disturbed"
VERDICTS = (CLIENT_LIMITED, PASS, FAIL, DISTURBED)

# The status of one cell.
LOCATED = "located"            # a passing step with a failing one just above it
CLIENT_BOUND = "client-bound"  # the client ran out first: the figure is a lower bound
PLAN_LIMIT = "plan-limit"      # the plan stopped first (steps, confirmations, maximum): a lower bound
NO_PASS = "no-pass"            # not even the lowest rate passed
WRONG_ANSWER = "wrong-answer"  # the target's answer differed from the database: not measured
UNREACHABLE = "unreachable"    # the target never answered: not measured
WORK_MISSING = "work-missing"  # its replies skipped the database work declared: no figure of the app's
TOO_DISTURBED = "too-disturbed"  # other work stopped the cell on its visit and its retry: not measured
LOWER_BOUND_STATUSES = (CLIENT_BOUND, PLAN_LIMIT)

# A server's peak resident memory over a step: the figure that marks a server's columns.
RSS_SUFFIX = "_rss_peak_mb"

# What a reply cost, split (CellSummary's *_per_reply_saturation, Step.costs_per_reply): name ->
# (whose: "servers", a suffix summed over every lab server's figures, or "client", its figures
# summed; those figures; the scale to the unit). The servers' from /proc
# (harness/measure/monitors.py), the client's CPU from httperf's summary, its faults and switches
# from its rusage (harness/measure/load.py).
COSTS = {
    "server_user_ms_per_reply": ("servers", ("_user_s",), 1000),
    "server_system_ms_per_reply": ("servers", ("_system_s",), 1000),
    "server_minflt_per_reply": ("servers", ("_minflt",), 1),
    "server_vcsw_per_reply": ("servers", ("_vcsw",), 1),
    "server_ivcsw_per_reply": ("servers", ("_ivcsw",), 1),
    "client_cpu_ms_per_reply": ("client", ("client_cpu_user_s", "client_cpu_system_s"), 1000),
    "client_minflt_per_reply": ("client", ("client_minflt",), 1),
    "client_vcsw_per_reply": ("client", ("client_vcsw",), 1),
    "client_ivcsw_per_reply": ("client", ("client_ivcsw",), 1),
}

# The database's work a step's replies caused, by MariaDB's own count (harness/measure/mariadb_status.py):
# name -> the step's column divided by its 2xx replies (database_work_per_reply). The commands beside
# the SELECT are what each app declares it sends (the registry's `commands`).
DATABASE_COMMANDS = {"connections": "db_connections", "prepares": "db_prepares", "executes": "db_executes",
                     "statement_closes": "db_statement_closes", "statement_resets": "db_statement_resets",
                     "pings": "db_pings", "session_sets": "db_session_sets"}
DATABASE_WORK = {"selects": "db_selects", "rows": "db_rows_read", "updates": "db_updates",
                 "rows_changed": "db_rows_changed", **DATABASE_COMMANDS}


# What the writes waited for, per 2xx reply (database_waits_per_reply): MariaDB's table and row lock
# waits, its row locks' milliseconds and InnoDB's fsyncs, and the flushes the disk under its data
# completed (harness/measure/diskstats.py).
DATABASE_WAITS = {"table_lock_waits": "db_table_lock_waits", "row_lock_waits": "db_row_lock_waits",
                  "row_lock_ms": "db_row_lock_ms", "fsyncs": "db_fsyncs", "disk_flushes": "db_disk_flushes"}


def answered(figures):
    """The replies that owe their workload's database work: the 2xx ones (a refused request or a
    database outage's 503 may stop before its SELECT); every reply where a driver reports no statuses."""
    return figures.get("status_2xx", figures.get("replies")) or 0


def database_work_per_reply(figures):
    """{DATABASE_WORK's name: a step's count per 2xx reply}, those its figures hold; {} when it had no
    such reply or MariaDB was not read."""
    replies = answered(figures)
    if not replies:
        return {}
    return {name: round(figures[column] / replies, 4) for name, column in DATABASE_WORK.items() if column in figures}


def database_waits_per_reply(figures):
    """{DATABASE_WAITS' name: a step's count per 2xx reply}, those its figures hold; {} without a 2xx reply."""
    replies = answered(figures)
    if not replies:
        return {}
    return {name: round(figures[column] / replies, 4) for name, column in DATABASE_WAITS.items() if column in figures}


# The role of a step outside the plan: the reply time at low load.
BASELINE = "baseline"


@dataclass(frozen=True, order=True)
class CellKey:
    app: str
    engine: str
    workload: str

    @property
    def name(self):
        """The cell's folder name under cells/."""
        return f"{self.app}-{self.engine}-{self.workload}"

    def __str__(self):
        return f"{self.app}/{self.engine}/{self.workload}"


@dataclass(frozen=True, order=True)
class Visit:
    """One measurement of a cell: its round, and which of the round's measurements of it (the A/A
    control cell is measured twice a round; every other cell once)."""
    key: CellKey
    round: int = 1
    replica: int = 1

    def __str__(self):
        return f"{self.key} round {self.round}" + (f" (measurement {self.replica})" if self.replica > 1 else "")


def coerce_numbers(record):
    """Numbers as their declared type, so that a record written, read and written again is the same
    text (2 and 2.0 are the same timeout, not the same bytes)."""
    for item in fields(record):
        value = getattr(record, item.name)
        if value is not None and item.type in (int, float) and not isinstance(value, bool):
            setattr(record, item.name, item.type(value))


@dataclass
class Step:
    """One httperf run at one offered rate, judged. `figures` holds every number measured during it:
    httperf's parsed summary and the servers' CPU and memory, keyed by column name."""
    step: int
    offered_rate: float
    timeout_s: float
    num_conns: int
    verdict: str
    reason: str
    raw: str
    round: int = 1
    role: str = ""
    killed: bool = False
    wall_s: float = None
    port_wait_s: float = None
    issue_rate: float = None
    # Why its replies fell short of their database work (harness/judge/database_work.py), or "".
    work_missing: str = ""
    figures: dict = field(default_factory=dict)

    def __post_init__(self):
        coerce_numbers(self)
        self.figures = {name: float(value) for name, value in self.figures.items()}

    @property
    def reply_rate(self):
        return self.figures.get("reply_rate")

    @property
    def reply_time_ms(self):
        return reply_time_ms(self.figures)

    @property
    def response_ms(self):
        """httperf's response time: request sent to the reply's first byte (the 2006 study's
        "response time"); the reply time adds the transfer to the last byte."""
        return self.figures.get("response_time_ms")

    @property
    def transfer_ms(self):
        return self.figures.get("transfer_time_ms")

    @property
    def servers(self):
        """The lab servers sampled during the step: those with a peak memory figure (the harness's
        own figures, such as other processes' CPU, have none)."""
        return [name[:-len(RSS_SUFFIX)] for name in self.figures if name.endswith(RSS_SUFFIX)]

    def server_total(self, suffix):
        """A server figure summed over every lab server (e.g. suffix "_cpu_s")."""
        return sum(self.figures.get(f"{server}{suffix}") or 0.0 for server in self.servers)

    def database_work(self):
        """{DATABASE_WORK's name: per 2xx reply} as MariaDB counted them, those read."""
        return database_work_per_reply(self.figures)

    def costs_per_reply(self):
        """{COSTS' name: what one reply cost} over the step, those its figures hold (none without
        replies)."""
        replies = self.figures.get("replies")
        found = {}
        for name, (whose, figures, scale) in COSTS.items():
            names = [f"{server}{figures[0]}" for server in self.servers] if whose == "servers" else figures
            if replies and names and all(each in self.figures for each in names):
                found[name] = round(scale * sum(self.figures[each] for each in names) / replies, 4)
        return found


@dataclass
class CellState:
    """cell.json: what happened to a cell besides its steps."""
    app: str
    engine: str
    workload: str
    round: int = 1
    replica: int = 1
    events: list = field(default_factory=list)
    restarts: int = 0
    gate_checks: int = 0
    done: bool = False
    verification: str = None
    warmup: dict = None
    probe: dict = None
    # Set when the cell could not be measured: {"status": UNREACHABLE, WRONG_ANSWER or TOO_DISTURBED, "note": why}.
    not_measured: dict = None
    # How often disturbed steps stopped the cell (it is retried once, later in its round).
    disturbed_stops: int = 0
    # Set when the machine stayed slower than its reference past slow_wait_s: {"from_step", "speed", "reason"}.
    slower_machine: dict = None
    # Seconds the visit took, its warm-up to its last step: what later runs' ETAs are planned from.
    wall_s: float = None

    @classmethod
    def from_json(cls, data):
        known = {item.name for item in fields(cls)}
        return cls(**{key: value for key, value in data.items() if key in known})

    def to_json(self):
        return {key: value for key, value in asdict(self).items() if value is not None}


@dataclass
class CellSummary:
    """One row of saturation.tsv."""
    app: str
    engine: str
    workload: str
    status: str
    saturation_rps: float = None
    saturation_offered: float = None
    overload_offered: float = None
    reply_ms_low: float = None
    reply_ms_saturation: float = None
    server_cpu_s_saturation: float = None
    server_rss_mb_saturation: float = None
    steps: int = 0
    restarts: int = 0
    note: str = ""
    round: int = 1
    disturbed_steps: int = 0
    p50_ms_saturation: float = None
    p99_ms_saturation: float = None
    replica: int = 1
    # The machine's speed at saturation (the step's canary speed) and what a reply cost the servers then.
    machine_speed_saturation: float = None
    server_cpu_ms_per_reply_saturation: float = None
    # The reply times' two parts as httperf prints them: to the first byte (response) and on to the
    # last (transfer), at the lowest passing rate and at saturation.
    response_ms_low: float = None
    transfer_ms_low: float = None
    response_ms_saturation: float = None
    transfer_ms_saturation: float = None
    # What a reply cost at saturation, split (COSTS): user and system CPU, faults and context switches.
    server_user_ms_per_reply_saturation: float = None
    server_system_ms_per_reply_saturation: float = None
    server_minflt_per_reply_saturation: float = None
    server_vcsw_per_reply_saturation: float = None
    server_ivcsw_per_reply_saturation: float = None
    client_cpu_ms_per_reply_saturation: float = None
    client_minflt_per_reply_saturation: float = None
    client_vcsw_per_reply_saturation: float = None
    client_ivcsw_per_reply_saturation: float = None
    # The database's work per 2xx reply at saturation, by MariaDB's own count (harness/judge/database_work.py):
    # DATABASE_WORK's names, and how many of the cell's steps fell short of the work declared.
    db_selects_per_reply_saturation: float = None
    db_rows_per_reply_saturation: float = None
    db_updates_per_reply_saturation: float = None
    db_rows_changed_per_reply_saturation: float = None
    db_connections_per_reply_saturation: float = None
    db_prepares_per_reply_saturation: float = None
    db_executes_per_reply_saturation: float = None
    db_statement_closes_per_reply_saturation: float = None
    db_statement_resets_per_reply_saturation: float = None
    db_pings_per_reply_saturation: float = None
    db_session_sets_per_reply_saturation: float = None
    work_missing_steps: int = 0

    def __post_init__(self):
        coerce_numbers(self)

    def costs(self):
        """{COSTS' name: its figure at saturation} of those this row holds."""
        return {name: value for name in COSTS if (value := getattr(self, f"{name}_saturation")) is not None}

    @property
    def key(self):
        return CellKey(self.app, self.engine, self.workload)

    @property
    def visit(self):
        return Visit(self.key, self.round, self.replica)

    @property
    def lower_bound(self):
        return self.status in LOWER_BOUND_STATUSES
