"""Where the servers' CPU went, as the report shows it (harness/run/profile.py's profiles): per cell
the components' shares, how the profile's total compares with the measured server CPU, the top
components in words for the bottleneck column, ICWS'08's breakdowns beside ours, what profiling cost,
and the data of the report's stacked bars. Pure: profiles in, rows and lines out."""
import statistics

from harness.judge.cpu_components import OTHER, rules, shares
from harness.results.store import read_tsv
from stack.settings import ROOT
from stack.workload_names import workload_title

ICWS_FILE = ROOT / "experiments" / "papers" / "icws08-breakdown.tsv"
ICWS_WORKLOAD = "echo-10"  # ICWS'08 profiled echoStruct with 10 structs


def columns():
    """profile.tsv's columns: a cell's figures, then a share per component of the rules (cpu_components.json)."""
    return ["app", "engine", "workload", "rate", "verdict", "measured_cpu_s", "profiled_cpu_s",
            "profiled_over_measured", "samples", *rules().components, "top"]


OVERHEAD_COLUMNS = ["cell", "pair", "without_cpu_us_per_reply", "with_cpu_us_per_reply", "ratio",
                    "without_reply_rate", "with_reply_rate", "without_verdict", "with_verdict"]
TOLERANCE = 0.05  # the profile's total against the measured server CPU
OTHER_MOST = 0.15  # what the rules leave unclassified, at most


def cell_parts(name):
    """(app, engine, workload) of a profile's cell, named as profile.json names it ("app/engine/workload")."""
    return tuple(name.split("/"))


def percent(share):
    return f"{share * 100:.0f} %"


def top_text(result, title, table=None, count=3):
    """The servers and components that took most of the profile, in words: "Tomcat 64 %, MariaDB
    21 %: JIT compiler 27 %, database server 21 %, web server 16 %"; title: a server's name as the
    run's registry gives it."""
    table = table or rules()
    breakdown = result["breakdown"]
    total = breakdown["seconds"]
    if not total:
        return "no samples"
    by_server = sorted(((sum(parts.values()), server) for server, parts in breakdown["servers"].items()), reverse=True)
    servers = ", ".join(f"{title(server) if server != 'softirq' else 'softirq'} "
                        f"{percent(seconds / total)}" for seconds, server in by_server[:2] if seconds / total >= 0.05)
    parts = ", ".join(f"{table.title(name)} {percent(share)}"
                      for name, share in list(shares(breakdown).items())[:count])
    return f"{servers}: {parts}"


def row(key, result, title, table=None):
    """A profile.tsv row: the cell, its step, the totals and each component's share in %."""
    table = table or rules()
    breakdown = result["breakdown"]
    found = shares(breakdown)
    return {"app": key.app, "engine": key.engine, "workload": key.workload, "rate": result["rate"],
            "verdict": result["verdict"], "measured_cpu_s": result["measured_cpu_s"],
            "profiled_cpu_s": breakdown["seconds"], "profiled_over_measured": result["profiled_over_measured"],
            "samples": breakdown["samples"],
            **{name: round(found.get(name, 0.0) * 100, 1) for name in table.components},
            "top": top_text(result, title, table)}


def trouble(result):
    """What makes a profile's breakdown doubtful, in words, or None: its total more than 5 % off the
    measured server CPU, or more than 15 % of it left unclassified."""
    problems = []
    ratio = result.get("profiled_over_measured")
    if ratio is None or abs(ratio - 1) > TOLERANCE:
        problems.append(f"profiled / measured CPU {ratio}")
    other = shares(result["breakdown"]).get(OTHER, 0.0)
    if other > OTHER_MOST:
        problems.append(f"{percent(other)} unclassified")
    return "; ".join(problems) or None


def bottleneck_parts(profiles, cell, title):
    """The bottleneck column's addition for a cell ("app/engine/workload") with a profile: its top
    components; "" without."""
    result = profiles.get(cell)
    return top_text(result, title) if result and "breakdown" in result else ""


def overhead_rows(overheads):
    """overhead.tsv's rows: each pair's server CPU per reply without and with perf, and their ratio."""
    rows = []
    for cell, pairs in overheads.items():
        for number, pair in enumerate(pairs, start=1):
            without, with_ = pair["without"], pair["with"]
            ratio = (round(with_["cpu_us_per_reply"] / without["cpu_us_per_reply"], 3)
                     if with_["cpu_us_per_reply"] and without["cpu_us_per_reply"] else None)
            rows.append({"cell": cell, "pair": number, "without_cpu_us_per_reply": without["cpu_us_per_reply"],
                         "with_cpu_us_per_reply": with_["cpu_us_per_reply"], "ratio": ratio,
                         "without_reply_rate": without["reply_rate"], "with_reply_rate": with_["reply_rate"],
                         "without_verdict": without["verdict"], "with_verdict": with_["verdict"]})
    return rows


def overhead_summary(rows):
    """{cell: (median ratio of server CPU per reply with perf over without, lowest, highest, pairs)}."""
    found = {}
    for cell in dict.fromkeys(row["cell"] for row in rows):
        ratios = [row["ratio"] for row in rows if row["cell"] == cell and row["ratio"] is not None]
        if ratios:
            found[cell] = (round(statistics.median(ratios), 3), min(ratios), max(ratios), len(ratios))
    return found


