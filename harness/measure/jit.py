"""A JVM's own counters: whether it has finished compiling its hot code, and what its compiler and
collector did over a step. Pinned to one CPU here, Tomcat's JIT needs about two minutes of load after
a start before its compiler goes quiet, and its throughput climbs until then (the plain servlet: 215
req/s in the first 5 s, a plateau near 650 for a minute, ~1,500 once the compiler's cumulative time
stopped at 113 s); replies/s windows can agree on that plateau. So a JIT server's cell is warm only
when its compiler is quiet too. Everything is read from the hsperfdata file every HotSpot JVM keeps
(what jstat reads), directly, in microseconds: a jstat call starts a JVM of its own on the client's
CPU, ~0.4 s after every warm-up window."""
import pwd
import struct
from pathlib import Path

# The JVM's performance counters, a memory-mapped file per JVM (-XX:+UsePerfData, HotSpot's default).
HSPERFDATA = Path("/tmp")
MAGIC = 0xCAFEC0C0


def compiler_quiet(compile_seconds, window_s, count, share):
    """Pure: whether the compiler worked at most `share` of the time over the last `count` windows.
    `compile_seconds`: cumulative compile time sampled before the first window and after each one."""
    if len(compile_seconds) <= count or None in compile_seconds[-count - 1:]:
        return False
    return compile_seconds[-1] - compile_seconds[-count - 1] <= share * count * window_s


def perf_counters(data):
    """Pure: the long counters ({name: value}) of an hsperfdata file's bytes (format 2.0: a 32-byte
    prologue, then entries each naming its length, name, type and data offset); {} when the bytes
    are not such a file."""
    if len(data) < 32 or struct.unpack_from(">I", data)[0] != MAGIC:
        return {}
    order = "<" if data[4] == 1 else ">"
    entry_offset, entries = struct.unpack_from(order + "ii", data, 24)
    counters, offset = {}, entry_offset
    for _ in range(entries):
        if offset + 20 > len(data):
            break
        length, name_offset, vector_length, data_type = struct.unpack_from(order + "iiib", data, offset)
        data_offset = struct.unpack_from(order + "i", data, offset + 16)[0]
        if length <= 0:
            break
        end = data.find(b"\0", offset + name_offset)
        name = data[offset + name_offset:end].decode("ascii", errors="replace")
        if data_type == ord("J") and vector_length == 0:
            counters[name] = struct.unpack_from(order + "q", data, offset + data_offset)[0]
        offset += length
    return counters


def compiler_seconds_of(counters):
    """Pure: the compiler's cumulative seconds (jstat -compiler's Time) from the JVM's counters;
    None when they lack it."""
    ticks, frequency = counters.get("java.ci.totalTime"), counters.get("sun.os.hrt.frequency")
    return None if ticks is None or not frequency else ticks / frequency


# HotSpot numbers its collectors young first: ParallelGC's PSScavenge and PSParallelCompact, G1's
# young and full, Serial's Copy and MarkSweepCompact.
COLLECTORS = {"gc_young": 0, "gc_full": 1}


def step_figures(before, after):
    """Pure: what the JVM did between two readings of its counters: young and full collections and
    their seconds (a full collection stops every request thread), compile seconds, and seconds with
    all threads stopped at safepoints; {} unless both readings are whole."""
    frequency = after.get("sun.os.hrt.frequency")
    if not before or not frequency:
        return {}

    def delta(name):
        return after.get(name, 0) - before.get(name, 0)
    figures = {}
    for label, index in COLLECTORS.items():
        figures[f"{label}_n"] = delta(f"sun.gc.collector.{index}.invocations")
        figures[f"{label}_s"] = round(delta(f"sun.gc.collector.{index}.time") / frequency, 3)
    figures["compile_s"] = round(delta("java.ci.totalTime") / frequency, 3)
    figures["safepoint_s"] = round(delta("sun.rt.safepointTime") / frequency, 3)
    return figures


def counters_of(pid):
    """The JVM's counters now (edge: reads its hsperfdata file, named after the user it runs as); {}
    when they cannot be read (-XX:-UsePerfData, the process gone)."""
    if not pid:
        return {}
    try:
        owner = pwd.getpwuid(Path(f"/proc/{pid}").stat().st_uid).pw_name
        data = (HSPERFDATA / f"hsperfdata_{owner}" / str(pid)).read_bytes()
    except (OSError, KeyError):
        return {}
    return perf_counters(data)


def compile_seconds(pid):
    """The JVM's cumulative compile time now; None when it cannot be read."""
    return compiler_seconds_of(counters_of(pid))
