"""Whether a JVM has finished compiling its hot code. Pinned to one CPU here, Tomcat's JIT needs about
two minutes of load after a start before its compiler goes quiet, and its throughput climbs until
then (the plain servlet: 215 req/s in the first 5 s, a plateau near 650 for a minute, ~1,500 once the
compiler's cumulative time stopped at 113 s); replies/s windows can agree on that plateau. So a JIT
server's cell is warm only when its compiler is quiet too, read from the JVM's own counters (jstat)."""
import subprocess

from stack.server import pinned


def parse_compile_seconds(jstat_output):
    """Pure: the compiler's cumulative seconds from `jstat -compiler` output (its Time column); None
    when the output holds no such row."""
    lines = [line.split() for line in jstat_output.splitlines() if line.strip()]
    if len(lines) < 2 or "Time" not in lines[0]:
        return None
    try:
        return float(lines[1][lines[0].index("Time")])
    except (IndexError, ValueError):
        return None


def compiler_quiet(compile_seconds, window_s, count, share):
    """Pure: whether the compiler worked at most `share` of the time over the last `count` windows.
    `compile_seconds`: cumulative compile time sampled before the first window and after each one."""
    if len(compile_seconds) <= count or None in compile_seconds[-count - 1:]:
        return False
    return compile_seconds[-1] - compile_seconds[-count - 1] <= share * count * window_s


def compile_seconds(pid, client_cpus):
    """The JVM's cumulative compile time now (edge: runs jstat on the client's CPUs); None when it
    cannot be read (no JDK tools, another user's JVM, the process gone)."""
    if not pid:
        return None
    try:
        result = subprocess.run(pinned(["jstat", "-compiler", str(pid)], client_cpus),
                                capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return parse_compile_seconds(result.stdout) if result.returncode == 0 else None
