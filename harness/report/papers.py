"""The SOAP engines beside the papers: each engine-to-engine throughput ratio the SOAP papers report
(plots/soap-papers.tsv), and ours for the same pair in every workload and engine the run measured.
Pure: summary rows in, summary.md's lines out."""
from harness.report.series import ratio_text
from harness.results.store import read_tsv
from stack.registry import NO_ENGINE, engine_title, workload_title
from stack.settings import ROOT

PAPERS_FILE = ROOT / "plots" / "soap-papers.tsv"


def paper_ratios(paper_rows=None):
    return read_tsv(PAPERS_FILE) if paper_rows is None else paper_rows


def paper_text(row):
    low, high = row["paper_low"], row["paper_high"]
    return f"{low}x" if low == high else f"{low}-{high}x"


def paper_lines(view, rows, papers=None):
    """A table per run that holds both apps of at least one of the papers' pairs; [] otherwise."""
    by_cell = {(row["workload"], row["engine"], row["app"]): row for row in rows}
    measured = {row["app"] for row in rows}
    pairs = [paper for paper in paper_ratios(papers)
             if paper["numerator"] in measured and paper["denominator"] in measured]
    if not pairs:
        return []
    groups = list(dict.fromkeys((row["workload"], row["engine"]) for row in rows if row["engine"] != NO_ENGINE))
    lines = ["## The SOAP engines beside the papers", "",
             "Each pair's throughput ratio as the paper reports it (a round-trip time ratio read as its inverse; "
             "plots/soap-papers.tsv says how), then ours in every workload and engine of this run. Other "
             "hardware, other payloads, other bindings: compare the direction and the trend with the payload, "
             "not the numbers.", "",
             "| pair | paper | paper's payload | paper's ratio | " + " | ".join(
                 f"{workload_title(workload)}, {engine_title(engine)}" for workload, engine in groups) + " |",
             "|---|---|---|---:|" + "---:|" * len(groups)]
    for paper in pairs:
        ours = [ratio_text(by_cell[(workload, engine, paper["numerator"])],
                           by_cell.get((workload, engine, paper["denominator"])))
                if (workload, engine, paper["numerator"]) in by_cell else "-" for workload, engine in groups]
        lines.append(f"| {paper['comparison']} | {paper['paper']} | {paper['paper_payload']} | "
                     f"{paper_text(paper)} | " + " | ".join(ours) + " |")
    return lines + [""]
