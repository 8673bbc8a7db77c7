"""The virtual threads a JVM pinned to their carrier over a step, from its own flight recording (JFR's
jdk.VirtualThreadPinned: a virtual thread that blocked while it could not unmount, so its carrier, the
only one on a one-CPU server, waited with it; jdk.VirtualThreadSubmitFailed: one that could not be
scheduled). Tomcat 11 records them from its start (stack/servers.py's Tomcat11, every one, with its
stack); at the step's end the recording of its last seconds is dumped and read. Pure parsing here,
the JDK's jcmd and jfr at the edge."""
import json
import re
import subprocess
import tempfile
import time
from datetime import datetime
from pathlib import Path

from harness.measure.processes import process_reading
from stack import lifecycle

EVENTS = {"jdk.VirtualThreadPinned": "vt_pinned", "jdk.VirtualThreadSubmitFailed": "vt_submit_failed"}
# A JVM that spent less CPU than this over a step served no requests: it has nothing to dump.
IDLE_CPU_S = 0.1


def seconds_of(duration):
    """Pure: seconds of an ISO 8601 duration as jfr prints it (PT0.0303S, PT1M2.5S)."""
    match = re.fullmatch(r"PT(?:(\d+)H)?(?:(\d+)M)?(?:([\d.]+)S)?", duration)
    if not match:
        raise ValueError(f"not a JFR duration: {duration!r}")
    hours, minutes, seconds = (float(part or 0) for part in match.groups())
    return hours * 3600 + minutes * 60 + seconds


def epoch_of(timestamp):
    """Pure: seconds since the epoch of a JFR start time (UTC, nanoseconds: 2026-11-28T23:53:25.839185683Z)."""
    whole, _, fraction = timestamp.rstrip("Z").partition(".")
    return datetime.fromisoformat(whole + "+00:00").timestamp() + float(f"0.{fraction or 0}")


def pinned_figures(events, start, end):
    """Pure: from `jfr print --json`'s events, those that began within [start, end] (epoch seconds):
    vt_pinned, how many times a virtual thread blocked pinned, vt_pinned_ms, for how long in all, and
    vt_submit_failed."""
    figures = {figure: 0 for figure in EVENTS.values()} | {"vt_pinned_ms": 0.0}
    for event in events:
        values = event["values"]
        if event["type"] not in EVENTS or not start <= epoch_of(values["startTime"]) <= end:
            continue
        figures[EVENTS[event["type"]]] += 1
        if event["type"] == "jdk.VirtualThreadPinned":
            figures["vt_pinned_ms"] += seconds_of(values["duration"]) * 1000
    figures["vt_pinned_ms"] = round(figures["vt_pinned_ms"], 3)
    return figures


def recorded_events(server, pid, seconds):
    """The JVM's recorded events of its last `seconds` (edge: its own JDK's jcmd dumps them, jfr prints them)."""
    with tempfile.TemporaryDirectory() as folder:
        dump = Path(folder) / "step.jfr"
        subprocess.run([server.tool("jcmd"), str(pid), "JFR.dump", "name=lab", f"filename={dump}",
                        f"begin=-{seconds}s"], capture_output=True, check=True, timeout=60)
        printed = subprocess.run([server.tool("jfr"), "print", "--json", "--events", ",".join(EVENTS), str(dump)],
                                 capture_output=True, text=True, check=True, timeout=60)
    return json.loads(printed.stdout)["recording"]["events"]


class PinnedMonitor:
    """<server>_vt_pinned, <server>_vt_pinned_ms and <server>_vt_submit_failed over the step
    (pinned_figures), read after the server's CPU was (monitors.host_monitors' order), so that the dump
    costs the step nothing. A JVM that served nothing in the step is not asked."""

    def __init__(self, server):
        self.server = server

    def start(self):
        pid = lifecycle.lab_servers()[self.server].pid()
        reading = process_reading(pid) if pid else None
        self.before = (pid, reading.own[0], time.time()) if reading else None

    def finish(self):
        if not self.before:
            return {}
        pid, cpu_before, start = self.before
        end, reading = time.time(), process_reading(pid)
        if not reading or reading.own[0] - cpu_before < IDLE_CPU_S:
            return {}
        try:
            events = recorded_events(lifecycle.lab_servers()[self.server], pid, int(end - start) + 5)
        except (OSError, subprocess.SubprocessError, ValueError, KeyError):
            return {}  # the JVM gone or its recording unreadable: no figure, rather than a zero
        figures = pinned_figures(events, start, end)
        return {f"{self.server}_{figure}": value for figure, value in figures.items()}
