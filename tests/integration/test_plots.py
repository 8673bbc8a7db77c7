"""`make plots` on a real recorded run (tests/fixtures/results): real gnuplot PDFs, no servers."""
import csv
import shutil
import subprocess

import pytest

from harness.report.view import PALETTE
from stack.settings import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "results" / "full6"
APPS = ["php", "servlet", "pooled-servlet", "soap"]
PER_CELL = [f"cell-{app}-{engine}-{workload}.pdf" for app in APPS for engine in ("myisam", "innodb")
            for workload in ("single", "large")]
OVERLAYS = [f"apps-{workload}-{engine}.pdf" for workload in ("single", "large") for engine in ("myisam", "innodb")]
ENGINES = [f"engines-{app}-{workload}.pdf" for app in APPS for workload in ("single", "large")]


@pytest.fixture(scope="module")
def plotted(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    shutil.copytree(FIXTURE, results / FIXTURE.name)
    completed = subprocess.run(["make", "--no-print-directory", "plots", f"RUN={FIXTURE.name}",
                                f"RESULTS_DIR={results}"], cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode == 0, completed.stderr
    assert "report.pdf" in completed.stdout
    return results / FIXTURE.name


def pages(pdf):
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    return int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))


def test_every_expected_pdf_is_a_valid_pdf_with_its_pages(plotted):
    plots = plotted / "plots"
    for name in PER_CELL + OVERLAYS + ENGINES + ["title.pdf", "table.pdf"]:
        assert pages(plots / name) == 1, name
    assert pages(plots / "summary.pdf") == 2
    assert pages(plots / "report.pdf") == 2 + 2 + len(OVERLAYS) + len(ENGINES) + len(PER_CELL)


def test_summary_tsv_holds_the_values_the_run_implies(plotted):
    with open(plotted / "summary.tsv", newline="") as source:
        summary = list(csv.DictReader(source, delimiter="\t"))
    with open(FIXTURE / "saturation.tsv", newline="") as source:
        saturation = {(row["app"], row["engine"], row["workload"]): row
                      for row in csv.DictReader(source, delimiter="\t")}
    assert len(summary) == 16
    for row in summary:
        assert row["saturation_rps"] == saturation[(row["app"], row["engine"], row["workload"])]["saturation_rps"]
    assert {row["study_2006_rps"] for row in summary if row["workload"] == "single" and row["engine"] == "innodb"} == {"30"}
    assert "| PHP (Apache + mod_php) |" in (plotted / "summary.md").read_text()


def rendered(pdf, page, tmp_path):
    """The page as RGB pixels, through pdftoppm's PPM output."""
    subprocess.run(["pdftoppm", "-r", "40", "-f", str(page), "-l", str(page), str(pdf), str(tmp_path / "page")],
                   check=True)
    data = next(tmp_path.glob("page*.ppm")).read_bytes()
    magic, width, height, maximum, pixels = data.split(maxsplit=4)
    assert magic == b"P6" and maximum == b"255"
    return [tuple(pixels[index:index + 3]) for index in range(0, len(pixels), 3)]


def test_the_summary_page_is_drawn_bars_in_each_apps_colour(plotted, tmp_path):
    pixels = rendered(plotted / "plots" / "summary.pdf", 1, tmp_path)
    coloured = [pixel for pixel in pixels if min(pixel) < 200]
    assert len(coloured) > 0.05 * len(pixels)
    for app_colour in PALETTE[:len(APPS)]:
        rgb = tuple(int(app_colour[i:i + 2], 16) for i in (1, 3, 5))
        assert any(all(abs(a - b) <= 40 for a, b in zip(rgb, pixel)) for pixel in coloured), app_colour


def test_a_run_without_results_gets_a_clear_error(tmp_path):
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "manifest.json").write_text("{}")
    completed = subprocess.run(["make", "--no-print-directory", "plots", "RUN=empty", f"RESULTS_DIR={tmp_path}"],
                               cwd=ROOT, capture_output=True, text=True)
    assert completed.returncode != 0
    assert "no saturation.tsv rows yet" in completed.stderr and "Traceback" not in completed.stderr