def icws_rows(paper_rows=None):
    """{app: (the paper's setup, {component: percent})} of ICWS'08's breakdowns by component (Figs.
    10-13; Fig. 9 splits by process) from experiments/papers/icws08-breakdown.tsv."""
    found = {}
    for each in read_tsv(ICWS_FILE) if paper_rows is None else paper_rows:
        if each["figure"] == "9":
            continue
        setup, parts = found.setdefault(each["app"], (each["paper_setup"], {}))
        parts[each["component"]] = parts.get(each["component"], 0.0) + float(each["percent"])
    return found


def icws_lines(profiles, title, paper_rows=None):
    """ICWS'08's breakdowns beside ours, for the apps profiled at echo-10 (their echoStruct 10)."""
    table, papers = rules(), icws_rows(paper_rows)
    found = [(app, name) for app in papers for name in profiles
             if cell_parts(name)[::2] == (app, ICWS_WORKLOAD) and "breakdown" in profiles[name]]
    if not found:
        return []
    lines = ["### ICWS'08's breakdown beside ours", "",
             f"echoStruct with 10 structs there, {workload_title(ICWS_WORKLOAD, short=True)} here; no database in "
             "either. What differs: their PHP 5.2.5 and IBM J9 against PHP 8.2 and OpenJDK 17, their 4-core "
             "machine with a NIC (e1000) against loopback on one server CPU, and their profiler's libraries "
             "against our components; their Axis2/Java 57 % of compiled code is app, SOAP engine and XML at "
             "once (their profiler could not split it), so set it against our app, XML and runtime together.", ""]
    for app, name in found:
        setup, theirs = papers[app]
        ours = shares(profiles[name]["breakdown"])
        lines += [f"{title(app)}, beside ICWS'08's {setup}:", "",
                  "| component | ICWS'08 % | ours % |", "|---|---:|---:|"]
        for component in table.components:
            if component in theirs or ours.get(component, 0) >= 0.01:
                paper = f"{theirs[component]:g}" if component in theirs else "-"
                lines.append(f"| {table.title(component)} | {paper} | {ours.get(component, 0) * 100:.0f} |")
        lines.append("")
    return lines


def summary_lines(profiles, title):
    """summary.md's section on the run's profiles: a table of every profiled cell's shares."""
    profiled = {name: result for name, result in profiles.items() if "breakdown" in result}
    if not profiled:
        return []
    table = rules()
    present = [name for name in table.components
               if any(shares(result["breakdown"]).get(name, 0) > 0 for result in profiled.values())]
    lines = ["## Where the servers' CPU goes", "",
             "One extra step per cell at its saturation rate, after the run's rounds, under `perf record` "
             "(cpu-clock, 999 Hz, call chains) on the servers' CPUs (`make profile`, docs/profiles.md). Each "
             "sample is put in a component by harness/judge/cpu_components.json; shares are of the servers' CPU "
             "in the profile; the servers' own samples are set against their processes' CPU time as the step's "
             "monitors measured it (the server CPU column above). Flame graphs: profile/<cell>/flame.svg.", "",
             "| cell | offered req/s | profiled / measured CPU | " + " | ".join(table.title(name) for name in present)
             + " | doubtful |", "|---|---:|---:|" + "---:|" * len(present) + "---|"]
    for name, result in profiled.items():
        found = shares(result["breakdown"])
        app, engine, workload = cell_parts(name)
        lines.append(f"| {title(app)}, {engine}, {workload_title(workload, short=True)} | {result['rate']:g} | "
                     f"{result['profiled_over_measured']} | "
                     + " | ".join(f"{found.get(part, 0) * 100:.0f}" for part in present)
                     + f" | {trouble(result) or '-'} |")
    lines.append("")
    overheads = {name: result["overhead"] for name, result in profiles.items() if result.get("overhead")}
    if overheads:
        lines += ["What profiling costs the servers (`make profile OVERHEAD=N`): server CPU per reply with perf "
                  "over without, the same step in alternating order, median [lowest, highest] of N pairs:", ""]
        lines += [f"- {cell}: {median} [{low}, {high}] over {count} pairs"
                  for cell, (median, low, high, count) in overhead_summary(overhead_rows(overheads)).items()]
        lines.append("")
    return lines + icws_lines(profiled, title)


def bars_data(profiles, title):
    """The report's stacked bars: a header of the components' titles, then a row per profiled cell
    (its label, then each component's share in %)."""
    table = rules()
    lines = ["cell\t" + "\t".join(f'"{table.title(name)}"' for name in table.components)]
    for name, result in profiles.items():
        if "breakdown" not in result:
            continue
        app, engine, workload = cell_parts(name)
        found = shares(result["breakdown"])
        label = f"{title(app)} {engine[:1].upper()} {workload_title(workload, short=True)}"
        lines.append(f'"{label}"\t' + "\t".join(f"{found.get(part, 0) * 100:.1f}" for part in table.components))
    return "\n".join(lines) + "\n"
