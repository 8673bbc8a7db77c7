"""The tables that set apps against each other: a compared set's (registry.comparisons), each app's
figure and its ratio to the set's first app's; and every pair of apps measured in the same rounds,
with whether their difference is real. Pure: a view and summary rows in, summary.md's lines out."""
from harness.report.series import ratio_interval_text, ratio_text, short_interval, throughput_text
from harness.results.rounds import pair_ratios
from stack.registry import NO_ENGINE
from stack.workload_names import baseline_workloads, workload_title


def comparison_lines(view, rows, set_name, declared):
    """One compared set (registry.comparisons) in one table: every workload and engine, each app's
    figure with its interval and its ratio to the set's first app's (for the pooling set: PHP per
    request against pooled PHP and the pooled servlet)."""
    members = [app for app in view.manifest.set_members(set_name) if app in view.apps]
    if len(members) < 2:
        return []
    groups = [(workload, engine) for workload in view.present("workloads") for engine in view.present("engines")
              if engine != NO_ENGINE]
    by_cell = {(row["workload"], row["engine"], row["app"]): row for row in rows}
    against_baseline = baseline_workloads()
    reference = members[0]
    lines = [f"## {declared['title']}", "",
             f"{declared['about']} Throughput (req/s, median over {view.rounds} round(s), "
             f"its interval where rounds give one), then the ratio to {view.title(reference)} in the same "
             "workload and engine; last, each app's single-row figure as a share of its own server's "
             "constant-row page (no database: what the database and the connection handling cost).", "",
             "| app | " + " | ".join(f"{workload_title(workload, short=True)}, {view.engine_title(engine)}"
                                     for workload, engine in groups)
             + " | " + ", ".join(workload_title(workload, short=True) for workload in against_baseline)
             + ": of its server's constant-row page (" + " / ".join(
                 view.engine_title(engine) for workload, engine in groups if workload in against_baseline) + ") |",
             "|---|" + "---:|" * (len(groups) + 1)]
    for app in members:
        cells = []
        for workload, engine in groups:
            row, base = by_cell.get((workload, engine, app)), by_cell.get((workload, engine, reference))
            if row is None or not row["saturation_rps"]:
                cells.append("-")
                continue
            text = throughput_text(row) + ("" if row["median_low"] == "" else f" [{short_interval(row)}]")
            if app != reference and base and base["saturation_rps"]:
                text += ", " + ratio_text(row, base)
            cells.append(text)
        shares = [by_cell.get((workload, engine, app), {}).get("constant_baseline_fraction") or "-"
                  for workload, engine in groups if workload in against_baseline]
        cells.append(" / ".join(shares) or "-")
        lines.append(f"| {view.title(app)} | " + " | ".join(cells) + " |")
    return lines + [""]


def differences_lines(view):
    """Per engine x workload, every pair of apps: the geometric mean of their per-round ratios with
    its 95 % t-interval; a difference is real when the interval excludes 1."""
    workloads, engines = view.present("workloads"), view.present("engines")
    pairs = sorted(pair_ratios(view.cells, view.apps),
                   key=lambda pair: (workloads.index(pair.workload), engines.index(pair.engine)))
    if view.rounds < 2 or not pairs:
        return []
    lines = ["## Which differences are real", "",
             "Each ratio is the geometric mean over the rounds of the faster app's figure over the slower's, "
             "both measured in the same round, with its 95 % t-interval on the log scale "
             "(harness/results/stats.py). Real: the interval excludes 1.", "",
             "| workload | engine | faster | slower | ratio [95 % interval] | rounds | real |",
             "|---|---|---|---|---|---:|---|"]
    for pair in pairs:
        lines.append(f"| {pair.workload} | {pair.engine} | {view.title(pair.app)} | {view.title(pair.other)} | "
                     f"{ratio_interval_text(pair.ratio)} | {pair.rounds} | {'yes' if pair.real else 'no'} |")
    return lines + [""]
