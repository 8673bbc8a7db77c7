"""The load generators run, and the one-off requests, at the edge: httperf's runs (the open-loop
steps, here or through load client hosts), a closed-loop window by any closed-loop driver, oha's runs
(the cross-check's open-loop second opinion) and single HTTP exchanges (health checks, the answer's
verification). The commands are the drivers' (harness/drivers)."""
import http.client
import json
import os
import resource
import shlex
import sqlite3
import subprocess
import threading
import time
from contextlib import closing
from pathlib import Path

from harness.drivers import wrk
from stack.server import pinned


def wall_limit(num_requests, rate, timeout_s, calls=1):
    """The watchdog's bound on one httperf run: its schedule with half again as slack, then the last
    connection's calls each taking the timeout, and 15 s for start-up and the summary."""
    return num_requests / max(rate, 0.1) * 1.5 + calls * timeout_s + 15


def httperf_here(command, client_cpus):
    """A launch (argv, file for its input or None) of httperf on this machine, on the client's CPUs."""
    return pinned(command, client_cpus), None


def host_session_file(number):
    """What a load client host calls one client's --wsesslog session, in its agent's folder (several
    clients may share a host)."""
    return f"session-{number}.txt"


def usage_line(usage):
    """Pure: the header line that keeps what a client's process cost the kernel (os.wait4's rusage):
    its minor page faults and context switches, voluntary and not (httperf prints its CPU time)."""
    return f"# rusage: minflt {usage.ru_minflt} nvcsw {usage.ru_nvcsw} nivcsw {usage.ru_nivcsw}"


def reaped(process, deadline):
    """(output, killed, rusage) of one client: its output read to the end, its process killed (with
    its group) if still running at `deadline`, then reaped with os.wait4 for what it cost."""
    fired = threading.Event()

    def kill():
        # Only a client still running is killed: one that has exited is waiting to be reaped.
        if os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
            fired.set()
            os.killpg(process.pid, 9)
    watchdog = threading.Timer(max(0.0, deadline - time.monotonic()), kill)
    watchdog.start()
    try:
        output = process.stdout.read()
        _, status, usage = os.wait4(process.pid, 0)
    finally:
        watchdog.cancel()
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stdout.close()
    return output, fired.is_set(), usage


def run_httperfs(launches, wall_limit_s):
    """[(output text, killed)], one per launch (argv, file for its input or None): the clients start
    together (one after another, without waiting) for one shared window; a client still running at
    the wall-clock bound is killed. Each output is headed by its command line, its wall time and
    what its process cost the kernel (usage_line)."""
    started = time.monotonic()
    processes = []
    for argv, input_file in launches:
        with open(input_file or os.devnull, "rb") as given:
            processes.append(subprocess.Popen(argv, stdin=given, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                              text=True, start_new_session=True))
    results = []
    try:
        for (argv, _), process in zip(launches, processes):
            output, killed, usage = reaped(process, started + wall_limit_s)
            header = f"$ {shlex.join(argv)}\n# wall {time.monotonic() - started:.2f} s"
            if killed:
                header += f"; KILLED by the watchdog after {wall_limit_s:g} s"
            results.append((f"{header}\n{usage_line(usage)}\n{output}", killed))
    except BaseException:
        for process in processes:
            if process.returncode is None and process.poll() is None:
                os.killpg(process.pid, 9)
                process.wait()
        raise
    return results


def run_window(window, client_cpus, workdir, driver=wrk):
    """One closed-loop window (harness.drivers.Window) run by `driver`, a closed-loop binding (wrk
    unless given): the probe that seeds the rate plan, the JIT warm-up, the cross-check's ladder and
    the concurrency sweep's windows. The driver's figures (replies per second, none when it printed no
    report), with `client_cpu_s`, the CPU time it used (both drivers run one thread), its `output`
    and `command`."""
    argv, inputs = driver.invocation(window, workdir)
    for path, text in inputs.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    before = children_cpu_s()
    result = subprocess.run(pinned(argv, client_cpus), capture_output=True, text=True,
                            timeout=window.seconds + (window.timeout_s or 2) + 30)
    try:
        figures = driver.figures(result.stdout)
    except ValueError:  # the driver could not run (no report): no replies
        figures = {"replies_per_s": 0.0, "non2xx": 0}
    return {**figures, "client_cpu_s": round(children_cpu_s() - before, 3), "output": result.stdout + result.stderr,
            "command": shlex.join(argv), "seconds": window.seconds, "connections": window.connections}


def children_cpu_s():
    """The CPU seconds this process's ended children used, all told."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime



def run_oha(command, wall_limit_s, client_cpus, database):
    """(oha's JSON report or None, when each reply ended in seconds from the start, the command as
    text): None when it printed no report in time. The per-request database it wrote (--db-url,
    megabytes a run) is read and removed."""
    database = Path(database)
    database.parent.mkdir(parents=True, exist_ok=True)
    database.unlink(missing_ok=True)
    try:
        result = subprocess.run(pinned(command, client_cpus), capture_output=True, text=True, timeout=wall_limit_s)
        report = json.loads(result.stdout)
        with closing(sqlite3.connect(database)) as connection:
            ends = [end for (end,) in connection.execute("SELECT end FROM oha")]
    except (subprocess.TimeoutExpired, json.JSONDecodeError, sqlite3.Error):
        report, ends = None, []
    finally:
        database.unlink(missing_ok=True)
    return report, ends, shlex.join(command)


def exchange(request, timeout_s=5):
    """(status, body text) of one request; None when the target did not answer in time."""
    try:
        conn = http.client.HTTPConnection(request.host, request.port, timeout=timeout_s)
        conn.request(request.method, request.path, body=request.body.encode() or None,
                     headers=request.headers)
        response = conn.getresponse()
        reply = response.status, response.read().decode("utf-8", errors="replace")
        conn.close()
        return reply
    except (OSError, http.client.HTTPException):
        return None


def answers(request, timeout_s=5):
    """True when the target gives its workload request a 2xx within timeout_s."""
    reply = exchange(request, timeout_s)
    return reply is not None and 200 <= reply[0] < 300
