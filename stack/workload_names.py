"""The workloads' names and what they mean: the declared ones (single, range...), the payload
workload's rows-N, a mix's mixed-P, a repeating workload's updates-N, the SOAP papers' echo-N and quote. Pure over contract/targets.json (stack/targets.py);
how each app is asked for one is the registry's (stack/registry.py)."""
from stack import targets

SIZE_PARAMETER = "count"


def size_workload():
    """The payload workload (the first N rows by id), outside the default workloads: the size sweep
    names its cells' workloads "rows-N", one per count."""
    return targets.registry()["size_workload"]


ECHO_PARAMETER = "items"
QUOTE_WORKLOAD = "quote"


def mixes(base):
    """{"writes", "reads", "parameter"}: the two declared workloads whose requests a mixing workload
    (mixed) interleaves, and the parameter of its name's percentage; None for the others."""
    return targets.registry()["workloads"].get(base, {}).get("mixes")


def mix(workload):
    """(its writes' workload, its reads', the share of writes in percent) of a mixing workload's name
    ("mixed-10": ("update", "single", 10)); None for the others."""
    base, fixed = parse_workload(workload)
    declared = mixes(base)
    if not declared or declared["parameter"] not in fixed:
        return None
    return declared["writes"], declared["reads"], int(fixed[declared["parameter"]])


def repeats(base):
    """{"parameter", "most", "ids"}: how a repeating workload (updates) names its repetitions, their
    most, and the ids the app draws for them; None for the others."""
    return targets.registry()["workloads"].get(base, {}).get("repeats")


def repetitions(workload):
    """How many repetitions a repeating workload's name asks for ("updates-20": 20); None for the others."""
    base, fixed = parse_workload(workload)
    declared = repeats(base)
    return int(fixed[declared["parameter"]]) if declared and declared["parameter"] in fixed else None


def is_write_place(place, share):
    """Whether the request at `place` (from 0) of a mix with `share` percent writes is a write: the
    writes spread evenly, so that any run of n requests holds floor(n x share / 100) of them, or one
    more."""
    return (place + 1) * share // 100 > place * share // 100


def echo_workloads():
    """The SOAP papers' workloads: "echo-10" sends 10 structs; "quote" takes no count."""
    return targets.registry()["echo_workloads"]


def size_kinds():
    """The workloads a size sweep grows by N: the payload workload (rows), then the echoes that take
    a count."""
    return (size_workload(), *[kind for kind, declared in echo_workloads().items() if "max_items" in declared])


def largest_count(kind):
    """The contract's cap on N for a kind of size_kinds (the apps refuse more)."""
    return targets.registry()["size_workload_max"] if kind == size_workload() else echo_workloads()[kind]["max_items"]


def sized(count, kind=None):
    """The workload name of a kind of size_kinds (the payload workload's unless given) at N: rows-100, echo-10."""
    return f"{kind or size_workload()}-{int(count)}"


def size_of(workload):
    """(kind, N) of a sized workload ("echo-10": ("echo", 10)); None for the others (quote too)."""
    base, fixed = parse_workload(workload)
    count = fixed.get(SIZE_PARAMETER) or fixed.get(ECHO_PARAMETER)
    return (base, int(count)) if count else None


def parse_workload(workload):
    """(the registry's workload, its fixed parameters): "rows-100" is ("rows", {"count": "100"}),
    "echo-10" ("echo", {"items": "10"})."""
    base, _, count = workload.partition("-")
    if base == size_workload() and count.isdigit():
        return base, {SIZE_PARAMETER: count}
    if mixes(base) and count.isdigit() and 0 <= int(count) <= 100:
        return base, {mixes(base)["parameter"]: str(int(count))}
    if repeats(base) and count.isdigit() and 1 <= int(count) <= repeats(base)["most"]:
        return base, {repeats(base)["parameter"]: str(int(count))}
    if base in echo_workloads() and base != QUOTE_WORKLOAD and count.isdigit() and int(count) > 0:
        return base, {ECHO_PARAMETER: count}
    return workload, {}


def is_echo(workload):
    base, fixed = parse_workload(workload)
    return base == QUOTE_WORKLOAD or ECHO_PARAMETER in fixed


def row_count(workload):
    """How many rows a sized workload asks for; None for the others."""
    count = parse_workload(workload)[1].get(SIZE_PARAMETER)
    return int(count) if count else None


def item_count(workload):
    """How many items an echo workload sends; None for the others (and quote)."""
    count = parse_workload(workload)[1].get(ECHO_PARAMETER)
    return int(count) if count else None


