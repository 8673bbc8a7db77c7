"""The load generators and the one-off requests, at the edge: httperf (the open-loop steps), wrk (the
closed-loop probe and warm-up), oha (the cross-check's open-loop second opinion) and single HTTP
exchanges (health checks, the answer's verification)."""
import http.client
import json
import math
import os
import resource
import shlex
import sqlite3
import subprocess
import threading
import time
from contextlib import closing
from pathlib import Path

from harness.measure import wrk_output
from stack import settings
from stack.server import pinned


# Debian's httperf reads each --wsesslog line with fgets into 10,000-byte buffers, which keep at
# most 9,999 bytes: a longer session line (a POST body past ~9.9 KB: echo-N from N = 77) would be
# read in pieces and its body sent cut. Such sessions go to the lab's large-body build
# (httperf-scripts/build-httperf.sh), the same httperf with those buffers sized to the file.
STOCK_SESSION_LINE_LIMIT = 9999
DEFAULT_SEND_BUFFER = 4096
LARGE_BODY_HTTPERF = Path(__file__).resolve().parents[2] / "target" / "httperf" / "httperf"


def large_body_choice():
    """The knob LARGE_BODY_HTTPERF, checked: auto or always."""
    choice = settings.knob("LARGE_BODY_HTTPERF")
    if choice not in ("auto", "always"):
        raise ValueError(f"LARGE_BODY_HTTPERF is auto or always, not {choice!r}")
    return choice


def httperf_binary(request, choice=None):
    """Debian's httperf for every request it can send whole; the lab's large-body build otherwise, or
    for every POST when the knob LARGE_BODY_HTTPERF (or `choice`) is "always"."""
    choice = choice or large_body_choice()
    if request.method == "GET" or (choice == "auto" and len(session_line(request).encode())
                                   <= STOCK_SESSION_LINE_LIMIT):
        return "httperf"
    if not LARGE_BODY_HTTPERF.exists():
        raise FileNotFoundError(f"a {len(request.body.encode()):,}-byte body needs the large-body httperf, "
                                f"{LARGE_BODY_HTTPERF}: run make build")
    return str(LARGE_BODY_HTTPERF)


def step_timeout(rate, longest, fd_budget):
    """httperf's --timeout for a step: the workload's own, shortened so rate x timeout stays within
    the descriptor budget (at most fd_budget connections can be waiting at once)."""
    return round(max(0.1, min(float(longest), fd_budget / rate)), 2)


def wall_limit(num_requests, rate, timeout_s, calls=1):
    """The watchdog's bound on one httperf run: its schedule with half again as slack, then the last
    connection's calls each taking the timeout, and 15 s for start-up and the summary."""
    return num_requests / max(rate, 0.1) * 1.5 + calls * timeout_s + 15


def httperf_command(request, rate, num_requests, timeout_s, session_file=None, calls=1):
    """One open-loop httperf run of `num_requests` at `rate` req/s: a new connection per request, as
    in the 2006 study; or with `calls` > 1, connections opened at rate / calls, each carrying `calls`
    requests one after another (a GET's --num-calls; a POST's session of `calls` requests, written
    by session_file_text), kept alive.

    No --hog: with it httperf binds every local port itself, which the kernel cannot recycle from
    TIME_WAIT; at ~50,000 TIME_WAIT sockets a run hung and printed nothing (measured here). Left to
    connect(), the kernel reuses TIME_WAIT ports on loopback (net.ipv4.tcp_tw_reuse)."""
    if num_requests % calls:
        raise ValueError(f"{num_requests} requests do not fill connections of {calls} calls")
    connections = num_requests // calls
    command = [httperf_binary(request), "--server", request.host, "--port", str(request.port),
               "--rate", f"{rate / calls:g}", "--timeout", f"{timeout_s:g}",
               # Twice: httperf then prints each step's connection-lifetime histogram (1 ms bins).
               "--verbose", "--verbose"]
    if request.method == "GET":
        return command + ["--uri", request.path, "--num-conns", str(connections), "--num-calls", str(calls)]
    headers = "".join(f"{name}: {value}\\n" for name, value in request.headers.items())
    return command + ["--wsesslog", f"{connections},0,{session_file}", "--add-header", headers,
                      "--send-buffer", str(send_buffer(request))]


