"""What each kind of lab server does: its configuration, its launch and how it is probed. What a
server is (its host, port, needs, packages) is its declaration in contract/targets.json; a
declaration's `class` names one of these or of stack/php_servers.py's, the servers that run PHP
(stack/lifecycle.py builds the servers from both). All state lives under var/."""
import os
import shutil
import socket
import subprocess

from stack import registry, settings
from stack.database_access import max_connections
from stack.procfs import cmdline
from stack.server import LabError, Server, render
from stack.settings import CONTRACT_ROOT, LOG, ROOT, RUN, VAR

class MariaDB(Server):
    binary_marker = "mariadbd"
    start_knobs = ("TOPOLOGY", "DB_PROFILE", "DB_DURABILITY")
    # DB_DURABILITY -> innodb_flush_log_at_trx_commit (stack/settings.py says what each waits for).
    DURABILITY = {"full": 1, "relaxed": 2}
    datadir = VAR / "lib" / "mariadb"
    socket_path = RUN / "mariadb.sock"
    config = RUN / "my.cnf"

    def prepare(self):
        user = "root" if os.geteuid() == 0 else os.environ.get("USER") or str(os.geteuid())
        render("my.cnf.in", {
            "USER": user, "DATADIR": self.datadir, "SOCKET": self.socket_path,
            "PIDFILE": self.pidfile, "LOG": self.log, "ADDRESS": self.address, "PORT": self.port,
            "MAX_CONNECTIONS": max_connections(), "BACK_LOG": settings.int_knob("MARIADB_BACK_LOG"),
            "INNODB_BUFFER_POOL": settings.knob("INNODB_BUFFER_POOL"),
            "PROFILE_SETTINGS": self.profile_settings(), "FLUSH_LOG_AT_COMMIT": self.flush_log_at_commit(),
        }, self.config)
        if not (self.datadir / "mysql").is_dir():
            self.datadir.mkdir(parents=True, exist_ok=True)
            result = subprocess.run(
                ["mariadb-install-db", f"--defaults-file={self.config}", "--skip-test-db",
                 "--auth-root-authentication-method=socket"],
                capture_output=True, text=True)
            if result.returncode:
                shutil.rmtree(self.datadir, ignore_errors=True)
                raise LabError(f"mariadb: mariadb-install-db failed:\n{result.stdout}{result.stderr}")

    @classmethod
    def flush_log_at_commit(cls):
        """innodb_flush_log_at_trx_commit for the DB_DURABILITY knob, checked."""
        durability = settings.knob("DB_DURABILITY")
        if durability not in cls.DURABILITY:
            raise LabError(f"DB_DURABILITY={durability!r}: it must be one of {', '.join(cls.DURABILITY)}")
        return cls.DURABILITY[durability]

    @staticmethod
    def profile_settings():
        """DB_PROFILE's lines for my.cnf: none for "current", stack/conf/mariadb-<profile>.cnf else."""
        profile = settings.knob("DB_PROFILE")
        if profile == "current":
            return ""
        chosen = ROOT / "stack" / "conf" / f"mariadb-{profile}.cnf"
        if not chosen.is_file():
            known = sorted(path.stem.removeprefix("mariadb-") for path in chosen.parent.glob("mariadb-*.cnf"))
            raise LabError(f"DB_PROFILE={profile!r}: it must be current or one of {', '.join(known)}")
        return chosen.read_text()

    def launch(self, cpus):
        return self.detached(["mariadbd", f"--defaults-file={self.config}"], cpus)

    def probe(self):
        """The server greets every new TCP client first; a greeting means it accepts logins."""
        try:
            with socket.create_connection((self.address, self.port), timeout=2) as conn:
                return len(conn.recv(128)) > 4
        except OSError:
            return False

    def sql(self, statements, database=None, check=True):
        """Run SQL as the instance's administrator (socket authentication as this OS user)."""
        command = ["mariadb", f"--defaults-file={self.config}", "--batch", "--skip-column-names",
                   "--local-infile=1"]
        if database:
            command.append(database)
        result = subprocess.run(command, input=statements, capture_output=True, text=True, cwd=ROOT)
        if check and result.returncode:
            raise LabError(f"mariadb: SQL failed: {result.stderr.strip()}")
        return result.stdout


