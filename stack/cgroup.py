"""The servers' cgroup: every lab server starts in it, and so does the speed canary
(harness/measure/canary.py), so that the canary feels what the servers feel, a CPU quota included.
One per checkout (its name carries the var/ folder's digest, as the namespaces' do). Cgroup v1's cpu
and memory controllers, or cgroup v2; where neither can be written (no root, a read-only
/sys/fs/cgroup) there is none, and servers and canary run where they were started. Its memory may
be limited (SERVERS_MEMORY_MB: the 2006 study's 1 GB server imitated), and the kernel's OOM kills
inside it are counted."""
from pathlib import Path

from stack import settings, topology

ROOT = Path("/sys/fs/cgroup")
NAME = f"{topology.prefix_for(settings.VAR)}-servers"


def folder():
    """The cgroup's folder under the cpu controller (v1) or the unified hierarchy (v2)."""
    v1 = ROOT / "cpu"
    return (v1 if (v1 / "cgroup.procs").exists() else ROOT) / NAME


def memory_folder():
    """The cgroup's folder under the memory controller (v1), or its one folder (v2)."""
    v1 = ROOT / "memory"
    return v1 / NAME if (v1 / "cgroup.procs").exists() else ROOT / NAME


def folders():
    """The cgroup's folders: the cpu and memory controllers' under v1, its one folder under v2."""
    return list(dict.fromkeys((folder(), memory_folder())))


def ensure():
    """The servers' cgroup folders (the cpu controller's, and the memory controller's under v1),
    created if need be; [] where cgroups cannot be written."""
    made = []
    for path in folders():
        try:
            path.mkdir(exist_ok=True)
        except OSError:
            continue
        if (path / "cgroup.procs").exists():
            made.append(path)
    return made


def entered(command):
    """The command, started in the servers' cgroup: a shell moves itself there, then becomes the
    command (same process, so every thread and child it makes is in it too). As it is where there
    is no cgroup."""
    paths = ensure()
    if not paths:
        return list(command)
    moves = "; ".join(f'echo $$ > {path / "cgroup.procs"}' for path in paths)
    return ["sh", "-c", f'{moves}; exec "$@"', "sh", *command]


def limit_memory(megabytes):
    """Hold the servers' memory together to `megabytes` (None: no limit), page cache included, as a
    machine of that size would; SystemExit in words where the cgroup has no memory controller."""
    ensure()
    path = memory_folder()
    v1, v2 = path / "memory.limit_in_bytes", path / "memory.max"
    if not (v1.exists() or v2.exists()):
        if megabytes is None:
            return
        raise SystemExit(f"SERVERS_MEMORY_MB={megabytes}: the servers' cgroup has no memory controller here "
                         f"({path}); run as root on a machine with cgroup v1's memory controller or v2's enabled")
    if v1.exists():
        v1.write_text(f"{-1 if megabytes is None else megabytes * 1024 ** 2}\n")
    else:
        v2.write_text(f"{'max' if megabytes is None else megabytes * 1024 ** 2}\n")


def oom_kills():
    """How many processes the kernel's OOM killer has killed in the servers' cgroup so far (v1's
    memory.oom_control, v2's memory.events: their oom_kill line); 0 where it keeps no count."""
    for name in ("memory.oom_control", "memory.events"):
        try:
            text = (memory_folder() / name).read_text()
        except OSError:
            continue
        return next((int(line.split()[1]) for line in text.splitlines() if line.startswith("oom_kill ")), 0)
    return 0


def throttled():
    """How many times a CPU quota has held the cgroup back so far (cpu.stat's nr_throttled); 0 where
    there is no cgroup."""
    try:
        stat = (folder() / "cpu.stat").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in stat.splitlines() if line.startswith("nr_throttled ")), 0)


def cpu_quota(share):
    """Limit the cgroup's processes together to `share` of one CPU (None: no limit). The slowdown
    test's tool: a CPU that runs slower for the servers, as a busy neighbour makes it. The period is
    10 ms, shorter than a canary rep (3 ms of CPU, two reps at once), so every rep is held back alike;
    at the default 100 ms a rep could finish inside a period's budget at full speed, and the median of
    five read anywhere from 1x to 25x the reference (CI, AMD EPYC: 0.34 of the reference once, 0.06 most
    runs)."""
    path = folder()
    period = 10_000
    if (path / "cpu.cfs_quota_us").exists():
        (path / "cpu.cfs_period_us").write_text(f"{period}\n")
        (path / "cpu.cfs_quota_us").write_text(f"{-1 if share is None else round(share * period)}\n")
    else:
        (path / "cpu.max").write_text(f"{'max' if share is None else round(share * period)} {period}\n")


def remove():
    """Remove the cgroup once no process is left in it (`make down`); a cgroup still in use stays."""
    for path in folders():
        try:
            path.rmdir()
        except OSError:
            pass
