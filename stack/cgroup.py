"""The servers' CPU cgroup: every lab server starts in it, and so does the speed canary
(harness/measure/canary.py), so that the canary feels what the servers feel, a CPU quota included.
One per checkout (its name carries the var/ folder's digest, as the namespaces' do). Cgroup v1's cpu
controller or cgroup v2; where neither can be written (no root, a read-only /sys/fs/cgroup) there is
none, and servers and canary run where they were started."""
from pathlib import Path

from stack import settings, topology

ROOT = Path("/sys/fs/cgroup")
NAME = f"{topology.prefix_for(settings.VAR)}-servers"


def folder():
    """The cgroup's folder under the cpu controller (v1) or the unified hierarchy (v2)."""
    v1 = ROOT / "cpu"
    return (v1 if (v1 / "cgroup.procs").exists() else ROOT) / NAME


def ensure():
    """The servers' cgroup, created if need be; None where cgroups cannot be written."""
    path = folder()
    try:
        path.mkdir(exist_ok=True)
    except OSError:
        return None
    return path if (path / "cgroup.procs").exists() else None


def entered(command):
    """The command, started in the servers' cgroup: a shell moves itself there, then becomes the
    command (same process, so every thread and child it makes is in it too). As it is where there
    is no cgroup."""
    path = ensure()
    if path is None:
        return list(command)
    return ["sh", "-c", f'echo $$ > {path / "cgroup.procs"}; exec "$@"', "sh", *command]


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
    try:
        folder().rmdir()
    except OSError:
        pass
