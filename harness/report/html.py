"""A run's HTML report and the index of runs (`make report`, and at the end of `make plots`): the
pages harness/report/site.py models, rendered with Jinja2 from the templates beside this module,
each cell's figure drawn a second time by plots/rates.gp in gnuplot's SVG terminal, the run's other
figures (its experiments' PDFs: sizes, phases, profiles, concurrency, a paper's pages) shown page by
page as SVGs pdftocairo (poppler's) makes of the PDFs themselves. Static files only: they open from
the file system, with no server and no network; the index's one script is in the page itself.

Into results/<run>/: results.json and report/ (index.html, a page per cell and its SVG, a page per
markdown document of the run); into results/: index.html, every run under it and the comparisons
made (`make compare` writes each as compare-<a>-<b>.html)."""
import json
import re
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import markdown
from jinja2 import Environment, FileSystemLoader, select_autoescape

from harness.report import site
from harness.results import kinds
from harness.results.store import RunFiles, run_record, write_atomically

TEMPLATES = Path(__file__).with_name("templates")


@lru_cache(maxsize=1)
def environment():
    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                       trim_blocks=True, lstrip_blocks=True)


def as_html(text):
    """A markdown document of the lab's, its tables as tables."""
    return markdown.markdown(text, extensions=["tables"])


def markdown_page(text, title, links, figures=(), figures_about=""):
    """A markdown document of the lab's (summary.md, a comparison, a paper's figures) as a page:
    `links` ([{"name", "href"}]) above it, `figures` ([{"cell", "src"}]) under it, `figures_about`
    saying what they draw."""
    body = as_html(text)
    return environment().get_template("document.html").render(title=title, body=body, links=links, figures=figures,
                                                              figures_about=figures_about)


def pdf_figures(pdfs, run_dir, out):
    """Every page of each of `pdfs` as an SVG in out/figures/, made by pdftocairo from the PDF itself so
    that the page and the PDF show one drawing: [{"name", "href", "pages": [SVG]}], links relative to `out`."""
    folder = out / "figures"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    figures = []
    for pdf in map(Path, pdfs):
        about = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
        count = int(re.search(r"^Pages:\s+(\d+)", about, re.MULTILINE).group(1))
        name = str(pdf.relative_to(run_dir))
        pages = []
        for page in range(1, count + 1):
            svg = pdf_to_svg(pdf, folder / f"{name.replace('/', '-')[:-4]}-{page}.svg", page)
            pages.append(f"figures/{svg.name}")
        figures.append({"name": name, "href": f"../{name}", "pages": pages})
    return figures


def pdf_to_svg(pdf, svg, page=1):
    """A page of a PDF as an SVG, by pdftocairo; the SVG's path."""
    subprocess.run(["pdftocairo", "-svg", "-f", str(page), "-l", str(page), str(pdf), str(svg)], check=True)
    return svg


def write_run_pages(view, rows, run_dir, draw_figure, figures=()):
    """results.json and report/ of a run; `draw_figure(key, svg path)` draws a cell's figure; `figures`,
    the PDFs of the run's other figures the front page shows. The run's markdown documents
    (summary.md, and any other experiment's) become pages beside. The front page's path."""
    files = RunFiles(run_dir)
    write_atomically(run_dir / "results.json", json.dumps(site.results_document(view, rows), indent=1) + "\n")
    out = run_dir / "report"
    out.mkdir(exist_ok=True)
    templates = environment()
    for row in rows:
        key = site.cell_key(view, row)
        figure = f"cell-{site.cell_name(row)}.svg"
        draw_figure(key, out / figure)
        page = site.cell_page(view, row, files, figure, view.run.profiles.get(str(key)))
        write_atomically(out / f"cell-{site.cell_name(row)}.html", templates.get_template("cell.html").render(page=page))
    documents, pdfs = document_pages(run_dir, view.manifest.run_id, out)
    front = out / "index.html"
    page = site.front_page(view, rows)
    write_atomically(front, templates.get_template("run.html").render(page=page, turns=as_html(page["turns"]),
                                                                      documents=documents, pdfs=pdfs,
                                                                      figures=pdf_figures(figures, run_dir, out)))
    return front


