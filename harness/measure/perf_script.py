"""`perf script`'s text, read as samples. Pure.

The profiler (harness/measure/profiler.py) asks `perf script -F comm,pid,tid,cpu,time,period,ip,sym,dso`
for its samples: per sample a header line (the thread's name, which may hold spaces, pid/tid, the CPU
in brackets, the time in seconds of the clock perf recorded by, and the sample's period in ns of the
cpu-clock event), then its call chain, one frame a line
from the leaf up: the address, the symbol (`[unknown]` when none) and the object it is in, in
parentheses (a JIT's perf map, `/tmp/perf-PID.map`, for a JVM's or V8's compiled code). A blank line
ends a sample."""
import re
from dataclasses import dataclass

HEADER = re.compile(r"^(?P<comm>.*?)\s+(?P<pid>-?\d+)/(?P<tid>-?\d+)\s+\[(?P<cpu>\d+)\]\s+"
                    r"(?:(?P<time>\d+\.\d+):\s+)?(?P<period>\d+)\s*$")
# The object may hold one pair of parentheses of its own: "(/memfd:jit-cache (deleted))".
FRAME = re.compile(r"^\s+[0-9a-f]+\s(?P<symbol>.*?)\s?\((?P<dso>[^()]*(?:\([^()]*\))?[^()]*)\)$")
KERNEL = "[kernel.kallsyms]"
JIT_MAP = re.compile(r"^/tmp/perf-\d+\.map$")
# V8 names its code in the map by kind: "JS:*route file:///work/main/node/server.js:87:18" (a
# JavaScript function; * optimized, ~ interpreted, ^ baseline), "Builtin:...", "RegExp:...".
V8_CODE = re.compile(r"^(JS|Builtin|BytecodeHandler|Stub|RegExp|Script|Eval|Function|LazyCompile|Handler):")


@dataclass(frozen=True)
class Sample:
    thread: str  # the thread's name (a JVM names its threads: "C2 CompilerThre", "GC Thread#0")
    pid: int
    tid: int
    cpu: int
    period_ns: int
    frames: tuple  # ((symbol, object), ...) from the leaf up
    time_s: float = None  # when it was taken, by the clock perf recorded with (None: not asked for)

    @property
    def in_kernel(self):
        return bool(self.frames) and self.frames[0][1] == KERNEL


def frame_key(symbol, dso):
    """How a frame is named to the classification (harness/judge/cpu_components.py): a JVM's compiled
    or interpreted method as `java:package.Class.method` (the perf map's name without its return and
    argument types), V8's code as `js:` and its name in the map, any other frame as `symbol (object)`."""
    if JIT_MAP.match(dso) and V8_CODE.match(symbol):
        return "js:" + symbol
    if JIT_MAP.match(dso):
        head = symbol.split("(", 1)[0]
        return "java:" + head.rsplit(" ", 1)[-1] if "(" in symbol else "java:" + symbol
    return f"{symbol} ({dso})"


def samples(text):
    """The samples of perf script's text, in order; ValueError on a line that is neither a header nor
    a frame."""
    found, header, frames = [], None, []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            if header:
                found.append(sample(header, frames))
            header, frames = None, []
            continue
        if header is None:
            header = HEADER.match(line)
            if not header:
                raise ValueError(f"perf script line {number}: no sample header: {line[:120]!r}")
            continue
        match = FRAME.match(line)
        if not match:
            raise ValueError(f"perf script line {number}: no frame: {line[:120]!r}")
        frames.append((match["symbol"], match["dso"]))
    if header:
        found.append(sample(header, frames))
    return found


def sample(header, frames):
    return Sample(header["comm"], int(header["pid"]), int(header["tid"]), int(header["cpu"]), int(header["period"]),
                  tuple(frames), float(header["time"]) if header["time"] else None)


def within(found, start_s, end_s):
    """The samples taken from `start_s` to `end_s` (the clock perf recorded with)."""
    return [each for each in found if start_s <= each.time_s <= end_s]