def send_buffer(request):
    """httperf's --send-buffer for a POST: room for the whole body, as a power of two, from httperf's
    own 4,096. httperf sets SO_SNDBUF, which turns off the kernel's autotuning: with its 4 KB, echo-10000's
    1.3 MB envelope went out in 4 KB pieces, and Axis2's reply time at 17 req/s read 262 ms, 24 ms
    with room for the body (measured here, 85 requests, twice each); wrk and oha leave it to the kernel."""
    return max(DEFAULT_SEND_BUFFER, 1 << (len(request.body.encode()) - 1).bit_length())


def session_line(request):
    """One POST as a --wsesslog line."""
    if "'" in request.body:
        raise ValueError("httperf session bodies are single-quoted: the body cannot hold a quote")
    if "\\" in request.body or "\n" in request.body:
        # httperf reads a backslash as an escape, and a line break ends its line.
        raise ValueError("httperf session bodies are one line without escapes: no backslash or line break")
    return f"{request.path} method={request.method} contents='{request.body}'\n"


def session_file_text(request, calls=1):
    """A --wsesslog session: the POST `calls` times, each line a burst of its own sent after the
    last one's reply on the session's connection; httperf replays it for every session."""
    return session_line(request) * calls


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


def wrk_throughput(request, seconds, connections, client_cpus, script_dir, keepalive=False, latency=False,
                   timeout_s=None):
    """Replies per second of a short closed-loop run (wrk, a new connection per request, or with
    `keepalive` its connections kept): the probe that seeds the rate plan, the JIT warm-up and the
    concurrency sweep's windows, which ask for its `latency` distribution, a request `timeout_s` and
    its report (`output`). `client_cpu_s`: the CPU time wrk used (itself one thread, -t1)."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s"] + ([] if keepalive else ["-H", "Connection: close"])
    command += (["--latency"] if latency else []) + ([f"--timeout={timeout_s:g}s"] if timeout_s else [])
    if request.method != "GET":
        script = Path(script_dir) / "wrk-post.lua"
        lines = [f'wrk.method = "{request.method}"', f"wrk.body = [==[{request.body}]==]"]
        lines += [f'wrk.headers["{name}"] = [==[{value}]==]' for name, value in request.headers.items()]
        script.parent.mkdir(parents=True, exist_ok=True)
        script.write_text("\n".join(lines) + "\n")
        command += ["-s", str(script)]
    command.append(request.url)
    before = children_cpu_s()
    result = subprocess.run(pinned(command, client_cpus), capture_output=True, text=True,
                            timeout=seconds + (timeout_s or 2) + 30)
    try:
        figures = wrk_output.figures(result.stdout)
    except ValueError:  # wrk could not run (no report): no replies
        figures = {"replies_per_s": 0.0, "non2xx": 0}
    return {**figures, "client_cpu_s": round(children_cpu_s() - before, 3), "output": result.stdout + result.stderr,
            "command": shlex.join(command), "seconds": seconds, "connections": connections}


def children_cpu_s():
    """The CPU seconds this process's ended children used, all told."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def oha_command(binary, request, rate, num_requests, timeout_s, max_connections, database, body_file,
                keepalive=False):
    """One open-loop oha run for the cross-check: `num_requests` at `rate` req/s, a new connection per
    request (or with `keepalive` its connections kept), latencies measured from each request's
    scheduled start (no coordinated omission). Enough connections that rate x timeout can be
    outstanding, as httperf allows, within `max_connections` (the descriptor limit; kept alive, also
    the server's connection cap). A POST's body is read from `body_file` (-D), which holds request.body:
    an argument may not pass 128 KB on Linux, and echo-1000's envelope is 128 KB."""
    connections = max(1, min(max_connections, math.ceil(rate * timeout_s)))
    command = [str(binary), "--no-tui", "--output-format", "json", "-n", str(num_requests), "-q", f"{rate:g}",
               "-c", str(connections), "-t", f"{timeout_s:g}s", "--latency-correction",
               "-m", request.method, "--db-url", str(database)] + ([] if keepalive else ["--disable-keepalive"])
    for name, value in request.headers.items():
        command += ["-H", f"{name}: {value}"]
    if request.body:
        command += ["-D", str(body_file)]
    return command + [request.url]


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
