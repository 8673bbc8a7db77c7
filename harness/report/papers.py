"""The SOAP engines beside the papers (plots/soap-papers.tsv): first each paper's ratio beside ours
from the same shape of experiment (getQuote for StockQuote, echo-N for echoStruct at N, the typed
echoes for Lublin's types, the engine-less baselines for ICWS'08's static files), then the pairs set
against each other on the database-backed workloads, the lab's own extension. Pure: summary rows
in, summary.md's lines out."""
from harness.report.series import ratio_text
from harness.results.store import read_tsv
from stack.registry import NO_ENGINE
from stack.settings import ROOT
from stack.workload_names import workload_title

PAPERS_FILE = ROOT / "plots" / "soap-papers.tsv"


def paper_ratios(paper_rows=None):
    return read_tsv(PAPERS_FILE) if paper_rows is None else paper_rows


def paper_text(row):
    low, high = row["paper_low"], row["paper_high"]
    if not low:
        return "figure only"
    return f"{low}x" if low == high else f"{low}-{high}x"


def our_pairs(paper):
    """[(numerator's workload, denominator's workload)] of a paper row's `workloads` ("A/B" or "W")."""
    pairs = []
    for entry in filter(None, paper["workloads"].split(",")):
        mine, _, theirs = entry.strip().partition("/")
        pairs.append((mine, theirs or mine))
    return pairs


def pair_title(mine, theirs):
    if mine == theirs:
        return workload_title(mine, short=True)
    return f"{workload_title(mine, short=True)} / {workload_title(theirs, short=True)}"


def same_message_lines(rows, papers):
    """One line per paper ratio whose experiment the run measured: the paper's, then ours at each of
    the same-shaped workloads, then what still differs."""
    by_cell = {(row["workload"], row["app"]): row for row in rows if row["engine"] == NO_ENGINE}
    lines = []
    for paper in papers:
        ours = [f"{pair_title(mine, theirs)}: {ratio_text(by_cell[(mine, paper['numerator'])], by_cell.get((theirs, paper['denominator'])))}"
                for mine, theirs in our_pairs(paper) if (mine, paper["numerator"]) in by_cell]
        if ours:
            lines.append(f"| {paper['comparison']} | {paper['paper']} | {paper['paper_payload']} | "
                         f"{paper_text(paper)} | {'; '.join(ours)} | {paper['differs']} |")
    if not lines:
        return []
    return ["## The SOAP papers' ratios beside ours on the same messages", "",
            "Each paper's throughput ratio (a round-trip time ratio read as its inverse; plots/soap-papers.tsv "
            "says how each was read), then ours on the message of the same shape, no database on either side, "
            "under this run's load, not the paper's (`make reproduce` runs each paper's own): "
            "getQuote for StockQuote, echo-N for echoStruct at N, list-N for echoList, the typed echoes' "
            "ratios for Lublin's types (Lublin timed serialization and deserialization alone, without HTTP), the "
            "engine-less SOAP baselines for ICWS'08's static files. The last column says what differs: none "
            "is like for like. "
            "Each figure's interval is in the tables above.", "",
            "| pair | paper | paper's experiment | paper's ratio | ours | what still differs |",
            "|---|---|---|---:|---|---|", *lines, ""]


def extension_lines(rows, papers, view):
    """The papers' pairs on the database-backed workloads the run measured: the lab's own extension,
    no paper's experiment (its engines as the run's registry titled them)."""
    by_cell = {(row["workload"], row["engine"], row["app"]): row for row in rows}
    measured = {row["app"] for row in rows}
    pairs = [paper for paper in papers if not paper["workloads"]
             and paper["numerator"] in measured and paper["denominator"] in measured]
    groups = list(dict.fromkeys((row["workload"], row["engine"]) for row in rows if row["engine"] != NO_ENGINE))
    if not pairs or not groups:
        return []
    lines = ["## The papers' pairs on database-backed workloads: the lab's own extension", "",
             "No paper measured these: each call here runs a query, through a pool or a connection per call "
             "(plots/soap-papers.tsv's last column). The paper's ratio stands beside them for its direction only; "
             "it came from messages without a database.", "",
             "| pair | paper | paper's experiment | paper's ratio | " + " | ".join(
                 f"{workload_title(workload)}, {view.engine_title(engine)}" for workload, engine in groups) + " |",
             "|---|---|---|---:|" + "---:|" * len(groups)]
    for paper in pairs:
        ours = [ratio_text(by_cell[(workload, engine, paper["numerator"])],
                           by_cell.get((workload, engine, paper["denominator"])))
                if (workload, engine, paper["numerator"]) in by_cell else "-" for workload, engine in groups]
        lines.append(f"| {paper['comparison']} | {paper['paper']} | {paper['paper_payload']} | "
                     f"{paper_text(paper)} | " + " | ".join(ours) + " |")
    return lines + [""]


def paper_lines(view, rows, papers=None):
    """summary.md's papers section: the papers' messages first, then the lab's extension; [] when the run
    measured neither."""
    papers = paper_ratios(papers)
    return same_message_lines(rows, papers) + extension_lines(rows, papers, view)
