"""What the writes waited for, in a run's summary: each write cell's saturation steps' waits per 2xx
reply, and summary.md's table of them. On the kept first update run (reference-runs/update-study-xeon-
20261202, Intel Xeon, every request on id 100), from before the disk monitor."""
from harness.report import writes
from harness.report.view import View
from harness.results.records import answered
from harness.results.saturation import saturation_step
from harness.results.store import load_run
from stack.settings import ROOT

RUN = load_run(ROOT / "reference-runs" / "update-study-xeon-20261202")


def test_a_saturation_steps_waits_are_its_counts_per_2xx_reply():
    row = next(each for each in RUN.saturation if str(each.key) == "servlet/innodb/update" and each.round == 1)
    best = saturation_step(RUN.steps[row.visit])
    waits, replies = writes.step_waits(best), answered(best.figures)
    assert waits["row_lock_waits"] == round(best.figures["db_row_lock_waits"] / replies, 4)
    assert waits["fsyncs"] == round(best.figures["db_fsyncs"] / replies, 4)
    assert waits["fsyncs"] > 0.25, "InnoDB's commits waited for the disk: 0.38 fsyncs a reply"
    # A run from before the disk monitor has no disk figures.
    assert "disk_flushes" not in waits and "disk_busy_share" not in waits


def test_summary_md_sets_out_each_write_cells_waits_over_its_rounds():
    lines = writes.write_lines(View(RUN))
    assert lines[0] == "## What the writes waited for"
    table = {line.split(" | ")[0].removeprefix("| "): line for line in lines if line.startswith("| ") and "/update" in line}
    assert sorted(table) == sorted(str(key) for key in View(RUN).cells if View(RUN).cells[key].figures)
    servlet = table["servlet/innodb/update"].split(" | ")
    assert servlet[1].isdigit() and servlet[-2] == "-" and servlet[-1] == "- |", servlet
    assert writes.spread_text([0.5, 0.4, 0.6], 2) == "0.50 [0.40–0.60]" and writes.spread_text([], 2) == "-"
    assert writes.write_lines(View(load_run(ROOT / "reference-runs" / "default-epyc-20261201"))) == [], "a run of reads"
