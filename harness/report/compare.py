"""Two runs side by side: per cell each run's figure with its intervals, how far apart they are,
whether their 95 % t-intervals overlap, the second over the first paired by round with its interval
(a difference is real when that interval excludes 1), and whether the apps' order changed between the
runs, per engine and workload. Pure: two loaded runs in, rows and markdown out. `make plots BESIDE=`
puts the same tables in a run's summary.md, e.g. a keep-alive run beside the close run made with it.

    python3 -m harness compare RUN RUN2    (make compare RUN=a RUN2=b; plots/compare.py)

`make compare` writes results/compare-<a>-<b>.md and, to browse, compare-<a>-<b>.html with both runs'
lines drawn together per cell (where both runs' `make plots` wrote their series; harness/report/gnuplot.py).
Two concurrency sweeps are set side by side level by level instead (harness/report/concurrency.py).
"""
import json
import statistics

from harness.judge.bottleneck import telling_steps
from harness.report import concurrency, html
from harness.report.gnuplot import comparison_figures
from harness.report.costs import explanation_lines
from harness.report.series import ratio_interval_text
from harness.report.site import canary_text
from harness.report.turns import side_by_side_lines
from harness.results import kinds
from harness.results.chosen import add_results_argument
from harness.results.manifest import Manifest
from harness.results.rounds import cell_figures
from harness.results.stats import ratio_interval
from harness.results.store import REFERENCE_RUNS, load_run, run_directory, run_kind, write_atomically


def overlap(first, second):
    """Whether two intervals share any value; None when either has none (one round)."""
    if first is None or second is None or first.low is None or second.low is None:
        return None
    return first.overlaps(second)


def comparison_rows(run, other):
    """One row per cell measured in both runs, in the first run's order."""
    mine, theirs = cell_figures(run), cell_figures(other)
    rows = []
    for key, figures in mine.items():
        if key not in theirs or figures.median is None or theirs[key].median is None:
            continue
        a, b = figures.median.estimate, theirs[key].median.estimate
        paired = paired_ratio(figures.figures, theirs[key].figures)
        rows.append({"cell": str(key), "key": key, "first": figures, "second": theirs[key],
                     "costs": (request_cost(run, figures), request_cost(other, theirs[key])),
                     "ratio": max(a, b) / min(a, b), "second_over_first": b / a,
                     "overlap": overlap(figures.geometric, theirs[key].geometric), "paired": paired,
                     "real": paired.excludes(1) if paired else None})
    return rows


def paired_ratio(first, second):
    """The geometric mean of second / first over the round numbers both runs measured ({round: figure}
    each), round r of one beside round r of the other, with its 95 % t-interval; None with no round in
    common. Runs made back to back pair rounds as near in time as two runs can."""
    shared = sorted(set(first) & set(second))
    return ratio_interval([(second[number], first[number]) for number in shared]) if shared else None


def request_cost(run, figures):
    """What a request cost the servers at the cell's saturation step, in the round whose figure is
    the cell's median: (servers' CPU µs per reply, softirq µs per reply on the servers' CPUs,
    connections per request); None without a saturation step, pinned servers or softirq figures (runs
    from before them). The softirq is the kernel's TCP work (handshakes, teardown, the packets), which
    a kept-alive connection pays once for its calls."""
    summary = figures.representative
    told = telling_steps(summary, run.steps.get(summary.visit, []))
    cpus = run.manifest.server_cpus
    if not told or told[0].offered_rate != summary.saturation_offered or not cpus:
        return None
    step = told[0]
    replies = (step.reply_rate or 0) * (step.figures.get("test_duration_s") or 0)
    if not replies or f"softirq_cpu{cpus[0]}_s" not in step.figures:
        return None
    softirq = sum(step.figures.get(f"softirq_cpu{cpu}_s") or 0.0 for cpu in cpus)
    return (1e6 * step.server_total("_cpu_s") / replies, 1e6 * softirq / replies,
            1 / step.figures.get("calls_per_connection", 1))


WORK_COUNTS = ("selects", "rows", "connections")


def database_work_rows(run, other):
    """Per cell in both runs, in the first's order: each run's MariaDB count per 2xx reply at
    saturation ({selects, rows, connections}: None where the run has none) and its steps that fell
    short of the work declared; cells without the count in either run aside (runs from before it)."""
    mine, theirs = cell_figures(run), cell_figures(other)

    def counts(figures):
        summary = figures.representative
        found = {name: getattr(summary, f"db_{name}_per_reply_saturation") for name in WORK_COUNTS}
        return (None if None in found.values() else found), sum(row.work_missing_steps for row in figures.rows)
    rows = []
    for key, figures in mine.items():
        if key in theirs:
            (first, short_first), (second, short_second) = counts(figures), counts(theirs[key])
            if first or second or short_first or short_second:
                rows.append({"cell": str(key), "first": first, "second": second,
                             "short": (short_first, short_second)})
    return rows