def is_workload(workload):
    """Whether the name is a workload's; a mix (mixed) only with its percentage (mixed-10), a
    repeating workload (updates) only with its count (updates-20)."""
    base, fixed = parse_workload(workload)
    if mixes(base) or repeats(base):
        return bool(fixed)
    return base in targets.registry()["workloads"] or bool(fixed) or is_echo(workload)


def workloads():
    """The workloads every app answers and a run takes unless told, in report order: the reads (the
    payload workload's rows-N apart, and the write workloads, which a run takes when named)."""
    return [name for name, declared in targets.registry()["workloads"].items() if not declared.get("writes")]


def write_workloads():
    """The declared workloads that write (update, mixed): each raises the version of the rows it names."""
    return [name for name, declared in targets.registry()["workloads"].items() if declared.get("writes")]


def write_workload_names():
    """How a run names the write workloads: update; a mix with its percentage's placeholder, mixed-P;
    a repeating workload with its count's, updates-N."""
    return [f"{name}-P" if mixes(name) else f"{name}-N" if repeats(name) else name for name in write_workloads()]


def writes(workload):
    return parse_workload(workload)[0] in write_workloads()


def answer_check(workload):
    """How a workload's answer is checked before load (harness/run/verify.py's ANSWER_CHECKS): its
    declaration's `check`, rows unless it names another; a mix's is its writes' workload's, whose
    request the sweep verifies; an echo's, echo."""
    if is_echo(workload):
        return "echo"
    mixed = mix(workload)
    base = mixed[0] if mixed else parse_workload(workload)[0]
    return targets.registry()["workloads"].get(base, {}).get("check", "rows")


def drawn(workload):
    """{"parameter", "from", "to", "draws"}: the parameter whose value each of a declared workload's
    requests draws (update's id), or None where every request takes the defaults."""
    return targets.registry()["workloads"].get(parse_workload(workload)[0], {}).get("drawn")


def kind_title(kind):
    """How reports name a kind of size_kinds against N: "the first N rows by id", "echoStructs of N structs"."""
    if kind == size_workload():
        return "the first N rows by id"
    return echo_workloads()[kind]["title"].format(n="N")


def workload_title(workload, short=False):
    """How reports name a workload: its declaration's title (short_title when `short`), or for the
    payload workload its row count."""
    count = row_count(workload)
    if count is not None:
        return f"first {count:,} row{'s' if count > 1 else ''} by id"
    base, fixed = parse_workload(workload)
    if is_echo(workload):
        title = echo_workloads()[base]["short_title" if short else "title"]
        return title.format(n=f"{int(fixed.get(ECHO_PARAMETER, 0)):,}")
    declared = targets.registry()["workloads"].get(base, {})
    return declared.get("short_title" if short else "title", workload).format(**fixed)


def selects(workload):
    """(column, operator, the defaults' parameter) of the rows a declared workload returns (a mix's:
    its writes', whose request the sweep verifies)."""
    mixed = mix(workload)
    declared = targets.registry()["workloads"][mixed[0] if mixed else workload]["selects"]
    return declared["column"], declared["operator"], declared["parameter"]


def baseline_workloads():
    """The workloads a baseline app serves (its server's constant-row page answers these only)."""
    return [workload for workload in workloads()
            if any(spec["kind"] == "baseline" and workload in spec["workloads"] for spec in targets.registry()["apps"].values())]


def declared_work(workload):
    """{"selects": n, "rows": n, "updates": n, "rows_changed": n}: what one reply of the workload must
    cost the database, by its declaration (contract/targets.json's work; rows-N reads N rows per
    size_workload_work; a mix owes its two workloads' work in its shares, fractions of a count; a
    repeating workload its work once a repetition; a workload that declares no writes owes none);
    None where none is declared: an echo reads no database."""
    if is_echo(workload):
        return None
    base, fixed = parse_workload(workload)
    if SIZE_PARAMETER in fixed:
        work = targets.registry()["size_workload_work"]
        return {"selects": work["selects"], "rows": work["rows_per_count"] * int(fixed[SIZE_PARAMETER]), **NO_WRITES}
    mixed = mix(workload)
    if mixed:
        writes, reads, share = mixed
        return {name: (share * count + (100 - share) * declared_work(reads)[name]) / 100
                for name, count in declared_work(writes).items()}
    work = targets.registry()["workloads"].get(base, {}).get("work")
    times = repetitions(workload) or 1
    return {**NO_WRITES, **{name: count * times for name, count in work.items()}} if work else None


# What a workload that declares no writes owes of them.
NO_WRITES = {"updates": 0, "rows_changed": 0}
