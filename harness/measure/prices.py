"""The host's price list: what the kernel and the CPU charge for the things a request is made of, read
on one CPU at a time, at the start of every round (harness/run/runner.py), on the servers' CPUs and
the client's. These VMs are nested guests, where a system call, a page fault or a context switch
passes through more layers than on bare metal, and a connection-per-request app pays a new TCP
connection on every request while a pooled one does not: the list says what this host charged, so
that a figure that moved can be set against what moved under it (harness/report/costs.py).

`perf bench` measures what it can (a system call, two processes switching through a pipe, memcpy);
target/host-costs (host_costs.c) the page fault and the loopback TCP connection; target/canary the
speed canary, with more reps than a step's reading. Each price is read REPEATS times, pinned to the
CPU and in the servers' cgroup (as the canary is), and its median kept with its lowest and highest
reading. About 1.5 s a CPU on the Intel Xeon host kind. The parsers are pure."""
import re
import statistics
import subprocess
from dataclasses import dataclass

from stack import cgroup
from stack.settings import ROOT, VAR

HOST_COSTS = ROOT / "target" / "host-costs"
CANARY = ROOT / "target" / "canary"
REPEATS = 5


def per_op_us(output):
    """Pure: perf bench's "N usecs/op" line (syscall basic, sched pipe)."""
    found = re.search(r"([\d.]+) usecs/op", output)
    if not found:
        raise ValueError(f"no usecs/op in perf bench's output: {output.strip()[:200]!r}")
    return float(found.group(1))


def gb_per_s(output):
    """Pure: perf bench mem's "N GB/sec" line (its MB/sec or KB/sec on a slow machine, scaled)."""
    found = re.search(r"([\d.]+) ([KMG])B/sec", output)
    if not found:
        raise ValueError(f"no bandwidth in perf bench mem's output: {output.strip()[:200]!r}")
    return float(found.group(1)) / {"G": 1, "M": 1e3, "K": 1e6}[found.group(2)]


def first_number(output):
    """Pure: host-costs' one number."""
    return float(output.split()[0])


def canary_rep_ms(output):
    """Pure: the median of the canary's reps, its CPU time's line (the second), in ms."""
    return statistics.median(int(word) / 1000 for word in output.splitlines()[1].split())


@dataclass(frozen=True)
class Price:
    name: str          # the column's name: what, in which unit
    about: str         # what it is, in words a report can use ("a TCP connection costs 2.1x here")
    command: tuple     # argv, relative to the project for its own programs
    reading: object    # output -> the price
    paid_in: str       # the CPU time a request pays it in: "user" (its own code) or "system" (the
                       # kernel's); "wait", none: the request waits for it (the disk)
    higher_is_faster: bool = False


PRICES = (
    Price("canary_ms", "the speed canary's rep", (str(CANARY), "20"), canary_rep_ms, "user"),
    Price("syscall_us", "a system call", ("perf", "bench", "syscall", "basic", "-l", "300000"), per_op_us,
          "system"),
    # A pipe's round trip between two processes on one CPU: two context switches, two reads, two writes.
    Price("context_switch_us", "a context switch", ("perf", "bench", "sched", "pipe", "-l", "20000"),
          lambda output: per_op_us(output) / 2, "system"),
    Price("page_fault_us", "a minor page fault", (str(HOST_COSTS), "fault", "20000"),
          lambda output: first_number(output) / 1000, "system"),
    Price("tcp_connection_us", "a loopback TCP connection", (str(HOST_COSTS), "tcp", "2000"), first_number,
          "system"),
    Price("memcpy_gb_s", "memory bandwidth", ("perf", "bench", "mem", "memcpy", "-f", "default", "-s", "32MB",
                                              "-l", "4"), gb_per_s, "user",
          higher_is_faster=True),
    # What an InnoDB commit waits for with DB_DURABILITY=full: a block synced to the disk of var/,
    # which holds MariaDB's data (var/lib/mariadb) where the database runs on this host.
    Price("fsync_us", "a block synced to the database's disk", (str(HOST_COSTS), "fsync", "50", str(VAR)),
          first_number, "wait"),
)
BY_NAME = {price.name: price for price in PRICES}


def summarized(readings):
    """Pure: {"median", "low", "high"} of one price's readings."""
    return {"median": round(statistics.median(readings), 4), "low": round(min(readings), 4),
            "high": round(max(readings), 4)}


def read_price(price, cpu, repeats=REPEATS):
    """One price's readings on one CPU, pinned there and in the servers' cgroup."""
    readings = []
    for _ in range(repeats):
        result = subprocess.run(cgroup.entered(["taskset", "-c", str(cpu), *price.command]), capture_output=True,
                                text=True, timeout=30)
        if result.returncode:
            raise RuntimeError(f"{price.name} on CPU {cpu} failed: {(result.stdout + result.stderr).strip()[:300]}")
        readings.append(price.reading(result.stdout))
    return readings


def read_prices(cpus, repeats=REPEATS):
    """{cpu: {price: {"median", "low", "high"}}} on each CPU in turn (one at a time, so that no price
    shares the memory bus or the caches with another's reading); a price that cannot be read on this
    machine (no perf, say) is left out, with why under "missing"."""
    found = {}
    for cpu in cpus:
        found[cpu] = {}
        for price in PRICES:
            try:
                found[cpu][price.name] = summarized(read_price(price, cpu, repeats))
            except (OSError, RuntimeError, ValueError, subprocess.TimeoutExpired) as error:
                found[cpu].setdefault("missing", {})[price.name] = str(error)[:300]
    return found