def database_work_lines(run, other, heading="#"):
    rows = database_work_rows(run, other)
    if not rows:
        return []
    first, second = run.manifest.run_id, other.manifest.run_id

    def text(counts, name):
        return "-" if counts is None else f"{counts[name]:,.2f}"
    lines = ["", f"{heading}# What the database did per reply at saturation", "",
             "MariaDB's own count over each cell's saturation step (the round of its median), per 2xx reply, "
             "and how many of the cell's steps did less than the workload declares (harness/judge/database_work.py).",
             "", f"| cell | SELECTs: {first} | {second} | rows: {first} | {second} | connections: {first} | {second} | "
             f"steps short: {first} | {second} |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['cell']} | " + " | ".join(f"{text(row['first'], name)} | {text(row['second'], name)}"
                                                     for name in WORK_COUNTS)
                     + f" | {row['short'][0]} | {row['short'][1]} |")
    return lines


def app_orders(rows):
    """Per (engine, workload) of the rows: (the apps fastest first in the first run, in the second)."""
    blocks = {}
    for row in rows:
        key = row["key"]
        blocks.setdefault((key.engine, key.workload), []).append(row)
    return {block: tuple([row["key"].app for row in sorted(members, key=lambda row: -row[side].median.estimate)]
                         for side in ("first", "second"))
            for block, members in blocks.items()}


def median_with_interval(figures):
    median, geometric = figures.median, figures.geometric
    count = len(figures.figures)
    text = f"{'>= ' if figures.lower_bound else ''}{median.estimate:,.1f} ({count} round{'s' if count > 1 else ''}"
    if geometric.low is not None:
        text += f"; 95 % t [{geometric.low:,.1f}, {geometric.high:,.1f}]"
    return text + ")"


def machine_text(run):
    """A run's machine: its CPU model and cores, its canary, and the boot it ran in, where recorded."""
    host = run.manifest.host
    boot = host.get("boot_id")
    return ", ".join(filter(None, (f"{host.get('cpu_model', '?')}, {host.get('cores', '?')} cores",
                                   canary_text(run.canary, run.manifest.data.get("pinning", {}).get("server_cpus")),
                                   boot and f"boot {boot[:8]} (up since {host.get('booted_at') or '?'})")))


def machines_line(run, other):
    """Pure: the two runs' machines, and whether one boot of one machine ran both (the kernel's boot
    id: a CPU model alone names a kind of VM, not a VM)."""
    boots = [each.manifest.host.get("boot_id") for each in (run, other)]
    verdict = ("one boot of one machine ran both: they differ by time alone" if boots[0] and boots[0] == boots[1]
               else "two boots: another machine, or this one restarted" if all(boots)
               else "whether one machine ran both is not recorded (a run from before the boot id)")
    return f"Machines: {run.manifest.run_id} on {machine_text(run)}; {other.manifest.run_id} on {machine_text(other)}: {verdict}."