def document_pages(run_dir, run_id, out):
    """Each markdown document in the run's folder as a page in `out`, and every PDF of the run:
    ([{"name", "href"}] of the pages, of the PDFs), linked from `out`."""
    documents = []
    for source in sorted(run_dir.glob("*.md")):
        documents.append({"name": source.name, "href": f"{source.stem}.html"})
        write_atomically(out / f"{source.stem}.html",
                         markdown_page(source.read_text(), f"{source.name} ({run_id})",
                                       [{"name": f"run {run_id}", "href": "index.html"},
                                        {"name": source.name, "href": f"../{source.name}"}]))
    pdfs = [{"name": str(path.relative_to(run_dir)), "href": f"../{path.relative_to(run_dir)}"}
            for path in sorted([*run_dir.glob("*.pdf"), *(run_dir / "plots").glob("*.pdf")])]
    return documents, pdfs


def write_documents_report(run_dir, title, figures=(), template="documents.html", **extra):
    """report/ of a run that is no saturation sweep (a paper's figures, a concurrency sweep): its
    markdown documents as pages, the front page the first of them with links to the others and every
    PDF, and the pages of `figures` (PDFs) drawn on it; `template` and `extra`, a page of its own kind
    (concurrency.html). The front page's path."""
    out = run_dir / "report"
    out.mkdir(exist_ok=True)
    documents, pdfs = document_pages(run_dir, run_dir.name, out)
    main = sorted(run_dir.glob("*.md"))
    body = as_html(main[0].read_text()) if main else ""
    front = out / "index.html"
    write_atomically(front, environment().get_template(template).render(
        title=title, run_id=run_dir.name, body=body, documents=documents, pdfs=pdfs,
        figures=pdf_figures(figures, run_dir, out), **extra))
    return front


SWEEP_FIGURES = ("Reply rate and reply time against offered rate: each run's measurement whose figure is the "
                 "cell's median.")


def write_comparison(results_dir, first, second, text, figures=(), figures_about=SWEEP_FIGURES):
    """results/compare-<first>-<second>.html of `make compare`'s markdown, with `figures` ([(cell, SVG
    path)]: both runs' lines on one figure per cell, as `figures_about` says) under it; its path."""
    target = Path(results_dir) / f"compare-{first}-{second}.html"
    links = [{"name": "all runs", "href": "index.html"}]
    links += [{"name": f"run {run_id}", "href": f"{run_id}/report/index.html"} for run_id in (first, second)
              if (Path(results_dir) / run_id / "report" / "index.html").exists()]
    page = markdown_page(text, f"Run {first} against run {second}", links,
                         [{"cell": cell, "src": str(Path(svg).relative_to(results_dir))} for cell, svg in figures],
                         figures_about)
    write_atomically(target, page)
    return target


def run_manifest(run_dir):
    """(the kind of run in `run_dir`, what its folder says of it): its manifest; a paper's run, its
    first figure's; SOAP phases alone, its host and start. (None, None) for a folder that holds no run."""
    kind, record = run_record(run_dir)
    if kind == kinds.PAPER:
        figures = sorted(run_dir.glob("round-*/*/manifest.json"))
        return (kind, json.loads(figures[0].read_text())) if figures else (None, None)
    if kind == kinds.SOAP_PHASES:
        return kind, {"host": record["host"], "started": record["started"], "finished": record["started"]}
    return kind, record


def write_index(results_dir):
    """results/index.html: every run under `results_dir`, by its kind, and the comparisons made; its path."""
    entries = []
    for run_dir in sorted(path for path in Path(results_dir).iterdir() if path.is_dir()):
        kind, manifest = run_manifest(run_dir)
        if kind is None:
            continue
        document, peaks, canary = run_dir / "results.json", run_dir / "concurrency.json", run_dir / "canary.json"
        entries.append(site.run_entry(run_dir.name, manifest,
                                      json.loads(document.read_text()) if kind == kinds.SWEEP and document.exists() else None,
                                      (run_dir / "report" / "index.html").exists(),
                                      json.loads(peaks.read_text()) if kind == kinds.CONCURRENCY and peaks.exists() else None,
                                      json.loads(canary.read_text()) if canary.exists() else None))
    comparisons = [path.name for path in sorted(Path(results_dir).glob("compare-*.html"))]
    index = Path(results_dir) / "index.html"
    write_atomically(index, environment().get_template("runs.html").render(
        runs=site.runs_index(entries), comparisons=comparisons,
        picked={"cells": {entry["run_id"]: entry["cells"] for entry in entries if entry["cells"]},
                "kinds": {entry["run_id"]: entry["kind"] for entry in entries if entry["cells"]},
                "pairs": {entry["run_id"]: entry["pairs"] for entry in entries if entry["pairs"]},
                "comparisons": comparisons}))
    return index
