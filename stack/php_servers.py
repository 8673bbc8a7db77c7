"""The servers that run PHP: Apache + mod_php (prefork), the PHP-FPM pool, and the two servers in
front of that pool (Apache with the event MPM, Lighttpd). Like stack/servers.py, each is the
behaviour a declaration's `class` names in contract/targets.json."""
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from stack import registry, settings
from stack.database_access import db_settings
from stack.opcache import opcache_flags
from stack.procfs import cmdline, parent_of
from stack.server import LabError, Server, read_pid, render
from stack.settings import CONTRACT_ROOT, ROOT, RUN


def as_user_lines(directive, separator=" "):
    """The lines that make a server's workers run as APACHE_USER when the lab is started by root
    (httpd and PHP-FPM refuse root workers); none otherwise."""
    if os.geteuid() != 0:
        return ""
    user = settings.knob("APACHE_USER")
    return "\n".join(f"{name}{separator}{user}" for name in directive)


def readable_folder(folder):
    """A folder Apache's workers read (PHP files, the WSDL): the folder itself when their user can
    read it; else (a checkout under a 0700 home directory) a read-only copy in a folder of its own
    under /tmp that they can read."""
    if os.geteuid() != 0:
        return folder
    user = settings.knob("APACHE_USER")
    probe = subprocess.run(["runuser", "-u", user, "--", "test", "-r", str(next(folder.iterdir()))])
    if probe.returncode == 0:
        return folder
    staged = Path("/tmp") / f"lab-{folder.name}-{hashlib.sha1(str(ROOT).encode()).hexdigest()[:10]}"
    shutil.rmtree(staged, ignore_errors=True)
    shutil.copytree(folder, staged)
    for path in (staged, *staged.iterdir()):
        path.chmod(0o755 if path.is_dir() else 0o644)
    print(f"{user} cannot read {folder}; Apache serves it from a copy in {staged}", flush=True)
    return staged


def workers_log(path):
    """Where PHP's workers (APACHE_USER) can append to a record: `path` when they can reach its folder;
    else the same name in a folder of its own under /tmp (a lab under a 0700 directory, as
    readable_folder copies what they read)."""
    if os.geteuid() != 0:
        return path
    probe = subprocess.run(["runuser", "-u", settings.knob("APACHE_USER"), "--", "test", "-x", str(path.parent)])
    if probe.returncode == 0:
        return path
    folder = Path("/tmp") / f"lab-log-{hashlib.sha1(str(path.parent).encode()).hexdigest()[:10]}"
    folder.mkdir(mode=0o755, exist_ok=True)
    return folder / path.name


class PhpWorkersRecord:
    """A server whose PHP workers record the SOAP phases: in a file they can reach."""

    @property
    def soap_phases_log(self):
        return workers_log(super().soap_phases_log)


DOCROOT = ROOT / "php"
SOAP_PHP_ROOT = ROOT / "soap-php"


def served_files(server_name):
    """{URL path: (folder, file name)} of the pages and scripts the web server `server_name` serves
    from the repository's folders: each of its apps' service or workload paths (their query aside),
    the file named by the path's last part in the app's folder (a name without an extension is a PHP
    script's: `.php` added). The web servers' configurations list exactly these."""
    files = {}
    for name in registry.apps() + registry.test_only_apps():
        spec = registry.app(name)
        if spec["server"] != server_name:
            continue
        paths = [spec["service"]] if spec["kind"] == "soap" else [load["path"] for load in spec["workloads"].values()]
        for path in paths:
            url = path.split("?")[0]
            last = url.rsplit("/", 1)[-1]
            files[url] = (spec.get("folder", name), last if "." in last else f"{last}.php")
    return files


def docroot_files(served):
    """Pure: the pattern of the file names Apache serves from the pages' folder (php/), those of the
    registry's apps on it (served_files); the folder's other files are denied."""
    names = sorted({file for folder, file in served.values() if folder == DOCROOT.name})
    return f"^({'|'.join(re.escape(name) for name in names)})$"


