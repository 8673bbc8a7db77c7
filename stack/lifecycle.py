"""Start, check and stop the lab's private servers: MariaDB, Apache httpd + mod_php, Tomcat 9.

All state lives under var/.  Each server is started from a config generated out of the templates in
stack/conf/, is waited for until it really answers, and is stopped by the PID it wrote - after
checking that the PID still belongs to the process this lab started.  `make up`, `make down` and the
sweep's recovery all go through here.
"""
import hashlib
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from stack import settings
from stack.settings import LOG, ROOT, RUN, VAR

CONF = ROOT / "stack" / "conf"


class LabError(Exception):
    """A server could not be started or stopped; the message says which, why and what to read."""


def render(template, values, target, mode=0o644):
    text = (CONF / template).read_text()
    for key, value in values.items():
        text = text.replace(f"@{key}@", str(value))
    leftover = re.findall(r"@[A-Z_]+@", text)
    if leftover:
        raise LabError(f"{template}: placeholders left unfilled: {leftover}")
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(target.suffix + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w") as out:
        out.write(text)
    os.chmod(tmp, mode)
    os.replace(tmp, target)


def port_is_free(port):
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def http_answers(port, path="/"):
    try:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        conn.request("GET", path)
        conn.getresponse().read()
        conn.close()
        return True
    except OSError:
        return False
    except http.client.HTTPException:
        return False


def read_pid(pidfile):
    try:
        return int(pidfile.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def cmdline(pid):
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def log_tail(path, lines=15):
    try:
        return "\n".join(Path(path).read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log written)"


def pinned(command, cpus):
    """Prefix a command with taskset when the servers are to be kept off the client's cores."""
    return ["taskset", "-c", cpus, *command] if cpus else command


class Server:
    name = ""
    port_knob = ""

    @property
    def port(self):
        return settings.int_knob(self.port_knob)

    @property
    def pidfile(self):
        return RUN / f"{self.name}.pid"

    @property
    def log(self):
        return LOG / f"{self.name}.log"

    def owns(self, pid):
        """True when pid is this lab's server: guards against killing a recycled PID."""
        return str(VAR) in cmdline(pid) and self.binary_marker in cmdline(pid)

    def pid(self):
        pid = read_pid(self.pidfile)
        if pid and Path(f"/proc/{pid}").exists() and self.owns(pid):
            return pid
        return None

    def processes(self):
        """Every live process of this server (for Apache: the parent and its workers)."""
        return [int(entry.name) for entry in Path("/proc").iterdir()
                if entry.name.isdigit() and self.owns(int(entry.name)) and not is_zombie(int(entry.name))]

    def answers(self):
        raise NotImplementedError

    def start(self, cpus=None):
        if self.pid():
            if self.wait_until_answers(settings.int_knob("START_TIMEOUT")):
                return f"{self.name}: already running (pid {self.pid()}) on 127.0.0.1:{self.port}"
            raise LabError(f"{self.name}: running (pid {self.pid()}) but not answering; "
                           f"see {self.log}\n{log_tail(self.log)}")
        self.pidfile.unlink(missing_ok=True)
        if not port_is_free(self.port):
            raise LabError(f"{self.name}: port 127.0.0.1:{self.port} is taken by another process; "
                           f"free it or choose another port with {self.port_knob}=...")
        LOG.mkdir(parents=True, exist_ok=True)
        RUN.mkdir(parents=True, exist_ok=True)
        self.prepare()
        process = self.launch(cpus)
        deadline = time.monotonic() + settings.int_knob("START_TIMEOUT")
        while time.monotonic() < deadline:
            if self.pid() and self.answers():
                return f"{self.name}: up (pid {self.pid()}) on 127.0.0.1:{self.port}"
            if process is not None and process.poll() not in (None, 0):
                raise LabError(f"{self.name}: exited with code {process.returncode} while starting; "
                               f"see {self.log}\n{log_tail(self.log)}")
            time.sleep(0.2)
        raise LabError(f"{self.name}: did not answer on 127.0.0.1:{self.port} within "
                       f"{settings.knob('START_TIMEOUT')} s; see {self.log}\n{log_tail(self.log)}")

    def wait_until_answers(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.answers():
                return True
            time.sleep(0.2)
        return False

    def stop(self, grace=30):
        """Stop the server by its pid file, then kill any of its processes left over (also those
        orphaned when the main process died: Apache workers keep the port open)."""
        pid = self.pid()
        if pid:
            os.kill(pid, signal.SIGCONT)  # a SIGSTOPped server cannot act on SIGTERM
            os.kill(pid, signal.SIGTERM)
            deadline = time.monotonic() + grace
            while time.monotonic() < deadline and Path(f"/proc/{pid}").exists() and not is_zombie(pid):
                time.sleep(0.1)
        leftovers = self.processes()
        for straggler in leftovers:
            try:
                os.kill(straggler, signal.SIGKILL)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.processes():
            time.sleep(0.1)
        self.pidfile.unlink(missing_ok=True)
        if pid:
            return f"{self.name}: stopped (pid {pid})"
        return f"{self.name}: killed {len(leftovers)} leftover processes" if leftovers else f"{self.name}: not running"

    def status(self):
        pid = self.pid()
        if not pid:
            return f"{self.name:8} stopped"
        state = "answering" if self.answers() else "NOT answering"
        return f"{self.name:8} running pid {pid}, 127.0.0.1:{self.port}, {state}; log {self.log}"


def is_zombie(pid):
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False


def detached(command, log, env=None, cpus=None):
    LOG.mkdir(parents=True, exist_ok=True)
    with open(log, "ab") as out:
        return subprocess.Popen(pinned(command, cpus), stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True, env=env)


class MariaDB(Server):
    name = "mariadb"
    port_knob = "MARIADB_PORT"
    binary_marker = "mariadbd"
    datadir = VAR / "lib" / "mariadb"
    socket_path = RUN / "mariadb.sock"
    config = RUN / "my.cnf"

    def prepare(self):
        user = "root" if os.geteuid() == 0 else os.environ.get("USER") or str(os.geteuid())
        render("my.cnf.in", {
            "USER": user, "DATADIR": self.datadir, "SOCKET": self.socket_path,
            "PIDFILE": self.pidfile, "LOG": self.log, "PORT": self.port,
            "MAX_CONNECTIONS": settings.max_connections(),
            "INNODB_BUFFER_POOL": settings.knob("INNODB_BUFFER_POOL"),
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

    def launch(self, cpus):
        return detached(["mariadbd", f"--defaults-file={self.config}"], self.log, cpus=cpus)

    def answers(self):
        """The server greets every new TCP client first; a greeting means it accepts logins."""
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as conn:
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


class Apache(Server):
    name = "apache"
    port_knob = "APACHE_PORT"
    binary_marker = "apache2"
    config = RUN / "httpd.conf"

    def prepare(self):
        db = settings.db_settings()
        user_lines = ""
        docroot = ROOT / "php"
        if os.geteuid() == 0:
            user = settings.knob("APACHE_USER")
            user_lines = f"User {user}\nGroup {user}"
            docroot = self.readable_docroot(user, docroot)
        render("httpd.conf.in", {
            "RUN": RUN, "PORT": self.port, "PIDFILE": self.pidfile, "ERROR_LOG": self.log,
            "USER_LINES": user_lines, "WORKERS": settings.int_knob("APACHE_WORKERS"),
            "DOCROOT": docroot,
            "DB_HOST": db["db.host"], "DB_PORT": db["db.port"], "DB_NAME": db["db.name"],
            "DB_USER": db["db.user"], "DB_PASSWORD": db["db.password"],
        }, self.config, mode=0o600)
        check = subprocess.run(["/usr/sbin/apache2", "-t", "-f", str(self.config)],
                               capture_output=True, text=True)
        if check.returncode:
            raise LabError(f"apache: bad configuration {self.config}:\n{check.stderr.strip()}")

    @staticmethod
    def readable_docroot(user, docroot):
        """The PHP folder itself when Apache's workers can read it; else (a checkout under a 0700
        home directory) a read-only copy in a folder of its own under /tmp that they can read."""
        probe = subprocess.run(["runuser", "-u", user, "--", "test", "-r", str(docroot / "single.php")])
        if probe.returncode == 0:
            return docroot
        staged = Path("/tmp") / f"lab-php-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:10]}"
        shutil.rmtree(staged, ignore_errors=True)
        shutil.copytree(docroot, staged)
        for path in (staged, *staged.iterdir()):
            path.chmod(0o755 if path.is_dir() else 0o644)
        print(f"apache: {user} cannot read {docroot}; serving a copy from {staged}", flush=True)
        return staged

    def launch(self, cpus):
        return detached(["/usr/sbin/apache2", "-f", str(self.config), "-k", "start"], self.log,
                        cpus=cpus)

    def owns(self, pid):
        return str(self.config) in cmdline(pid)

    def answers(self):
        return http_answers(self.port)


class Tomcat(Server):
    name = "tomcat"
    port_knob = "TOMCAT_PORT"
    binary_marker = "org.apache.catalina.startup.Bootstrap"
    base = VAR / "tomcat"
    webapps_source = ROOT / "target" / "webapps"

    def prepare(self):
        home = settings.tomcat_home()
        if not (home / "bin" / "catalina.sh").exists():
            raise LabError(f"tomcat: {home} is not installed; run `make setup`")
        for folder in ("conf", "logs", "temp", "work", "webapps"):
            (self.base / folder).mkdir(parents=True, exist_ok=True)
        for name in ("web.xml", "context.xml", "catalina.properties", "logging.properties"):
            shutil.copyfile(home / "conf" / name, self.base / "conf" / name)
        render("server.xml.in", {
            "PORT": self.port, "THREADS": settings.int_knob("TOMCAT_THREADS"),
            "ACCEPT_COUNT": settings.int_knob("TOMCAT_ACCEPT_COUNT"),
        }, self.base / "conf" / "server.xml")
        self.deploy()

    def deploy(self):
        """Replace the deployed apps with the WARs built into target/webapps (if any)."""
        webapps = self.base / "webapps"
        for old in webapps.iterdir():
            shutil.rmtree(old) if old.is_dir() else old.unlink()
        if self.webapps_source.is_dir():
            for war in sorted(self.webapps_source.glob("*.war")):
                shutil.copyfile(war, webapps / war.name)

    def launch(self, cpus):
        heap = settings.knob("TOMCAT_HEAP")
        env = dict(os.environ,
                   CATALINA_HOME=str(settings.tomcat_home()), CATALINA_BASE=str(self.base),
                   CATALINA_PID=str(self.pidfile), CATALINA_OUT=str(self.log),
                   CATALINA_OPTS=" ".join([
                       f"-Xms{heap}", f"-Xmx{heap}", settings.knob("TOMCAT_GC"),
                       "-XX:+ExitOnOutOfMemoryError", "-Djava.awt.headless=true",
                       f"-Dlab.config={settings.APP_CONFIG}"]))
        return detached([str(settings.tomcat_home() / "bin" / "catalina.sh"), "start"],
                        LOG / "tomcat-launch.log", env=env, cpus=cpus)

    def answers(self):
        return http_answers(self.port)


def write_app_config():
    """The database settings the JVM apps read (PHP gets the same values through Apache)."""
    lines = [f"{key}={value}" for key, value in settings.db_settings().items()]
    settings.SECRETS.mkdir(parents=True, exist_ok=True)
    path = settings.APP_CONFIG
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write("\n".join(lines) + "\n")


SERVERS = {server.name: server for server in (MariaDB(), Apache(), Tomcat())}


def up(cpus=None):
    write_app_config()
    return [SERVERS[name].start(cpus) for name in ("mariadb", "apache", "tomcat")]


def down():
    return [SERVERS[name].stop() for name in ("tomcat", "apache", "mariadb")]


def restart(name, cpus=None):
    server = SERVERS[name]
    server.stop()
    return server.start(cpus)
