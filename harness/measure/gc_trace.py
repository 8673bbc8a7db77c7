"""The heap of a runtime that traces its own collections into its server's log (Go's
`GODEBUG=gctrace=1`, V8's `--trace-gc`), as the JVM's GC log gives a JVM's: the heap in use after the
last collection by the step's end, and what the step's requests allocated. Pure parsing, then the
monitor at the edge.

Neither runtime keeps an allocation counter that the lab can read from outside, so a step's
allocation is what each of its collections found over what the one before it left: the sum of
(heap at a collection's start - heap after the previous one). The bytes allocated after the step's
last collection are not counted: at most one collection's worth (Go's heap goal, V8's young space).
Go's trace gives whole MB (its heap goal is 4 MB or so on small pages), V8's tenths."""
import re

from harness.measure.memory import log_text
from stack import lifecycle

# Go: "gc 12 @3.101s 1%: 0.02+1.1+0.01 ms clock, ..., 4->5->2 MB, 5 MB goal, 0 MB stacks, ..." (heap at
# the start, at the end, and marked live, in MB).
GO = re.compile(r"^gc \d+ @[\d.]+s \d+%: .*?, (\d+)->\d+->(\d+) MB,", re.MULTILINE)
# V8: "[123:0x5a0c000]  812 ms: Scavenge 5.1 (6.3) -> 4.2 (7.3) MB, ..." (heap used, and committed, before
# and after, in MB), for every kind of collection (Scavenge, Mark-Compact, Minor Mark-Sweep, ...).
V8 = re.compile(r"^\[\d+:0x[0-9a-f]+\]\s+\d+ ms: [A-Za-z -]+?(?: \([a-z]+\))? ([\d.]+) \([\d.]+\) -> ([\d.]+) \([\d.]+\) MB",
                re.MULTILINE)
TRACES = {"go-gc": GO, "v8-gc": V8}


def collections(kind, log_text):
    """Pure: (heap at the start, heap after) in MB of every collection traced in a log's text, in order."""
    return [(float(start), float(after)) for start, after in TRACES[kind].findall(log_text)]


def heap_figures(before_step, in_step):
    """Pure: a step's figures from the collections traced before it and during it: the MB allocated
    between collections from the last one before the step to the step's last, and the heap after
    that last one; {} when none was traced during the step (its allocation is then unknown)."""
    if not in_step:
        return {}
    traced = before_step[-1:] + in_step
    allocated = sum(max(start - left, 0) for (_, left), (start, _) in zip(traced, traced[1:]))
    return {"alloc_mb": round(allocated, 1), "heap_after_gc_mb": round(in_step[-1][1], 1)}


class GcTraceMonitor:
    """A server's traced collections over the step: <server>_alloc_mb and <server>_heap_after_gc_mb,
    the JVM's columns (harness/measure/memory.py)."""

    def __init__(self, server, kind):
        self.server, self.kind, self.log = server, kind, lifecycle.lab_servers()[server].log

    def start(self):
        # Up to the last whole line: a collection being written now counts in this step.
        self.offset = log_text(self.log).rfind("\n") + 1

    def finish(self):
        text = log_text(self.log)
        before, during = text[:self.offset], text[self.offset:]  # the log is appended to, restarts included
        figures = heap_figures(collections(self.kind, before), collections(self.kind, during))
        return {f"{self.server}_{figure}": value for figure, value in figures.items()}