class Tomcat(Server):
    """Tomcat 9 serving the WARs built into target/webapps: all of them, or, split by TOMCAT_LAYOUT=per-app
    (stack/layout.py), the one web application its declaration's `contexts` names."""
    binary_marker = "org.apache.catalina.startup.Bootstrap"
    webapps_source = ROOT / "target" / "webapps"
    version_knob = "TOMCAT_VERSION"
    java_home = None  # the machine's JDK 17

    @property
    def base(self):
        return VAR / self.name

    def owns(self, pid):
        """One of this lab's Tomcats, and this one: its CATALINA_BASE (one per JVM when split)."""
        return super().owns(pid) and f"-Dcatalina.base={self.base} " in cmdline(pid) + " "

    def prepare(self):
        home = settings.tomcat_home(self.version_knob)
        if not (home / "bin" / "catalina.sh").exists():
            raise LabError(f"{self.name}: {home} is not installed; run `make setup`")
        for folder in ("conf", "logs", "temp", "work", "webapps"):
            (self.base / folder).mkdir(parents=True, exist_ok=True)
        # A fresh pool, a fresh record of it (it would otherwise grow with every run).
        registry.pool_log(self.name).unlink(missing_ok=True)
        for name in ("web.xml", "context.xml", "catalina.properties", "logging.properties"):
            shutil.copyfile(home / "conf" / name, self.base / "conf" / name)
        render("server.xml.in", {
            "ADDRESS": self.address, "PORT": self.port, "THREADING": self.threading(),
            "ACCEPT_COUNT": settings.int_knob("TOMCAT_ACCEPT_COUNT"),
            "MAX_CONNECTIONS": settings.int_knob("TOMCAT_MAX_CONNECTIONS"),
            "KEEPALIVE_REQUESTS": settings.int_knob("KEEPALIVE_REQUESTS"),
            "KEEPALIVE_TIMEOUT_MS": settings.int_knob("KEEPALIVE_TIMEOUT_S") * 1000,
        }, self.base / "conf" / "server.xml")
        self.deploy()

    def tool(self, name):
        """A JDK tool of this server's Java (jcmd, jfr), which attaches to its JVM."""
        return str(self.java_home / "bin" / name) if self.java_home else name

    def threading(self):
        """The connector's threads: TOMCAT_THREADS platform threads."""
        return f'maxThreads="{settings.int_knob("TOMCAT_THREADS")}"'

    def deploy(self):
        """Replace the deployed apps with the WARs built into target/webapps (if any)."""
        webapps = self.base / "webapps"
        for old in webapps.iterdir():
            shutil.rmtree(old) if old.is_dir() else old.unlink()
        if self.webapps_source.is_dir():
            contexts = self.declared.get("contexts")
            for war in sorted(self.webapps_source.glob("*.war")):
                if contexts is None or war.stem in contexts:
                    shutil.copyfile(war, webapps / war.name)

    @property
    def gc_log(self):
        return LOG / f"{self.name}-gc.log"

    def launch(self, cpus):
        heap = settings.knob("TOMCAT_HEAP")
        env = dict(os.environ, **({"JAVA_HOME": str(self.java_home)} if self.java_home else {}),
                   CATALINA_HOME=str(settings.tomcat_home(self.version_knob)), CATALINA_BASE=str(self.base),
                   CATALINA_PID=str(self.pidfile), CATALINA_OUT=str(self.log),
                   CATALINA_OPTS=" ".join([
                       f"-Xms{heap}", f"-Xmx{heap}", settings.knob("TOMCAT_GC"),
                       "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true",
                       *(["-XX:+PreserveFramePointer"] if settings.knob("JIT_PROFILING") == "on" else []),
                       # One line per pause, read by harness/measure/memory.py; no rotation, so one file a JVM.
                       f"-Xlog:gc:file={self.gc_log}:uptime,level,tags:filecount=0",
                       f"-Dlab.config={settings.APP_CONFIG}", *self.pool_log_property(), *self.soap_phases_property(),
                       *self.xml_depth_limits(), *self.recording()]))
        return self.detached([str(settings.tomcat_home(self.version_knob) / "bin" / "catalina.sh"), "start"], cpus,
                             log=LOG / f"{self.name}-launch.log", env=env)

    def soap_phases_property(self):
        """Where the SOAP engines in this JVM record their requests' phases (lab.common.Phases)."""
        target = self.soap_phases_target()
        return [f"-Dlab.soapPhases={target}"] if target else []

    def pool_log_property(self):
        """Where a pool in this JVM records its use each second (the pooled servlet's HikariCP)."""
        return [f"-Dlab.poolWaitLog={registry.pool_log(self.name)}"] if registry.pool(self.name) else []


    def recording(self):
        """JVM flags for a flight recording from its start: none on Tomcat 9."""
        return []

    @staticmethod
    def xml_depth_limits():
        """The contract's envelope depth in the parsers of the Java engines: JAXP's processing limit
        (the JDK parser under Axis 1.4, which builds its tree first: 10 s of CPU for one 50,000-deep
        envelope here) and CXF's own StAX limit (default 100). They are Tomcat-wide: the other apps
        parse no XML."""
        depth = registry.soap_max_element_depth()
        return [f"-Djdk.xml.maxElementDepth={depth}", f"-Dorg.apache.cxf.stax.maxElementDepth={depth}"]


