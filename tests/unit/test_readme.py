"""README's table of the study's four is the one harness/report/readme.py writes from the newest
default run kept for each machine kind (reference-runs/), line for line, with each run, its CPU model,
canary and date above it."""
from harness.report import readme
from harness.report.view import View
from harness.results.store import load_run
from stack.settings import ROOT

README = (ROOT / "README.md").read_text()
# The newest default runs kept, one per machine kind.
KEPT = ("default-epyc-20261201", "turns-fifth-xeon-20261130")


def views():
    return [View(load_run(ROOT / "reference-runs" / run)) for run in KEPT]


def test_readmes_table_is_the_one_its_kept_default_runs_give():
    lines = readme.study_table(views())
    assert lines[0].startswith("From the [kept runs](reference-runs/README.md): AMD EPYC, run `default-epyc-20261201` "
                               "(AMD EPYC, canary "), lines[0]
    assert "ms, 2026-12-01, 3 rounds); Intel Xeon, run `turns-fifth-xeon-20261130` (Intel(R) Xeon(R) Processor, canary " in lines[0]
    assert "\n".join(lines) in README, ("README's table is not its kept runs': python3 -m harness.report.readme "
                                        + " ".join(f"reference-runs/{run}" for run in KEPT))


def test_a_cell_reads_its_median_its_rounds_lowest_and_highest_and_the_2006_figure():
    epyc = views()[0]
    lines = readme.study_table([epyc])
    assert lines[2] == "| machine | workload | engine | " + " | ".join(
        epyc.title(app) for app in ("php", "servlet", "pooled-servlet", "soap")) + " |"
    figures = next(each for key, each in epyc.cells.items() if str(key) == "php/myisam/single")
    values = list(figures.figures.values())
    assert lines[4].startswith("| AMD EPYC | single row | MyISAM | ")
    assert lines[4].split(" | ")[3] == (f"{readme.figure_text(figures.median.estimate)} [{readme.figure_text(min(values))}–"
                                        f"{readme.figure_text(max(values))}] (480)"), lines[4]
    assert len(lines) == 1 + 1 + 2 + 4, "a row per workload and engine"
    assert readme.figure_text(23.66) == "23.7" and readme.figure_text(1785.6) == "1,786"
    assert readme.cell_text(None, None) == "— (—)"
    assert readme.machine_kind("Intel(R) Xeon(R) Processor") == "Intel Xeon" and readme.machine_kind("AMD EPYC") == "AMD EPYC"
