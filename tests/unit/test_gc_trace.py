"""The heaps of the runtimes that trace their own collections (harness/measure/gc_trace.py), on their
recorded logs: Go's net/http server under GODEBUG=gctrace=1 and the Node.js server under V8's
--trace-gc, each started and then driven by wrk (tests/fixtures/gc)."""
from pathlib import Path

import pytest

from harness.measure.gc_trace import collections, heap_figures

GC = Path(__file__).resolve().parents[1] / "fixtures" / "gc"


def traced(kind, name):
    return collections(kind, (GC / name).read_text())


@pytest.mark.parametrize("kind, name", [("go-gc", "go-gctrace.log"), ("v8-gc", "node-trace-gc.log")])
def test_every_traced_collection_is_read_and_nothing_else(kind, name):
    lines = (GC / name).read_text().splitlines()
    assert "listening on" in lines[0]  # the server's own line is no collection
    assert len(traced(kind, name)) == len(lines) - 1


def test_go_collections_read_as_the_heap_at_their_start_and_the_live_heap_they_marked():
    # "gc 1 @5.755s 0%: ..., 3->3->0 MB, 4 MB goal, ...": 3 MB when it began, 0 MB marked live.
    assert traced("go-gc", "go-gctrace.log")[0] == (3.0, 0.0)


def test_v8_scavenges_and_mark_compacts_read_as_the_heap_used_before_and_after():
    found = traced("v8-gc", "node-trace-gc.log")
    assert found[0] == (20.3, 14.1)  # "Scavenge 20.3 (34.9) -> 14.1 (34.9) MB"
    assert all(after <= start for start, after in found)


def test_a_steps_allocation_runs_from_the_collection_before_it_to_its_last():
    before, during = [(10.0, 4.0)], [(9.0, 5.0), (12.0, 6.0)]
    # (9 - 4) + (12 - 5): what each collection found over what the one before it left.
    assert heap_figures(before, during) == {"alloc_mb": 12.0, "heap_after_gc_mb": 6.0}
    assert heap_figures([], during) == {"alloc_mb": 7.0, "heap_after_gc_mb": 6.0}


def test_a_step_without_a_collection_has_no_heap_figures():
    assert heap_figures(traced("go-gc", "go-gctrace.log"), []) == {}

