"""Two runs side by side: per cell each run's figure with its intervals, how far apart they are and
whether their 95 % t-intervals overlap. Pure: two loaded runs in, rows and markdown out.

    python3 -m harness.report.compare RUN RUN2    (make compare RUN=a RUN2=b; plots/compare.py)
"""
import argparse
import statistics
import sys
from pathlib import Path

from harness.results.rounds import cell_figures
from harness.results.store import RESULTS, ResultsError, load_run, write_atomically


def overlap(first, second):
    """Whether two intervals share any value; None when either has none (one round)."""
    if first is None or second is None or first.low is None or second.low is None:
        return None
    return first.low <= second.high and second.low <= first.high


def comparison_rows(run, other):
    """One row per cell measured in both runs, in the first run's order."""
    mine, theirs = cell_figures(run), cell_figures(other)
    rows = []
    for key, figures in mine.items():
        if key not in theirs or figures.median is None or theirs[key].median is None:
            continue
        a, b = figures.median.estimate, theirs[key].median.estimate
        rows.append({"cell": str(key), "first": figures, "second": theirs[key],
                     "ratio": max(a, b) / min(a, b), "second_over_first": b / a,
                     "overlap": overlap(figures.geometric, theirs[key].geometric)})
    return rows


def median_with_interval(figures):
    median, geometric = figures.median, figures.geometric
    count = len(figures.figures)
    text = f"{'>= ' if figures.lower_bound else ''}{median.estimate:,.1f} ({count} round{'s' if count > 1 else ''}"
    if geometric.low is not None:
        text += f"; 95 % t [{geometric.low:,.1f}, {geometric.high:,.1f}]"
    return text + ")"


def comparison_markdown(run, other, rows):
    ratios = [row["ratio"] for row in rows]
    judged = [row["overlap"] for row in rows if row["overlap"] is not None]
    lines = [f"# Run {run.manifest.run_id} against run {other.manifest.run_id}", "",
             "Each cell's figure is the median over its run's rounds; the intervals are the geometric "
             "mean's 95 % t-intervals; the ratio is the larger run's figure over the smaller's.", ""]
    if rows:
        lines += [f"Cells in both: {len(rows)}; ratio between the runs: median {statistics.median(ratios):.2f}, "
                  f"largest {max(ratios):.2f}; 95 % intervals overlap in "
                  f"{sum(1 for each in judged if each)} of {len(judged)} cells that have them.", ""]
    lines += [f"| cell | {run.manifest.run_id} | {other.manifest.run_id} | second / first | ratio | overlap |",
              "|---|---:|---:|---:|---:|---|"]
    for row in rows:
        lines.append(f"| {row['cell']} | {median_with_interval(row['first'])} | {median_with_interval(row['second'])} | "
                     f"{row['second_over_first']:.2f} | {row['ratio']:.2f} | "
                     f"{ {True: 'yes', False: 'no', None: '-'}[row['overlap']]} |")
    return "\n".join(lines) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description="two runs' tables side by side, with ratios and intervals")
    parser.add_argument("run")
    parser.add_argument("run2")
    parser.add_argument("--results", type=Path, default=RESULTS)
    args = parser.parse_args(argv)
    try:
        run, other = load_run(args.results / args.run), load_run(args.results / args.run2)
    except ResultsError as error:
        print(f"compare: {error}", file=sys.stderr)
        return 1
    markdown = comparison_markdown(run, other, comparison_rows(run, other))
    target = args.results / f"compare-{args.run}-{args.run2}.md"
    write_atomically(target, markdown)
    print(markdown + f"\n(written to {target})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
