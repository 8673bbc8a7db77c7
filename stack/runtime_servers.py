"""The servers that are their app (issue 78): a program of today's runtimes that serves the contract's
pages itself, one process pinned like the others, started and stopped by the pid file it writes.
What each is (its port, packages, pool) is its declaration in contract/targets.json."""
from stack import registry, settings
from stack.procfs import cmdline
from stack.server import LabError, Server
from stack.settings import ROOT


class GoHttp(Server):
    """go/: Go's net/http and database/sql with go-sql-driver/mysql, built by `make build`; a goroutine
    per connection, POOL_SIZE database connections (docs/apps.md)."""
    binary_marker = "lab-go"
    binary = ROOT / "target" / "go" / "lab-go"
    start_knobs = Server.start_knobs + ("GO_INTERPOLATE_PARAMS",)

    def owns(self, pid):
        """Its own process only: a variant runs the same binary, with its own pid file."""
        return super().owns(pid) and f"{self.pidfile} " in cmdline(pid) + " "

    def prepare(self):
        if not self.binary.exists():
            raise LabError(f"{self.name}: {self.binary} is not built; run `make build`")
        registry.pool_log(self.name).unlink(missing_ok=True)  # a fresh pool, a fresh record of it

    def launch(self, cpus):
        interpolate = self.knob("GO_INTERPOLATE_PARAMS")
        if interpolate not in ("true", "false"):
            raise LabError(f"{self.name}: GO_INTERPOLATE_PARAMS must be true or false, not {interpolate!r}")
        return self.detached([
            str(self.binary), "-bind", self.address, "-port", str(self.port),
            "-config", str(settings.APP_CONFIG), "-pidfile", str(self.pidfile),
            "-pool-size", str(settings.int_knob("POOL_SIZE")), f"-interpolate-params={interpolate}",
            "-idle-timeout", f"{settings.int_knob('KEEPALIVE_TIMEOUT_S')}s",
            "-keep-alive-requests", str(settings.int_knob("KEEPALIVE_REQUESTS")),
            "-pool-log", str(registry.pool_log(self.name)),
            "-static-baseline", str(ROOT / "php" / "baseline.html")], cpus)