def comparison_markdown(run, other, rows, heading="#"):
    """The two runs' tables; `heading`, the markdown level of its title (## inside a summary)."""
    ratios = [row["ratio"] for row in rows]
    judged = [row["overlap"] for row in rows if row["overlap"] is not None]
    first, second = run.manifest.run_id, other.manifest.run_id
    lines = [f"{heading} Run {first} against run {second}", "",
             "Each cell's figure is the median over its run's rounds; the intervals are the geometric "
             "mean's 95 % t-intervals; the ratio is the larger run's figure over the smaller's. Paired: the "
             f"geometric mean of {second} / {first} over the rounds both measured, round r of one beside round r "
             "of the other, with its 95 % t-interval; the difference is real when it excludes 1.", "",
             machines_line(run, other), ""]
    if rows:
        real = [row for row in rows if row["real"]]
        lines += [f"Cells in both: {len(rows)}; ratio between the runs: median {statistics.median(ratios):.2f}, "
                  f"largest {max(ratios):.2f}; 95 % intervals overlap in "
                  f"{sum(1 for each in judged if each)} of {len(judged)} cells that have them; a real paired "
                  f"difference in {len(real)} of {sum(1 for row in rows if row['real'] is not None)}.", ""]
    lines += [f"| cell | {first} | {second} | second / first | ratio | overlap | paired second / first | real |",
              "|---|---:|---:|---:|---:|---|---:|---|"]
    for row in rows:
        lines.append(f"| {row['cell']} | {median_with_interval(row['first'])} | {median_with_interval(row['second'])} | "
                     f"{row['second_over_first']:.2f} | {row['ratio']:.2f} | "
                     f"{ {True: 'yes', False: 'no', None: '-'}[row['overlap']]} | "
                     f"{ratio_interval_text(row['paired']) if row['paired'] else '-'} | "
                     f"{ {True: 'yes', False: 'no', None: '-'}[row['real']]} |")
    costed = [row for row in rows if None not in row["costs"]]
    if costed:
        lines += ["", f"{heading}# What a request cost the servers at saturation", "",
                  "Over each cell's saturation step (the round of its median): the servers' CPU time and the "
                  "softirq time on their CPUs (the kernel's TCP work: handshakes, teardown, packets), per reply, "
                  "and how many connections each request opened.", "",
                  f"| cell | CPU µs / reply: {first} | {second} | softirq µs / reply: {first} | {second} | "
                  f"connections / request: {first} | {second} |", "|---|---:|---:|---:|---:|---:|---:|"]
        for row in costed:
            (cpu_a, soft_a, conns_a), (cpu_b, soft_b, conns_b) = row["costs"]
            lines.append(f"| {row['cell']} | {cpu_a:,.0f} | {cpu_b:,.0f} | {soft_a:,.0f} | {soft_b:,.0f} | "
                         f"{conns_a:.2g} | {conns_b:.2g} |")
    lines += [*side_by_side_lines(run, other, heading), *database_work_lines(run, other, heading), "",
              *explanation_lines(run, other, rows, heading)]
    orders = app_orders(rows)
    if orders:
        lines += ["", f"{heading}# The apps' order, fastest first", "",
                  f"| engine, workload | {first} | {second} | changed |", "|---|---|---|---|"]
        for (engine, workload), (mine, theirs) in orders.items():
            lines.append(f"| {engine}, {workload} | {' > '.join(mine)} | {' > '.join(theirs)} | "
                         f"{'yes' if mine != theirs else 'no'} |")
    return "\n".join(lines) + "\n"


def add_arguments(parser):
    parser.add_argument("run")
    parser.add_argument("run2")
    add_results_argument(parser)


def execute(args, kept=REFERENCE_RUNS):
    """Compare two runs, each from the results folder, else from the runs the repository `kept`."""
    directories = [run_directory(args.results, run_id, kept) for run_id in (args.run, args.run2)]
    if all(run_kind(directory) == kinds.CONCURRENCY for directory in directories):
        return compare_concurrency(args.results, directories)
    run, other = map(load_run, directories)
    rows = comparison_rows(run, other)
    markdown = comparison_markdown(run, other, rows)
    target = args.results / f"compare-{args.run}-{args.run2}.md"
    write_atomically(target, markdown)
    figures = comparison_figures(args.results / f"compare-{args.run}-{args.run2}", run, other, rows)
    page = html.write_comparison(args.results, args.run, args.run2, markdown, figures)
    html.write_index(args.results)
    print(markdown + f"\n(written to {target}; browse: {page})")


def compare_concurrency(results_dir, directories):
    """Two concurrency sweeps level by level (harness/report/concurrency.py), from the folders
    run_directory found (results/ or reference-runs/), written and drawn together in results/."""
    runs = [(directory.name, json.loads((directory / "concurrency.json").read_text()),
             Manifest.read(directory / "manifest.json")) for directory in directories]
    first, second = (run_id for run_id, _, _ in runs)
    markdown = concurrency.comparison_markdown(first, second, concurrency.level_rows(runs[0][1], runs[1][1], runs[0][2]))
    target = results_dir / f"compare-{first}-{second}.md"
    write_atomically(target, markdown)
    out = results_dir / f"compare-{first}-{second}"
    figures = [(pdf.stem, html.pdf_to_svg(pdf, pdf.with_suffix(".svg"))) for pdf in concurrency.draw_together(out, *runs)]
    page = html.write_comparison(results_dir, first, second, markdown, figures,
                                 f"Throughput and latency against concurrency per workload and connection mode: "
                                 f"{first} solid, {second} dashed.")
    html.write_index(results_dir)
    print(markdown + f"\n(written to {target}; browse: {page})")
