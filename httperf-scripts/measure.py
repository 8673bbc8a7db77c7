"""The edge of the sweep that touches the world: httperf and wrk processes, health checks, server
CPU and memory from /proc, and versions for the manifest. The judging and planning stay pure."""
import http.client
import os
import re
import shlex
import subprocess
import threading
import time
from pathlib import Path

from stack import lifecycle
from stack.lifecycle import pinned

# httperf watches its sockets with select(): past ~1,000 open descriptors it fails with fd-unavail.
FD_BUDGET = 900


def step_timeout(rate, longest):
    """httperf's --timeout for a step: the workload's own, shortened so rate x timeout stays within
    the descriptor budget (at most FD_BUDGET connections can be waiting at once)."""
    return round(max(0.1, min(longest, FD_BUDGET / rate)), 2)


def httperf_command(request, rate, num_conns, timeout_s, session_file=None):
    """One open-loop httperf run: new connection per request, as in the 2006 study.

    No --hog: with it httperf binds every local port itself, which the kernel cannot recycle from
    TIME_WAIT; at ~50,000 TIME_WAIT sockets a run hung and printed nothing (measured here). Left to
    connect(), the kernel reuses TIME_WAIT ports on loopback (net.ipv4.tcp_tw_reuse)."""
    command = ["httperf", "--server", "127.0.0.1", "--port", str(request.port),
               "--rate", f"{rate:g}", "--timeout", f"{timeout_s:g}"]
    if request.method == "GET":
        return command + ["--uri", request.path, "--num-conns", str(num_conns), "--num-calls", "1"]
    headers = "".join(f"{name}: {value}\\n" for name, value in request.headers.items())
    return command + ["--wsesslog", f"{num_conns},0,{session_file}", "--add-header", headers]


def session_file_text(request):
    """A --wsesslog session of one POST; httperf replays it for every session."""
    if "'" in request.body:
        raise ValueError("httperf session bodies are single-quoted: the body cannot hold a quote")
    return f"{request.path} method={request.method} contents='{request.body}'\n"


def local_port_range():
    low, high = map(int, Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split())
    return high - low + 1


