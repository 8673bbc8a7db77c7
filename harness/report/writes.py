"""summary.md's section on the writes: per write cell (update, mixed-P), what its replies waited for
at saturation, per 2xx reply: MyISAM's table lock, InnoDB's row lock and fsyncs, and the disk under
MariaDB's data, its flushes and its busy share of the step; the median over the rounds with their
lowest and highest, each round's read from its saturation step. Pure: a View in, lines out."""
import statistics

from harness.results.records import database_waits_per_reply
from harness.results.saturation import saturation_step
from stack.workload_names import writes

# (a saturation step's figure, the table's heading, its digits).
WAITS = [("table_lock_waits", "table lock waits", 3), ("row_lock_waits", "row lock waits", 3),
         ("row_lock_ms", "row lock ms", 3), ("fsyncs", "InnoDB fsyncs", 3), ("disk_flushes", "disk flushes", 3),
         ("disk_busy_share", "disk busy share", 2)]


def spread_text(values, digits):
    """"0.51 [0.44–0.58]": the median over the rounds [lowest–highest]; "-" without any."""
    if not values:
        return "-"
    middle = statistics.median(values)
    if len(values) == 1:
        return f"{middle:.{digits}f}"
    return f"{middle:.{digits}f} [{min(values):.{digits}f}–{max(values):.{digits}f}]"


def step_waits(step):
    """{WAITS' figure: its value} of one saturation step: per 2xx reply, and the disk's busy share."""
    found = database_waits_per_reply(step.figures)
    if "db_disk_busy_share" in step.figures:
        found["disk_busy_share"] = step.figures["db_disk_busy_share"]
    return found


def cell_waits(view, key):
    """[step_waits] of each of the cell's rounds whose figure was located, from its saturation step."""
    located = [row for row in view.cells[key].rows if row.saturation_rps and view.run.steps.get(row.visit)]
    return [step_waits(saturation_step(view.run.steps[row.visit])) for row in located]


def write_lines(view):
    """The section, a row per write cell with a located figure in any round; [] for a run without one."""
    rows = []
    for key in view.cells:
        waits = cell_waits(view, key) if writes(key.workload) else []
        if not waits:
            continue
        texts = [spread_text([each[name] for each in waits if name in each], digits) for name, _, digits in WAITS]
        rows.append(f"| {key} | {len(waits)} | " + " | ".join(texts) + " |")
    if not rows:
        return []
    return ["## What the writes waited for", "",
            "At each write cell's saturation step, per 2xx reply: MariaDB's count of table lock waits (MyISAM's, "
            "any statement's), row lock waits and their milliseconds, and InnoDB's fsyncs; the kernel's count of "
            "the flushes the disk under MariaDB's data completed, and the share of the step it was busy "
            "(/proc/diskstats, the whole disk's). The median over the rounds whose figure was located, "
            "[lowest–highest].", "",
            "| cell | rounds | " + " | ".join(heading for _, heading, _ in WAITS) + " |",
            "|---|---:|" + "---:|" * len(WAITS), *rows, ""]
