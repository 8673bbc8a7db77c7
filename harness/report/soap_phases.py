"""The SOAP phases (`make soap-phases`, harness/run/soap_phases.py) as the report shows them: a table
per workload of each engine's un-marshalling, logic and marshalling against N, the Infosys paper's
ratios beside ours, and the plot's data. Pure."""
from harness.measure.soap_phases import PHASES

COLUMNS = ["app", "workload", "n", "samples", *PHASES, "total_us", "round_trip_us",
           *(f"{phase[:-3]}_{end}_us" for phase in (*PHASES, "total_us") for end in ("p10", "p90"))]

WORKLOAD_TITLES = {"rows": "rows-N: the first N rows by id (a small request, a reply of N rows, InnoDB)",
                   "echo": "echo-N: echoStructs of N structs (N sent, the same N returned, no database)"}

# The Infosys paper's ratios (shared/reference/004_..., "Performance Metrics"): its engines' times
# over another's, averaged over 1,000-5,000 Employee records echoed. The lab's nearest pair of engines
# for each, and what differs: XFire is CXF's predecessor, and the lab's Java engines bind with JAXB
# (CXF) and ADB (Axis2), not JiBX.
INFOSYS = [
    ("un-marshalling, Axis 1.4 over XFire + JiBX", 12.0, "unmarshal_us", "soap", "soap-cxf", "CXF + JAXB"),
    ("marshalling, Axis 1.4 over XFire + JiBX", 4.0, "marshal_us", "soap", "soap-cxf", "CXF + JAXB"),
    ("round trip, Axis 1.4 over Axis2 + JiBX", 4.37, "round_trip_us", "soap", "soap-axis2", "Axis2 + ADB"),
    ("round trip, XFire + JAXB over Axis2 + JiBX", 2.43, "round_trip_us", "soap-cxf", "soap-axis2",
     "CXF + JAXB over Axis2 + ADB"),
]


def number(value):
    return float(value) if value not in (None, "") else None


def by_kind(rows):
    """{workload kind: {app: {N: row}}} in the rows' order."""
    kinds = {}
    for row in rows:
        kinds.setdefault(row["workload"], {}).setdefault(row["app"], {})[int(row["n"])] = row
    return kinds


def cell(row):
    """"un-marshal / logic / marshal (round trip)" in ms."""
    if row is None:
        return "-"
    parts = " / ".join(f"{number(row[phase]) / 1000:.2f}" for phase in PHASES)
    return f"{parts} ({number(row['round_trip_us']) / 1000:.2f})"


def ratios(rows, largest_n):
    """Infosys's ratio and ours, at the largest N both echoes have: (what, theirs, ours, our pair)."""
    echo = by_kind(rows).get("echo", {})
    found = []
    for what, theirs, phase, slower, faster, pair in INFOSYS:
        slow, fast = (echo.get(app, {}).get(largest_n) for app in (slower, faster))
        ours = number(slow[phase]) / number(fast[phase]) if slow and fast and number(fast[phase]) else None
        found.append((what, theirs, ours, pair))
    return found


def summary_lines(rows, title):
    """summary.md's section, or [] without phases. title: an app's name as the report gives it."""
    if not rows:
        return []
    lines = ["## Where a SOAP request's time goes: un-marshal, logic, marshal (`make soap-phases`)", "",
             "Per engine and N, one request at a time after a warm-up: the median un-marshalling (the engine "
             "receiving the request to its business logic starting), business logic and marshalling (the logic's "
             "end to the reply sent), in ms as each engine's own hooks timed them, and in brackets the round trip "
             "the client measured (the Infosys paper's four times; docs/soap-engines.md).", ""]
    kinds = by_kind(rows)
    for kind, apps in kinds.items():
        counts = sorted({n for by_n in apps.values() for n in by_n})
        lines += [f"### {WORKLOAD_TITLES.get(kind, kind)}", "",
                  "| engine | " + " | ".join(f"N = {count:,}" for count in counts) + " |",
                  "|---|" + "---:|" * len(counts)]
        lines += [f"| {title(app)} | " + " | ".join(cell(by_n.get(count)) for count in counts) + " |"
                  for app, by_n in apps.items()]
        lines.append("")
    largest = max((int(row["n"]) for row in rows if row["workload"] == "echo"), default=None)
    if largest:
        lines += [f"Beside the Infosys paper's ratios (its averages over 1,000-5,000 echoed records; ours at "
                  f"echo-{largest:,}):", "", "| ratio | Infosys | ours | our engines |", "|---|---:|---:|---|"]
        lines += [f"| {what} | {theirs:g} | {f'{ours:.2f}' if ours else '-'} | {pair} |"
                  for what, theirs, ours, pair in ratios(rows, largest)]
        lines.append("")
    return lines


def series(rows, kind):
    """{app: gnuplot's data for one workload kind}: per N, the three phases' medians in ms."""
    return {app: "".join(f"{n} " + " ".join(f"{number(row[phase]) / 1000:.4f}" for phase in PHASES) + "\n"
                         for n, row in sorted(by_n.items()))
            for app, by_n in by_kind(rows).get(kind, {}).items()}