class Tomcat11(Tomcat):
    """Today's Java (issue 77): Tomcat 11 on Java 25 serving the Jakarta WARs built into
    target/webapps-jakarta, each request on a virtual thread (VTHREADS=1) or on Tomcat's platform
    threads (0). Its JVM records its pinned virtual threads (JFR's jdk.VirtualThreadPinned) from its start,
    which harness/measure/pinning.py reads for each step."""
    start_knobs = ("TOPOLOGY", "VTHREADS")
    webapps_source = ROOT / "target" / "webapps-jakarta"
    version_knob = "TOMCAT11_VERSION"
    java_home = settings.JDK25
    jfc = ROOT / "stack" / "conf" / "vthread-pinned.jfc"

    def threading(self):
        choice = self.knob("VTHREADS")
        if choice not in ("0", "1"):
            raise LabError(f"VTHREADS must be 1 (virtual threads) or 0 (platform threads), got {choice!r}")
        return 'useVirtualThreads="true"' if choice == "1" else super().threading()

    @property
    def recording_file(self):
        return LOG / f"{self.name}-pinned.jfr"

    def recording(self):
        # Kept in memory; dumped for each step by the pinning monitor, and whole at the JVM's exit.
        return [f"-XX:StartFlightRecording=name=lab,settings={self.jfc},disk=false,"
                f"dumponexit=true,filename={self.recording_file}"]


class Gsoap(Server):
    """The gSOAP server (soap-gsoap/), built by `make build`: one process, GSOAP_THREADS worker
    threads, POOL_SIZE database connections."""
    binary_marker = "player-service"
    binary = ROOT / "target" / "soap-gsoap" / "player-service"

    def prepare(self):
        if not self.binary.exists():
            raise LabError(f"gsoap: {self.binary} is not built; run `make build`")
        # A fresh pool, a fresh record of it (it would otherwise grow with every run).
        registry.pool_log(self.name).unlink(missing_ok=True)

    def launch(self, cpus):
        return self.detached(self.command(self.binary, self.port, self.pidfile), cpus)

    def command(self, binary, port, pidfile):
        """The server's command line (a test runs its AddressSanitizer build with it on another port)."""
        return [str(binary), "--bind", self.address, "--port", str(port),
                "--config", str(settings.APP_CONFIG), "--pidfile", str(pidfile),
                "--wsdl", str(CONTRACT_ROOT / "PlayerService.wsdl"),
                "--quote-response", str(CONTRACT_ROOT / "quote-response.xml"),
                "--threads", str(settings.int_knob("GSOAP_THREADS")),
                "--connections", str(settings.int_knob("POOL_SIZE")),
                "--pool-log", str(registry.pool_log(self.name)),
                "--backlog", str(settings.int_knob("GSOAP_BACKLOG")),
                "--keep-alive-requests", str(settings.int_knob("KEEPALIVE_REQUESTS")),
                "--max-depth", str(registry.soap_max_element_depth()),
                *(["--phases-log", target] if (target := self.soap_phases_target()) else [])]
