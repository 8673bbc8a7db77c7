"""A run's HTML report and the index of runs (`make report`, and at the end of `make plots`): the
pages harness/report/site.py models, rendered with Jinja2 from the templates beside this module,
each cell's figure drawn a second time by plots/rates.gp in gnuplot's SVG terminal. Static files
only: they open from the file system, with no server, no network and no script.

Into results/<run>/: results.json and report/ (index.html, a page per cell and its SVG, a page per
markdown document of the run); into results/: index.html, every run under it and the comparisons
made (`make compare` writes each as compare-<a>-<b>.html)."""
import json
from functools import lru_cache
from pathlib import Path

import markdown
from jinja2 import Environment, FileSystemLoader, select_autoescape

from harness.report import site
from harness.results.store import RunFiles, write_atomically

TEMPLATES = Path(__file__).with_name("templates")


@lru_cache(maxsize=1)
def environment():
    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                       trim_blocks=True, lstrip_blocks=True)


def as_html(text):
    """A markdown document of the lab's, its tables as tables."""
    return markdown.markdown(text, extensions=["tables"])


def markdown_page(text, title, links, figures=()):
    """A markdown document of the lab's (summary.md, a comparison, a paper's figures) as a page:
    `links` ([{"name", "href"}]) above it, `figures` ([{"cell", "src"}]) under it."""
    body = as_html(text)
    return environment().get_template("document.html").render(title=title, body=body, links=links, figures=figures)


def write_run_pages(view, rows, run_dir, draw_figure):
    """results.json and report/ of a run; `draw_figure(key, svg path)` draws a cell's figure. The
    run's markdown documents (summary.md, and any other experiment's) become pages beside. The front
    page's path."""
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
    write_atomically(front, templates.get_template("run.html").render(page=site.front_page(view, rows),
                                                                      documents=documents, pdfs=pdfs))
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


def write_documents_report(run_dir, title):
    """report/ of a run that is no saturation sweep (a paper's figures, a concurrency sweep): its
    markdown documents as pages, the front page the first of them with links to the others and every
    PDF; and results/index.html again. The front page's path."""
    out = run_dir / "report"
    out.mkdir(exist_ok=True)
    documents, pdfs = document_pages(run_dir, run_dir.name, out)
    main = sorted(run_dir.glob("*.md"))
    body = as_html(main[0].read_text()) if main else ""
    front = out / "index.html"
    write_atomically(front, environment().get_template("documents.html").render(
        title=title, run_id=run_dir.name, body=body, documents=documents, pdfs=pdfs))
    write_index(run_dir.parent)
    return front


def write_comparison(results_dir, first, second, text, figures=()):
    """results/compare-<first>-<second>.html of `make compare`'s markdown, with `figures` ([(cell, SVG
    path)]: both runs' lines on one figure per cell) under it; its path."""
    target = Path(results_dir) / f"compare-{first}-{second}.html"
    links = [{"name": "all runs", "href": "index.html"}]
    links += [{"name": f"run {run_id}", "href": f"{run_id}/report/index.html"} for run_id in (first, second)
              if (Path(results_dir) / run_id / "report" / "index.html").exists()]
    page = markdown_page(text, f"Run {first} against run {second}", links,
                         [{"cell": cell, "src": str(Path(svg).relative_to(results_dir))} for cell, svg in figures])
    write_atomically(target, page)
    return target


def write_index(results_dir):
    """results/index.html: every run under `results_dir` that has a manifest (a paper's run, the
    manifest of its first sweep) and the comparisons made; its path."""
    entries = []
    for run_dir in sorted(path for path in Path(results_dir).iterdir() if path.is_dir()):
        manifests = [run_dir / "manifest.json"] if (run_dir / "manifest.json").exists() \
            else sorted(run_dir.glob("round-*/*/manifest.json"))
        if not manifests:
            continue
        document = run_dir / "results.json"
        entries.append(site.run_entry(run_dir.name, json.loads(manifests[0].read_text()),
                                      json.loads(document.read_text()) if document.exists() else None,
                                      (run_dir / "report" / "index.html").exists()))
    comparisons = [path.name for path in sorted(Path(results_dir).glob("compare-*.html"))]
    index = Path(results_dir) / "index.html"
    write_atomically(index, environment().get_template("runs.html").render(runs=site.runs_index(entries),
                                                                           comparisons=comparisons))
    return index
