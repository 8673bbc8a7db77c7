"""A recorded run's HTML report as a person sees it: `make plots` on tests/fixtures/results/cost-b
(three rounds, the canary) writes report/index.html, a page and an SVG per cell, results.json and
results/index.html, and `make compare` against cost-a its page with both runs drawn per cell; every
link and image on them resolves inside results/; headless Chromium (Debian's) opens the front page
and a cell page from the file system, draws them and logs no error."""
import argparse
import json
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from urllib.parse import urlparse

import pytest

from harness.report import compare
from stack.settings import ROOT

RUN, EARLIER = "cost-b", "cost-a"
CHROMIUM = shutil.which("chromium")


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found += [value for name, value in attrs if name in ("href", "src") and value]


def links(page):
    parser = Links()
    parser.feed(page.read_text())
    return parser.found


def unresolved(page, root):
    """The links and images of `page` that leave `root` or lead to no file."""
    wrong = []
    for link in links(page):
        target = (page.parent / link).resolve()
        if urlparse(link).scheme or not target.exists() or not target.is_relative_to(root.resolve()):
            wrong.append(link)
    return wrong


def harness(*arguments):
    done = subprocess.run([sys.executable, "-m", "harness", *arguments], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """Both recorded runs' reports, and their comparison."""
    results = tmp_path_factory.mktemp("results")
    for run in (EARLIER, RUN):
        shutil.copytree(ROOT / "tests" / "fixtures" / "results" / run, results / run)
        assert f"browse: {results / run / 'report' / 'index.html'}" in harness("plots", "--run", run,
                                                                                "--results", str(results))
    assert f"browse: {results / f'compare-{EARLIER}-{RUN}.html'}" in harness("compare", EARLIER, RUN,
                                                                              "--results", str(results))
    return results


def chromium(*arguments):
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                           "--allow-file-access-from-files", "--enable-logging=stderr", "--v=0", *arguments],
                          capture_output=True, text=True, timeout=120)


def test_every_link_and_image_of_the_report_resolves_inside_the_results(report):
    pages = sorted((report / RUN / "report").glob("*.html")) + [report / "index.html", report / f"compare-{EARLIER}-{RUN}.html"]
    assert len(pages) > 2
    for page in pages:
        assert unresolved(page, report) == [], page.name
    cells = [link for link in links(report / RUN / "report" / "index.html") if link.startswith("cell-")]
    assert cells and all((report / RUN / "report" / link.replace(".html", ".svg")).read_text().lstrip().startswith("<?xml")
                         for link in cells)
    # The comparison draws both runs together for every cell the two share (all of them here).
    compared = [link for link in links(report / f"compare-{EARLIER}-{RUN}.html") if link.endswith(".svg")]
    assert len(compared) == len(cells)
    assert f'href="compare-{EARLIER}-{RUN}.html"' in (report / "index.html").read_text()


@pytest.mark.parametrize("page", ["index.html", "cell-php-myisam-single.html"])
def test_chromium_draws_the_page_from_the_file_system_and_logs_no_error(report, page, tmp_path):
    assert CHROMIUM, "chromium is missing: run `make setup`"
    path = report / RUN / "report" / page
    shot = tmp_path / "page.png"
    drawn = chromium("--window-size=1280,1600", f"--screenshot={shot}", path.as_uri())
    assert shot.exists() and shot.stat().st_size > 20_000, drawn.stderr[-2000:]
    dom = chromium("--dump-dom", path.as_uri())
    assert "<h1>" in dom.stdout and "replies/s" in dom.stdout
    errors = [line for line in dom.stderr.splitlines() + drawn.stderr.splitlines()
              if "CONSOLE" in line or "ERR_FILE_NOT_FOUND" in line or "Not allowed to load" in line]
    assert errors == []


def test_two_runs_picked_on_the_index_are_set_side_by_side_with_their_ratio(report):
    """The index's script sets the runs a reader picks (or the address names: #compare=a,b) cell by cell."""
    assert CHROMIUM, "chromium is missing: run `make setup`"
    picked = chromium("--dump-dom", f"{(report / 'index.html').as_uri()}#compare={EARLIER},{RUN}")
    first, second = (json.loads((report / run / "results.json").read_text()) for run in (EARLIER, RUN))
    shown = picked.stdout[picked.stdout.index('id="comparison"'):picked.stdout.index("</div>", picked.stdout.index('id="comparison"'))]
    assert f"A: {EARLIER} (saturation sweep); B: {RUN} (saturation sweep)." in shown
    for a, b in zip(first["cells"], second["cells"]):
        assert f'<td class="number">{b["saturation_rps"] / a["saturation_rps"]:.2f}</td>' in shown
    assert shown.count("<tr>") == len(first["cells"]) + 1 and f'href="compare-{EARLIER}-{RUN}.html"' in shown
    assert [line for line in picked.stderr.splitlines() if "CONSOLE" in line] == []