def time_wait_sockets():
    """Sockets in TIME_WAIT (state 06): each holds one of the client's ephemeral ports for 60 s."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as lines:
                next(lines)
                count += sum(1 for line in lines if line.split(None, 4)[3] == "06")
        except OSError:
            pass
    return count


def tw_reuse():
    """net.ipv4.tcp_tw_reuse: 0 never, 1 always, 2 on loopback only (the kernel's default)."""
    return int(Path("/proc/sys/net/ipv4/tcp_tw_reuse").read_text())


def ports_free_for(connections, time_wait, port_range, reuse, headroom=0.8):
    """Pure: whether a step of `connections` new connections fits in the ephemeral ports left.

    httperf closes each connection itself, so each leaves a port in TIME_WAIT for 60 s. The load
    only goes to loopback, where any tcp_tw_reuse but 0 lets connect() take those ports again; with
    0, steps in quick succession run out of ports and fail with addrunavail."""
    return reuse != 0 or time_wait + connections <= headroom * port_range


def wait_for_ports(connections, limit_s=70):
    """Seconds waited until the step's connections fit in the free ephemeral ports (bounded)."""
    started = time.monotonic()
    port_range = local_port_range()
    reuse = tw_reuse()
    needed = min(connections, int(0.8 * port_range))
    while time.monotonic() - started < limit_s and not ports_free_for(needed, time_wait_sockets(), port_range, reuse):
        time.sleep(2)
    return round(time.monotonic() - started, 1)


def run_httperf(command, wall_limit_s, client_cpus):
    """(output text, killed): the run is killed when it outlives its wall-clock bound."""
    started = time.monotonic()
    process = subprocess.Popen(pinned(command, client_cpus), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(timeout=wall_limit_s)
        killed = False
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, 9)
        output, _ = process.communicate()
        killed = True
    except BaseException:
        os.killpg(process.pid, 9)
        process.wait()
        raise
    header = f"$ {shlex.join(command)}\n# wall {time.monotonic() - started:.2f} s"
    if killed:
        header += f"; KILLED by the watchdog after {wall_limit_s:g} s"
    return f"{header}\n{output}", killed


def wrk_throughput(request, seconds, connections, client_cpus, script_dir):
    """Replies per second of a short closed-loop run (wrk, a new connection per request): the
    probe that seeds the rate plan, and the Java warm-up."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "-H", "Connection: close"]
    if request.method != "GET":
        script = Path(script_dir) / "wrk-post.lua"
        lines = [f'wrk.method = "{request.method}"', f"wrk.body = [==[{request.body}]==]"]
        lines += [f'wrk.headers["{name}"] = [==[{value}]==]' for name, value in request.headers.items()]
        script.write_text("\n".join(lines) + "\n")
        command += ["-s", str(script)]
    command.append(request.url)
    result = subprocess.run(pinned(command, client_cpus), capture_output=True, text=True,
                            timeout=seconds + 30)
    match = re.search(r"Requests/sec:\s+([\d.]+)", result.stdout)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", result.stdout)
    return {"replies_per_s": float(match.group(1)) if match else 0.0,
            "non2xx": int(non2xx.group(1)) if non2xx else 0,
            "command": shlex.join(command)}


def answers(request, timeout_s=5):
    """True when the target gives its workload request a 2xx within timeout_s."""
    try:
        conn = http.client.HTTPConnection("127.0.0.1", request.port, timeout=timeout_s)
        conn.request(request.method, request.path, body=request.body.encode() or None,
                     headers=request.headers)
        status = conn.getresponse().status
        conn.close()
        return 200 <= status < 300
    except (OSError, http.client.HTTPException):
        return False


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def cpu_and_rss(pid):
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS, int(fields[21]) * PAGE_MB
    except (OSError, IndexError, ValueError):
        return None


class ServerSampler(threading.Thread):
    """Samples every lab server's processes from /proc while a step runs: CPU seconds used during
    the step and the peak resident memory (summed over a server's processes, e.g. Apache's workers).
    A process that exits between two samples loses at most one interval of CPU time."""

    def __init__(self, interval=0.5):
        super().__init__(daemon=True)
        self.interval = interval
        self.stopping = threading.Event()
        self.first = {name: {} for name in lifecycle.SERVERS}
        self.last = {name: {} for name in lifecycle.SERVERS}
        self.peak_rss = {name: 0.0 for name in lifecycle.SERVERS}
        self.sample(initial=True)

    def sample(self, initial=False):
        for name, server in lifecycle.SERVERS.items():
            rss_total = 0.0
            for pid in server.processes():
                figures = cpu_and_rss(pid)
                if figures is None:
                    continue
                cpu, rss = figures
                # A process born during the step spent all of its CPU time in the step.
                self.first[name].setdefault(pid, cpu if initial else 0.0)
                self.last[name][pid] = cpu
                rss_total += rss
            self.peak_rss[name] = max(self.peak_rss[name], rss_total)

    def run(self):
        while not self.stopping.wait(self.interval):
            self.sample()

    def finish(self):
        self.stopping.set()
        self.join()
        self.sample()
        figures = {}
        for name in lifecycle.SERVERS:
            used = sum(cpu - self.first[name].get(pid, 0.0) for pid, cpu in self.last[name].items())
            figures[f"{name}_cpu_s"] = round(used, 2)
            figures[f"{name}_rss_peak_mb"] = round(self.peak_rss[name], 1)
        return figures


def pin_servers(cpus):
    """Move every running lab server process (all threads) onto cpus; new children inherit it."""
    if not cpus:
        return
    for server in lifecycle.SERVERS.values():
        for pid in server.processes():
            subprocess.run(["taskset", "-a", "-p", "-c", cpus, str(pid)], capture_output=True)


def first_line(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return "unavailable"
    text = (result.stdout or result.stderr).strip()
    return text.splitlines()[0] if text else "unavailable"


def package_version(package):
    return first_line(["dpkg-query", "-W", "-f=${Version}", package])


def pom_property(name):
    from stack.settings import ROOT
    match = re.search(f"<{name}>([^<]+)</{name}>", (ROOT / "pom.xml").read_text())
    return match.group(1) if match else "unknown"


def versions():
    from stack import settings
    return {
        "httpd": first_line(["/usr/sbin/apache2", "-v"]),
        "php (mod_php)": package_version("libapache2-mod-php8.2"),
        "tomcat": settings.knob("TOMCAT_VERSION"),
        "jdk": first_line(["java", "-version"]),
        "axis": pom_property("axis.version"),
        "hikaricp": pom_property("hikaricp.version"),
        "jdbc driver": "MariaDB Connector/J " + pom_property("mariadb-java-client.version"),
        "mariadb": first_line(["mariadbd", "--version"]),
        "httperf": first_line(["httperf", "--version"]),
        "wrk": package_version("wrk"),
        "gnuplot": first_line(["gnuplot", "--version"]),
        "python": first_line(["python3", "--version"]),
        "kernel": os.uname().release,
    }


def host():
    meminfo = Path("/proc/meminfo").read_text()
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = re.search(r"model name\s*:\s*(.+)", cpuinfo)
    return {
        "cores": os.cpu_count(),
        "memory_gib": round(int(re.search(r"MemTotal:\s+(\d+)", meminfo).group(1)) / 2 ** 20, 1),
        "cpu_model": model.group(1) if model else "unknown",
        "tcp_tw_reuse": tw_reuse(),
        "ip_local_port_range": local_port_range(),
    }