class Apache(PhpWorkersRecord, Server):
    """The mod_php instance (prefork). Its siblings differ in the runtime part of the config."""
    binary_marker = "apache2"
    runtime_template = "httpd-mod_php.conf.in"
    # Workers at start and after each recycle; prefork then adds more as the load needs them.
    start_servers = 10

    @property
    def config(self):
        return RUN / f"{self.name}.conf"

    def runtime_values(self):
        return {"START_SERVERS": self.start_servers, "WORKERS": settings.int_knob("APACHE_WORKERS"),
                "SOAP_PHP_ROOT": readable_folder(SOAP_PHP_ROOT), "CONTRACT_ROOT": readable_folder(CONTRACT_ROOT),
                "SOAP_PHASES_LOG": self.soap_phases_target(settings.knob("APACHE_USER"))}

    def prepare(self):
        db = db_settings()
        docroot = readable_folder(DOCROOT)
        runtime_conf = RUN / f"{self.name}-runtime.conf"
        runtime_dir = RUN / f"{self.name}.d"
        runtime_dir.mkdir(parents=True, exist_ok=True)
        render(self.runtime_template, {"DOCROOT": docroot, **self.runtime_values()}, runtime_conf)
        render("httpd.conf.in", {
            "RUN": RUN, "ADDRESS": self.address, "PORT": self.port, "PIDFILE": self.pidfile, "ERROR_LOG": self.log,
            "RUNTIME_DIR": runtime_dir, "RUNTIME_CONF": runtime_conf,
            "USER_LINES": as_user_lines(("User", "Group")),
            "LISTEN_BACKLOG": settings.int_knob("APACHE_LISTEN_BACKLOG"),
            "KEEPALIVE_REQUESTS": settings.int_knob("KEEPALIVE_REQUESTS"),
            "KEEPALIVE_TIMEOUT_S": settings.int_knob("KEEPALIVE_TIMEOUT_S"),
            "DOCROOT": docroot, "DOCROOT_FILES": docroot_files(served_files(self.name)),
            "DB_HOST": db["db.host"], "DB_PORT": db["db.port"], "DB_NAME": db["db.name"],
            "DB_USER": db["db.user"], "DB_PASSWORD": db["db.password"],
        }, self.config, mode=0o600)
        check = subprocess.run(["/usr/sbin/apache2", "-t", "-f", str(self.config)],
                               capture_output=True, text=True)
        if check.returncode:
            raise LabError(f"{self.name}: bad configuration {self.config}:\n{check.stderr.strip()}")

    def renew_workers(self):
        """A graceful restart (SIGUSR1): every worker exits after its current request and prefork
        starts StartServers fresh ones. An overloaded step grows the pool towards MaxRequestWorkers
        and prefork retires only one idle worker a second, so without this the steps after an
        overload ran with ~100 workers sharing one CPU, and failed below rates that had passed
        (docs/measurement-log.md)."""
        pid = self.pid()
        if not pid:
            return None
        old_generation = set(self.processes()) - {pid}
        os.kill(pid, signal.SIGUSR1)
        deadline = time.monotonic() + 10
        # Done when every old worker has exited and the new ones are up. A bare count is not enough:
        # while the old exit and the new start, it passes through anything from 1 to both together.
        while time.monotonic() < deadline and not self.renewed(old_generation):
            time.sleep(0.1)
        # Counted before the probe: prefork tops its idle workers up to MinSpareServers while a
        # request is in flight, so a count after it can read a worker or two more.
        after = len(self.processes())
        self.wait_until_answers(10)
        return f"{self.name}: workers recycled by a graceful restart ({len(old_generation) + 1} -> {after} processes)"

    def renewed(self, old_generation):
        """True once no worker of the old generation is left and the new one has its StartServers."""
        running = set(self.processes())
        return not running & old_generation and len(running) >= self.start_servers + 1

    def launch(self, cpus):
        return self.detached(["/usr/sbin/apache2", "-f", str(self.config), "-k", "start"], cpus)

    def owns(self, pid):
        return str(self.config) in cmdline(pid)


class PhpFpm(Server):
    """A PHP-FPM pool: a fixed number of PHP workers (its declaration's `workers_knob`) on a Unix socket
    of its own, for the web server whose `fastcgi` names it, its OPcache as deployed (opcache_flags)."""
    binary_marker = "php-fpm"
    start_knobs = ("TOPOLOGY", "PHP_JIT")

    @staticmethod
    def socket_of(name):
        return RUN / f"{name}.sock"

    @property
    def config(self):
        return RUN / f"{self.name}.conf"

    @property
    def socket_path(self):
        return self.socket_of(self.name)

    @property
    def endpoint(self):
        return str(self.socket_path)

    def php_flags(self):
        """The master's -d flags: OPcache as deployed, the JIT as PHP_JIT says (stack/opcache.py)."""
        return opcache_flags(self.knob("PHP_JIT"))

    def prepare(self):
        render("php-fpm.conf.in", {
            "PIDFILE": self.pidfile, "ERROR_LOG": self.log, "SOCKET": self.socket_path, "POOL": self.name,
            "USER_LINES": as_user_lines(("user", "group", "listen.owner", "listen.group"), " = "),
            "LISTEN_BACKLOG": settings.int_knob("APACHE_LISTEN_BACKLOG"),
            "WORKERS": settings.int_knob(self.declared["workers_knob"]),
        }, self.config)
        check = subprocess.run([settings.PHP_FPM, "-t", "--fpm-config", str(self.config),
                                *self.php_flags()], capture_output=True, text=True)
        if check.returncode:
            raise LabError(f"{self.name}: bad configuration {self.config}:\n{check.stderr.strip()}")

    def launch(self, cpus):
        return self.detached([settings.PHP_FPM, "--nodaemonize", "--fpm-config", str(self.config),
                              *self.php_flags()], cpus)

    def probe(self):
        try:
            with socket.socket(socket.AF_UNIX) as conn:
                conn.settimeout(2)
                conn.connect(str(self.socket_path))
            return True
        except OSError:
            return False

    def owns(self, pid):
        """The master names its config; the workers ("php-fpm: pool <name>") are its children."""
        if str(self.config) in cmdline(pid):
            return True
        master = read_pid(self.pidfile)
        return bool(master) and parent_of(pid) == master and self.binary_marker in cmdline(pid) \
            and str(self.config) in cmdline(master)


