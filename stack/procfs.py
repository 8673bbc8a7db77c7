"""The lab's processes as /proc lists them: a process's command line, its parent and whether it is a
zombie. Within one_scan(), /proc's listing and each process's command line and stat line are read
once, and so is what is found from them (a server's processes, a parent's zombies, a pidfile): a
sample of every lab server's processes then reads them once, not once per server, and a watch's
monitors share one reading as they start and another as they finish (the step monitors)."""
import contextvars
from contextlib import contextmanager
from pathlib import Path

SCAN = contextvars.ContextVar("proc_scan", default=None)


@contextmanager
def one_scan():
    """Reads of /proc inside it are kept for its length (a thread's scan is its own); nested, the
    outermost scan's are used."""
    if SCAN.get() is not None:
        yield
        return
    token = SCAN.set({})
    try:
        yield
    finally:
        SCAN.reset(token)


def read_once(kind, pid, read):
    """read(), or within one_scan() what it gave the first time for this (kind, pid)."""
    kept = SCAN.get()
    if kept is None:
        return read()
    if (kind, pid) not in kept:
        kept[(kind, pid)] = read()
    return kept[(kind, pid)]


def proc_pids():
    """Every process's pid, as /proc lists them."""
    return read_once("pids", None, lambda: [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()])


def cmdline(pid):
    def read():
        try:
            return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            return ""
    return read_once("cmdline", pid, read)


def stat_fields(pid):
    """/proc/PID/stat's fields after the command's name (its state first, then its parent), or None
    when it is gone."""
    def read():
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            return None
    return read_once("stat", pid, read)


def parent_of(pid):
    fields = stat_fields(pid)
    return int(fields[1]) if fields and len(fields) > 1 else None


def is_zombie(pid):
    fields = stat_fields(pid)
    return bool(fields) and fields[0] == "Z"
