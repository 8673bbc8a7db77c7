"""The SOAP phases (`make soap-phases`, harness/run/soap_phases.py) as the report shows them: a table
per workload of each engine's un-marshalling, logic and marshalling against N, and the plot's data. Pure."""
from harness.measure.soap_phases import MEMORY, PHASES
from stack.workload_names import kind_title

COLUMNS = ["app", "workload", "n", "samples", *PHASES, "total_us", "round_trip_us",
           *(f"{phase[:-3]}_{end}_us" for phase in (*PHASES, "total_us") for end in ("p10", "p90")),
           "redone", "disturbed", *MEMORY]


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


def summary_lines(rows, title):
    """summary.md's section, or [] without phases. title: an app's name as the report gives it."""
    if not rows:
        return []
    lines = ["## Where a SOAP request's time goes: un-marshal, logic, marshal (`make soap-phases`)", "",
             "Per engine and N, one request at a time after a warm-up: the median un-marshalling (the engine "
             "receiving the request to its business logic starting), business logic and marshalling (the logic's "
             "end to the reply sent), in ms as each engine's own hooks timed them, and in brackets the round trip "
             "the client measured (the Infosys paper's four times; docs/soap-engines.md). rows-N reads InnoDB; the "
             "echoes read no database.", ""]
    kinds = by_kind(rows)
    for kind, apps in kinds.items():
        counts = sorted({n for by_n in apps.values() for n in by_n})
        lines += [f"### {kind}-N: {kind_title(kind)}", "",
                  "| engine | " + " | ".join(f"N = {count:,}" for count in counts) + " |",
                  "|---|" + "---:|" * len(counts)]
        lines += [f"| {title(app)} | " + " | ".join(cell(by_n.get(count)) for count in counts) + " |"
                  for app, by_n in apps.items()]
        lines.append("")
    disturbed = [row for row in rows if row.get("disturbed")]
    if disturbed:
        lines += ["Other work shared the lab's CPUs during these, still after their redos (their figures measured "
                  "the machine too): " + "; ".join(f"{title(row['app'])} {row['workload']}-{row['n']} "
                                                   f"({row['disturbed']})" for row in disturbed) + ".", ""]
    lines += ["The Infosys paper's own figures, under its procedure and with its Employee records, beside ours: "
              "`make reproduce PAPER=infosys`.", ""]
    return lines


def series(rows, kind):
    """{app: gnuplot's data for one workload kind}: per N, the three phases' medians in ms."""
    return {app: "".join(f"{n} " + " ".join(f"{number(row[phase]) / 1000:.4f}" for phase in PHASES) + "\n"
                         for n, row in sorted(by_n.items()))
            for app, by_n in by_kind(rows).get(kind, {}).items()}