class FpmApache(Apache):
    """The event-MPM Apache in front of the PHP-FPM pool its `fastcgi` names (mod_php needs prefork: it
    cannot share the first).
    Its threads and a static FPM pool do not grow into the steps after an overload: it is declared
    without recycle."""
    runtime_template = "httpd-php-fpm.conf.in"

    def runtime_values(self):
        return {"FPM_SOCKET": PhpFpm.socket_of(self.declared["fastcgi"])}


def lighttpd_routes(served, roots, socket):
    """Pure: Lighttpd's lines for the files it serves ({URL path: (folder, file)}, served_files)
    from their folders' `roots`: an alias per path, the paths allowed (every other denied), and a
    FastCGI entry for each path whose file is a PHP script of another name."""
    return {
        "ALIASES": ",\n".join(f'    "{url}" => "{roots[folder]}/{file}"' for url, (folder, file) in served.items()),
        "ALLOWED": "|".join(re.escape(url) for url in served),
        "FASTCGI": "".join(f'    "{url}" => (("socket" => "{socket}")),\n' for url, (_, file) in served.items()
                           if file.endswith(".php") and not url.endswith(".php")),
    }


class Lighttpd(PhpWorkersRecord, Server):
    """Lighttpd in front of a PHP-FPM pool of its own (`fastcgi`): PHP's SOAP service, the server's two
    baselines and the two engine-less SOAP ones."""
    binary_marker = "lighttpd"
    empty_root = RUN / "lighttpd-root"

    @property
    def config(self):
        return RUN / f"{self.name}.conf"

    def prepare(self):
        db = db_settings()
        self.empty_root.mkdir(parents=True, exist_ok=True)
        user = settings.knob("APACHE_USER")
        fpm_socket = PhpFpm.socket_of(self.declared["fastcgi"])
        served = served_files(self.name)
        # Each folder made readable once (as root, readable_folder copies it).
        roots = {folder.name: readable_folder(folder) for folder in
                 {DOCROOT, SOAP_PHP_ROOT, CONTRACT_ROOT, *(ROOT / folder for folder, _ in served.values())}}
        render("lighttpd.conf.in", {
            **lighttpd_routes(served, roots, fpm_socket),
            "ADDRESS": self.address, "PORT": self.port, "PIDFILE": self.pidfile, "EMPTY_ROOT": self.empty_root,
            "LISTEN_BACKLOG": settings.int_knob("APACHE_LISTEN_BACKLOG"),
            "KEEPALIVE_REQUESTS": settings.int_knob("KEEPALIVE_REQUESTS"),
            "KEEPALIVE_TIMEOUT_S": settings.int_knob("KEEPALIVE_TIMEOUT_S"),
            "USER_LINES": f'server.username = "{user}"\nserver.groupname = "{user}"' if os.geteuid() == 0 else "",
            "DOCROOT": roots[DOCROOT.name], "SOAP_PHP_ROOT": roots[SOAP_PHP_ROOT.name],
            "CONTRACT_ROOT": roots[CONTRACT_ROOT.name], "FPM_SOCKET": fpm_socket,
            "SOAP_PHASES_LOG": self.soap_phases_target(user),  # written by PHP-FPM's workers, which run as APACHE_USER
            "DB_HOST": db["db.host"], "DB_PORT": db["db.port"], "DB_NAME": db["db.name"],
            "DB_USER": db["db.user"], "DB_PASSWORD": db["db.password"],
        }, self.config, mode=0o600)
        check = subprocess.run(["/usr/sbin/lighttpd", "-tt", "-f", str(self.config)], capture_output=True, text=True)
        if check.returncode:
            raise LabError(f"{self.name}: bad configuration {self.config}:\n{check.stdout}{check.stderr}".strip())

    def launch(self, cpus):
        return self.detached(["/usr/sbin/lighttpd", "-D", "-f", str(self.config)], cpus)

    def owns(self, pid):
        return str(self.config) in cmdline(pid)