def test_two_concurrency_sweeps_compared_draw_both_per_workload_and_mode(tmp_path):
    """Two recorded rounds of ICWS'08's Fig. 3 (ab, 100 kept-alive connections), compared as runs."""
    for run, number in (("fig3-a", 1), ("fig3-b", 2)):
        shutil.copytree(ROOT / "tests" / "fixtures" / "reproduce" / f"round-{number}" / "fig-3", tmp_path / run)
    assert f"browse: {tmp_path / 'compare-fig3-a-fig3-b.html'}" in harness("compare", "fig3-a", "fig3-b",
                                                                            "--results", str(tmp_path))
    page = tmp_path / "compare-fig3-a-fig3-b.html"
    figures = [link for link in links(page) if link.endswith(".svg")]
    assert sorted(figures) == ["compare-fig3-a-fig3-b/concurrency-echo-10-keepalive.svg",
                               "compare-fig3-a-fig3-b/concurrency-quote-keepalive.svg"]
    assert unresolved(page, tmp_path) == [] and "fig3-a solid, fig3-b dashed" in page.read_text()
    assert page.read_text().count("<tr>") == 1 + 12  # the header, then a row per cell and level
    index = (tmp_path / "index.html").read_text()
    assert 'value="fig3-a"' in index and '"fig3-b": "concurrency sweep"' in index


def test_a_concurrency_sweep_kept_outside_the_results_folder_is_compared_from_where_it_is(tmp_path):
    """make compare finds a run in reference-runs/ when results/ lacks it (store.run_directory): a
    concurrency sweep is read from that folder too, and the comparison is written in results/."""
    results, kept = tmp_path / "results", tmp_path / "kept"
    for folder, run, number in ((results, "fig3-a", 1), (kept, "fig3-b", 2)):
        shutil.copytree(ROOT / "tests" / "fixtures" / "reproduce" / f"round-{number}" / "fig-3", folder / run)
    compare.execute(argparse.Namespace(results=results, run="fig3-a", run2="fig3-b"), kept=kept)
    assert (results / "compare-fig3-a-fig3-b.md").read_text().count("| ") > 12
    assert "fig3-a solid, fig3-b dashed" in (results / "compare-fig3-a-fig3-b.html").read_text()


def test_two_runs_with_turns_set_their_pair_ratios_side_by_side_and_the_front_page_leads_with_them(tmp_path):
    """turns-trial and a copy of it: the index counts each run's decided pairs and, picked, sets their
    ratios side by side; the front page opens with what a request cost each app."""
    assert CHROMIUM, "chromium is missing: run `make setup`"
    for run in ("turns-a", "turns-b"):
        shutil.copytree(ROOT / "tests" / "fixtures" / "results" / "turns-trial", tmp_path / run)
        harness("plots", "--run", run, "--results", str(tmp_path))
    front = (tmp_path / "turns-a" / "report" / "index.html").read_text()
    assert front.index("What a request costs each app") < front.index("<h2>Saturation throughput</h2>")
    pair = json.loads((tmp_path / "turns-a" / "results.json").read_text())["pairs"][0]
    assert f"1/1 decided, ±{(pair['high'] - pair['low']) / 2 / pair['ratio']:.0%}" in (tmp_path / "index.html").read_text()
    picked = chromium("--dump-dom", f"{(tmp_path / 'index.html').as_uri()}#compare=turns-a,turns-b")
    shown = picked.stdout[picked.stdout.index('id="comparison"'):picked.stdout.index("</div>", picked.stdout.index('id="comparison"'))]
    assert "<th>CPU per reply by turns</th>" in shown and f"<td>{pair['b']} / {pair['a']}</td>" in shown
    assert f'<td class="number">{pair["ratio"]:.2f} [{pair["low"]:.2f}, {pair["high"]:.2f}]</td>' in shown
    assert [line for line in picked.stderr.splitlines() if "CONSOLE" in line] == []
