"""The servers that are their app (issue 78): a program of today's runtimes that serves the contract's
pages itself, one process pinned like the others, started and stopped by the pid file it writes.
What each is (its port, packages, pool) is its declaration in contract/targets.json."""
import os
from pathlib import Path

from stack import registry, settings
from stack.procfs import cmdline
from stack.server import LabError, Server
from stack.settings import ROOT

STATIC_BASELINE = ROOT / "php" / "baseline.html"


class OwnProcess(Server):
    """A server that is one program of the lab's own: built by `make build`, its state under var/."""
    program = None  # the file `make build` makes, which launch runs

    def owns(self, pid):
        """Its own process only: a variant runs the same program, with its own pid file."""
        return super().owns(pid) and f"{self.pidfile} " in cmdline(pid) + " "

    def prepare(self):
        if not self.program.exists():
            raise LabError(f"{self.name}: {self.program} is not built; run `make build`")
        registry.pool_log(self.name).unlink(missing_ok=True)  # a fresh pool, a fresh record of it

    def choice(self, knob, allowed):
        value = self.knob(knob)
        if value not in allowed:
            raise LabError(f"{self.name}: {knob} must be {' or '.join(allowed)}, not {value!r}")
        return value

    def common_options(self):
        """What every such server is told: where it listens and reads the lab's settings, its pool,
        its kept-alive connections' limits, and its pages' files."""
        return ["--bind", self.address, "--port", str(self.port), "--config", str(settings.APP_CONFIG),
                "--pidfile", str(self.pidfile), "--pool-size", str(settings.int_knob("POOL_SIZE")),
                "--keep-alive-requests", str(settings.int_knob("KEEPALIVE_REQUESTS")),
                "--pool-log", str(registry.pool_log(self.name)), "--static-baseline", str(STATIC_BASELINE)]


class GoHttp(OwnProcess):
    """go/: Go's net/http and database/sql with go-sql-driver/mysql; a goroutine per connection,
    POOL_SIZE database connections (docs/apps.md). Its collections are traced into its log
    (GODEBUG=gctrace=1; harness/measure/gc_trace.py reads them)."""
    binary_marker = "lab-go"
    program = ROOT / "target" / "go" / "lab-go"
    start_knobs = Server.start_knobs + ("GO_INTERPOLATE_PARAMS",)

    def launch(self, cpus):
        interpolate = self.choice("GO_INTERPOLATE_PARAMS", ("true", "false"))
        return self.detached([str(self.program), *self.common_options(), f"--interpolate-params={interpolate}",
                              "--idle-timeout", f"{settings.int_knob('KEEPALIVE_TIMEOUT_S')}s"], cpus,
                             env={**os.environ, "GODEBUG": "gctrace=1"})


class NodeHttp(OwnProcess):
    """node/: Node.js's own http module, one event loop, a pool of POOL_SIZE connections of the
    mariadb or the mysql2 driver (docs/apps.md); run by the Node.js node/'s lock file pins. V8 traces
    its collections into the log (--trace-gc; harness/measure/gc_trace.py) and, with JIT_PROFILING=on
    (`make profile` alone), names its compiled JavaScript for perf in /tmp/perf-PID.map."""
    binary_marker = "node/server.js"
    program = ROOT / "node" / "node_modules" / ".bin" / "node"
    start_knobs = Server.start_knobs + ("NODE_DRIVER", "NODE_ROWS_AS_ARRAY")

    def launch(self, cpus):
        driver = self.choice("NODE_DRIVER", ("mariadb", "mysql2"))
        rows_as_array = self.choice("NODE_ROWS_AS_ARRAY", ("true", "false")) == "true"
        perf_map = ["--perf-basic-prof-only-functions",
                    # the code events that perf map brings with it: under var/, not the cwd
                    f"--logfile={settings.LOG / f'{self.name}-v8.log'}", "--no-logfile-per-isolate"]
        return self.detached([str(self.program), "--trace-gc", *(perf_map if self.knob("JIT_PROFILING") == "on" else []),
                              str(ROOT / "node" / "server.js"), *self.common_options(),
                              "--driver", driver, *(["--rows-as-array"] if rows_as_array else []),
                              "--idle-timeout", str(settings.int_knob("KEEPALIVE_TIMEOUT_S"))], cpus)

    def stop(self, grace=30):
        """Stopped, and its perf map gone with it (V8 writes one per process and never removes it)."""
        pid = self.pid()
        stopped = super().stop(grace)
        if pid:
            Path(f"/tmp/perf-{pid}.map").unlink(missing_ok=True)
        return stopped


class RustAxum(OwnProcess):
    """rust/: axum on tokio, a sqlx pool of POOL_SIZE MySQL connections (docs/apps.md); a
    current-thread runtime on the one CPU the process may run on."""
    binary_marker = "lab-rust"
    program = ROOT / "target" / "rust" / "release" / "lab-rust"
    start_knobs = Server.start_knobs + ("RUST_TEST_BEFORE_ACQUIRE",)

    def launch(self, cpus):
        tested = self.choice("RUST_TEST_BEFORE_ACQUIRE", ("true", "false"))
        return self.detached([str(self.program), *self.common_options(), f"--test-before-acquire={tested}",
                              "--idle-timeout", str(settings.int_knob("KEEPALIVE_TIMEOUT_S"))], cpus)
