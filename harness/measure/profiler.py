"""A CPU profile of the servers over a stretch of load, at the edge: `perf record` of the software
cpu-clock event on the servers' CPUs (this VM has no hardware counters; the timer event needs none),
with call chains by frame pointer, and the monotonic clock so that the samples can be cut to the
step's own window. A JVM's compiled code is named by the map the JVM writes itself
(`jcmd PID Compiler.perfmap`, /tmp/perf-PID.map, which perf reads); its stacks are walked only when
it keeps frame pointers, and V8's by the map it writes as it compiles; both only under
stack/settings.py's JIT_PROFILING, which `make profile` turns on.
Native code (Apache, PHP, libxml2, libmariadb, gSOAP, MariaDB, the kernel) needs nothing extra.
Folded stacks and flame graphs come from inferno (crates.io, stack/install-crate.sh)."""
import os
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

from harness.measure.processes import zombie_children
from harness.measure.sampling import Sampler
from stack import lifecycle, registry, settings
from stack.procfs import one_scan
from stack.server import pinned

INFERNO = settings.OPT / "inferno" / "bin"
FIELDS = "comm,pid,tid,cpu,time,period,ip,sym,dso"
FREQUENCY_HZ = 999  # not a multiple of the kernel's tick, so that the samples do not beat with it


def version():
    return subprocess.run(["perf", "--version"], capture_output=True, text=True).stdout.strip()


def unavailable():
    """Why this machine cannot profile the servers, or None: perf is missing, or the kernel lets this
    user see no other process's CPU (perf_event_paranoid above 0 without root)."""
    try:
        subprocess.run(["perf", "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "perf is missing: run `make setup` (Debian's linux-perf)"
    paranoid = int(Path("/proc/sys/kernel/perf_event_paranoid").read_text())
    if os.geteuid() != 0 and paranoid > 0:
        return (f"perf_event_paranoid is {paranoid}: profiling every process on the servers' CPUs needs root "
                "or `sysctl kernel.perf_event_paranoid=0`")
    if not (INFERNO / "inferno-flamegraph").exists():
        return f"{INFERNO / 'inferno-flamegraph'} is missing: run `make profile` (it builds inferno first)"
    return None


class Owners(Sampler):
    """Which lab server each process belongs to, sampled while the load runs (Apache's prefork
    workers come and go): {pid: server}."""

    def __init__(self, interval=0.2):
        super().__init__(interval)
        self.found = {}

    def sample(self):
        with one_scan():
            for name, server in lifecycle.lab_servers().items():
                for pid in [*server.processes(), *zombie_children(server.pid())]:
                    self.found[pid] = name

    def __enter__(self):
        self.start()
        return self.found

    def __exit__(self, *_):
        self.stop()
        return False


@contextmanager
def recording(data_path, server_cpus, client_cpus):
    """perf record on `server_cpus` while the block runs, itself on `client_cpus`, into `data_path`."""
    command = ["perf", "record", "-q", "-a", "-C", server_cpus, "-e", "cpu-clock", "-F", str(FREQUENCY_HZ), "-g",
               "-k", "CLOCK_MONOTONIC", "-o", str(data_path)]
    process = subprocess.Popen(pinned(command, client_cpus), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
    time.sleep(0.5)  # perf opens its events before the load starts
    if process.poll() is not None:
        raise RuntimeError(f"perf record exited at once: {process.stderr.read().strip()[-300:]}")
    try:
        yield
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def write_jit_maps():
    """Each running JVM server writes its perf map (its compiled methods' addresses and names):
    {server: the map's path} of those that did."""
    written = {}
    for name in registry.servers_on(None):
        if not registry.server_jit(name):
            continue
        server = lifecycle.lab_servers()[name]
        pid = server.pid()
        if pid and subprocess.run([server.tool("jcmd"), str(pid), "Compiler.perfmap"], capture_output=True,
                                  timeout=60).returncode == 0:
            written[name] = f"/tmp/perf-{pid}.map"
    return written


def script(data_path):
    """perf script's text of a recording (parsed by harness/measure/perf_script.py)."""
    return subprocess.run(["perf", "script", "-i", str(data_path), "-F", FIELDS], capture_output=True, text=True,
                          check=True, timeout=600).stdout


def folded(script_text):
    """The samples as folded stacks (inferno-collapse-perf): one line a stack, its frames joined by
    ";" from the thread's name down to the leaf, then its sample count."""
    return subprocess.run([str(INFERNO / "inferno-collapse-perf")], input=script_text, capture_output=True,
                          text=True, check=True, timeout=600).stdout


def flame_graph(folded_text, title):
    """An SVG flame graph of folded stacks (inferno-flamegraph)."""
    return subprocess.run([str(INFERNO / "inferno-flamegraph"), "--title", title, "--countname", "samples"],
                          input=folded_text, capture_output=True, text=True, check=True, timeout=600).stdout
