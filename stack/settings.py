"""The servers' knobs in one place: paths, ports, versions and the settings that shape results.
(The sweep's own knobs are in httperf-scripts/sweep.json; the registry of targets in contract/.)

Each knob can be overridden by an environment variable of the same name; make passes its command
line's variables through, so `make up APACHE_PORT=9000` reaches here.  The sweep writes `knobs()`, the
values really used, into each run's manifest.
"""
import contextlib
import contextvars
import os
import secrets
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The contract the apps implement: its WSDL, its registry, getQuote's canned answer.
CONTRACT_ROOT = ROOT / "contract"
VAR = Path(os.environ.get("LAB_VAR", ROOT / "var"))
RUN = VAR / "run"
LOG = VAR / "log"
OPT = VAR / "opt"
SECRETS = VAR / "secrets"
# The pooled servlet's per-second record of requests waiting for a connection (harness/measure/pool_log.py).



# A CPU-list knob's value for "not pinned".
NOT_PINNED = "none"


def pinned_to(text):
    """A taskset CPU list, or None when it says not to pin (empty or NOT_PINNED)."""
    return None if not text or text == NOT_PINNED else text


def cpu_numbers(text):
    """The CPU numbers of a taskset list ("1", "0-3", "0,2"); None when not pinned."""
    if not pinned_to(text):
        return None
    numbers = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        numbers.update(range(int(low), int(high or low) + 1))
    return sorted(numbers)


def default_pinning():
    """(client, server) CPU lists: the load generator on CPU 0 and the servers on the rest, on a
    machine with at least two cores; no pinning ("none") on one core."""
    cores = os.cpu_count() or 1
    if cores < 2:
        return NOT_PINNED, NOT_PINNED
    return "0", f"1-{cores - 1}" if cores > 2 else "1"


DEFAULTS = {
    # Where the hosts live (stack/topology.py): "loopback" (one kernel's loopback) or "netns"
    # (client, web and db in network namespaces of their own, joined through a bridge; root only).
    "TOPOLOGY": "loopback",
    # The links' rate in netns (tc's units: 100mbit, 1gbit); empty for unshaped links.
    "LINK": "",
    # TOPOLOGY=ssh (stack/remote.py): the web and db hosts' ssh destinations ([user@]address; the
    # servers bind to that address), the folder the lab is shipped to on each ("{host}" is replaced
    # by web, db or clientN; relative to the remote user's home), and ssh's own options (e.g. -F file).
    "WEB_HOST": "",
    "DB_HOST": "",
    # Load client hosts (space- or comma-separated ssh destinations): each step's httperf clients run
    # there, in turn (CLIENTS= of them, one per host by default); empty: on this machine.
    "CLIENT_HOSTS": "",
    "REMOTE_ROOT": "weblab-{host}",
    "SSH_OPTIONS": "",
    # An Ansible inventory naming TOPOLOGY=ssh's hosts in its groups client, web and db (instead of
    # WEB_HOST, DB_HOST and CLIENT_HOSTS; stack/inventory.py); the playbooks in ansible/ drive them.
    "INVENTORY": "",
    # Set by the lab on the hosts it drives over ssh: the host this copy of the lab is (web, db).
    "LAB_ON_HOST": "",
    "MARIADB_PORT": "13306",
    "APACHE_PORT": "18080",
    "TOMCAT_PORT": "18081",
    # The second Apache (event MPM), in front of PHP-FPM.
    "APACHE_FPM_PORT": "18082",
    # The gSOAP server (soap-gsoap/): worker threads serving accepted connections, sharing a
    # pool of POOL_SIZE database connections.
    "GSOAP_PORT": "18083",
    "GSOAP_THREADS": "16",
    # Lighttpd, in front of the same PHP-FPM pool (ICWS'08's PHP + Lighttpd).
    "LIGHTTPD_PORT": "18084",
    "TOMCAT_VERSION": "9.0.104",
    # Today's Java (issue 77): Tomcat 11 on Java 25 (var/opt/jdk-25, stack/setup.sh), a JVM per app
    # (TOMCAT11_LAYOUT, as TOMCAT_LAYOUT) on this port + 100 x its place; its other settings are Tomcat's
    # knobs. VTHREADS=1: the connector runs each request on a virtual thread (useVirtualThreads); 0:
    # on TOMCAT_THREADS platform threads, as Tomcat 9. A Tomcat 11 started with the other must be stopped first.
    "TOMCAT11_VERSION": "11.0.24",
    "TOMCAT11_PORT": "18085",
    "TOMCAT11_LAYOUT": "per-app",
    "VTHREADS": "1",
    # Go's net/http and database/sql (go/, issue 78): one process, a goroutine per connection, a pool of
    # POOL_SIZE connections. false: each query a statement prepared once and executed on every request
    # (as TechEmpower's go-std); true: the driver's interpolateParams, one query with the value escaped in.
    "GO_PORT": "18086",
    "GO_INTERPOLATE_PARAMS": "false",
    # Node.js's own http module (node/, issue 78): one process, one event loop, a pool of POOL_SIZE
    # connections of NODE_DRIVER (mariadb or mysql2; each runs the query as text, its argument escaped
    # in). NODE_ROWS_AS_ARRAY=true: the driver gives each row as an array, not an object by column name.
    "NODE_PORT": "18087",
    "NODE_DRIVER": "mariadb",
    "NODE_ROWS_AS_ARRAY": "false",
    # Rust's axum on tokio with sqlx (rust/, issue 78): one process, a current-thread runtime on its one
    # CPU, a sqlx pool of POOL_SIZE connections. RUST_TEST_BEFORE_ACQUIRE=false: the pool hands a
    # connection out without pinging it first (sqlx's test_before_acquire; its ping on release stays).
    "RUST_PORT": "18088",
    "RUST_TEST_BEFORE_ACQUIRE": "true",
    # The cross-check's open-loop load generator (crates.io), built by stack/install-crate.sh.
    "OHA_VERSION": "1.16.0",
    # The profiles' folded stacks and flame graphs (crates.io, `make profile`), same installer.
    "INFERNO_VERSION": "0.12.8",
    # Which httperf drives a POST (harness/measure/load.py): "auto", Debian's for every session line
    # it reads whole and the lab's large-body build past that; "always", the large-body build for
    # every POST (the check that both give the same figures where both can send; docs/soap-engines.md).
    "LARGE_BODY_HTTPERF": "auto",
    # Apache prefork: one process per concurrent request, each with its own DB connection.
    "APACHE_WORKERS": "150",
    # PHP-FPM's static pool: PHP workers behind the event Apache, each with one persistent PDO
    # connection: the machine's cores * 2 + 1, 5 on 2 (POOL_SIZE counts the database's cores alone
    # since issue 94, 3; these workers stay at 5, their measured best). Measured with the servers on one
    # CPU (wrk, new connection per request, 3 x 8 s): 4-8 workers gave 2,100-2,550 single rows/s and
    # 16-23 pages/s of 16,000 rows; 16-64 workers 1,570-1,970 and 13-18 (more processes, one CPU).
    "PHP_FPM_WORKERS": str((os.cpu_count() or 2) * 2 + 1),
    # PHP-FPM's OPcache JIT (opcache.jit; stack/opcache.py): "off", Debian's setting,
    # or "tracing", PHP 8's recommended mode, with a 64 MiB buffer. Every PHP-FPM pool of the lab
    # runs with it; a pool started with the other value must be stopped first (docs/apps.md).
    "PHP_JIT": "off",
    # Lighttpd's own PHP-FPM pool: ICWS'08's PHP + Lighttpd ran 16 PHP processes (its §4.4, line 831 of
    # ../shared/reference/001_*), which the lab's Lighttpd keeps.
    "LIGHTTPD_PHP_WORKERS": "16",
    # Tomcat's HTTP connector: worker threads and the accept backlog beyond them. The backlog is
    # Apache's (511), not Tomcat's default 100, so that both web servers queue the same bursts: at
    # 100, a GC pause at ~5,000 new connections/s overflowed the queue, each dropped SYN waited a
    # second for its retry, and the pooled servlet failed at 4,944 req/s; at 2,048 it passed 5,425
    # with no overflow (issue 11's measurements).
    "TOMCAT_THREADS": "200",
    "TOMCAT_ACCEPT_COUNT": "511",
    # The other listen backlogs: Apache's ListenBacklog (its default; both Apaches, and PHP-FPM's
    # listen.backlog, whose default is the same 511) and MariaDB's back_log (its default for this
    # max_connections, 80 + max_connections / 5). The kernel caps each at somaxconn.
    "APACHE_LISTEN_BACKLOG": "511",
    "MARIADB_BACK_LOG": "155",
    # Kept-alive connections (the sweep's CONN=keepalive), the same on every web server: how many
    # requests one connection may carry (Apache's MaxKeepAliveRequests, Tomcat's maxKeepAliveRequests,
    # Lighttpd's server.max-keep-alive-requests, gSOAP's max_keep_alive; their defaults are 100, 100,
    # 1,000 and 100), at least the sweep's CALLS, and how long an idle one stays open (Apache's
    # KeepAliveTimeout default, 5 s; gSOAP has one receive timeout for both, 60 s, and keeps it).
    "KEEPALIVE_REQUESTS": "1000",
    "KEEPALIVE_TIMEOUT_S": "5",
    # shared: every Java app in one Tomcat, as the 2006 study deployed its servlets and Axis; per-app:
    # a Tomcat (a JVM, a heap of TOMCAT_HEAP, a GC log) for each app's web application (stack/layout.py).
    "TOMCAT_LAYOUT": "shared",
    "TOMCAT_HEAP": "2g",
    "TOMCAT_GC": "-XX:+UseParallelGC",
    # "on": every SOAP engine records each request's phases (un-marshal, logic, marshal; the Infosys
    # paper's) in var/log/<server>-soap-phases.tsv, for `make soap-phases` (docs/soap-engines.md). Off,
    # no engine's hook is installed. A server started with the other value must be stopped first.
    "SOAP_PHASES": "off",
    # "on": the JITs name and frame their compiled code for perf: the JVM keeps frame pointers in it
    # (-XX:+PreserveFramePointer), so that perf walks Java stacks, and V8 names it in /tmp/perf-PID.map
    # (--perf-basic-prof-only-functions). Only `make profile` turns it on, for the Tomcats and Node.js
    # servers it restarts (docs/profiles.md).
    "JIT_PROFILING": "off",
    "POOL_TIMEOUT_MS": "5000",
    "INNODB_BUFFER_POOL": "256M",
    # The servers' memory together, in MiB, a limit on their cgroup (stack/cgroup.py), page cache
    # included; none: no limit. The 2006 study's server had 1 GB (its line 43) and "went down"
    # under the 16,000-row page: SERVERS_MEMORY_MB=1024 imitates it (docs/results.md).
    "SERVERS_MEMORY_MB": "none",
    # MariaDB's settings: current (the lab's, above) or era (MySQL 5.0's defaults where they still
    # exist, stack/conf/mariadb-era.cnf). The tables' keys at import: keyed, unkeyed or
    # innodb-unkeyed (stack/lab.py's SCHEMAS). Both test the 2006 study's InnoDB plateau.
    "DB_PROFILE": "current",
    "DB_SCHEMA": "keyed",
    # What an InnoDB commit waits for (stack/servers.py's DURABILITY): full, its redo log's fsync at
    # every commit (innodb_flush_log_at_trx_commit=1, Debian's and MariaDB's default); relaxed, a write
    # to the OS at commit and an fsync once a second (=2, TechEmpower's my.cnf), which an OS crash or a
    # power cut may take the last second of. MyISAM never syncs at a statement's end either way.
    "DB_DURABILITY": "full",
    # Who Apache's workers run as when the lab is started by root (httpd refuses root workers).
    "APACHE_USER": "www-data",
    # CPU lists for taskset: servers and load generator kept apart; "none" = no pinning. The web
    # host's servers run on SERVER_CPUS, the database on DB_CPUS (the same CPUs unless set).
    "CLIENT_CPUS": default_pinning()[0],
    "SERVER_CPUS": default_pinning()[1],
    # Seconds a server may take to answer after start before `up` gives up on it.
    "START_TIMEOUT": "60",
}


# Knobs whose default is another knob's value.
SAME_AS = {
    # The database's CPUs: with enough cores, a db host of its own (its receive packet steering in
    # TOPOLOGY=netns too); on 2 cores it shares the web servers' one.
    "DB_CPUS": "SERVER_CPUS",
    # How many connections Tomcat takes off the accept queue: one per worker thread, as Apache's
    # prefork takes one per worker, the rest waiting in the kernel's backlog (TOMCAT_ACCEPT_COUNT).
    # Tomcat's own default (8,192 for NIO) queues thousands of requests behind the threads; once
    # that queue outlasts the client's timeout (0.16 s at 5,500 req/s, fd_budget) every request
    # served is one whose client has left, and the server stays busy with none of them answered.
    # Measured here, the pooled servlet after a step above its capacity (httperf, 5 s steps): at
    # 8,192, 5,500 req/s then gave 523 replies/s and 6,500 gave 425; at 200, 5,494 and 5,069.
    "TOMCAT_MAX_CONNECTIONS": "TOMCAT_THREADS",
    # The gSOAP server's listen backlog: Apache's, as Tomcat's accept count.
    "GSOAP_BACKLOG": "APACHE_LISTEN_BACKLOG",
}


def hikari_pool_size():
    """Every pool's connections (POOL_SIZE) by HikariCP's formula ("About Pool Sizing"): "connections
    = ((core_count * 2) + effective_spindle_count)", the cores the database's, here DB_CPUS (on 2 cores
    the one it shares with the servers; the load client's is not the database's), one spindle: 3 on
    one core. Until 2026-12-02 it counted every core of the machine: 5 on 2."""
    cores = cpu_numbers(knob("DB_CPUS")) or range(os.cpu_count() or 1)
    return str(2 * len(cores) + 1)


# Knobs whose default is worked out from other knobs.
DERIVED = {"POOL_SIZE": hikari_pool_size}


# Knobs a command sets for what it runs within `chosen`, above the environment's: a value passed down,
# never written into os.environ (which every later process would inherit).
CHOSEN = contextvars.ContextVar("chosen knobs", default={})


@contextlib.contextmanager
def chosen(**values):
    """Within the block, these knobs read as given (a server started there records them)."""
    unknown = [name for name in values if name not in (*DEFAULTS, *SAME_AS, *DERIVED)]
    if unknown:
        raise ValueError(f"no knob {', '.join(unknown)}")
    token = CHOSEN.set({**CHOSEN.get(), **values})
    try:
        yield
    finally:
        CHOSEN.reset(token)


def knob(name):
    value = CHOSEN.get().get(name) or os.environ.get(name)
    if value:
        return value
    if name in DERIVED:
        return DERIVED[name]()
    return knob(SAME_AS[name]) if name in SAME_AS else DEFAULTS[name]


def int_knob(name):
    value = knob(name)
    try:
        return int(value)
    except ValueError:
        raise SystemExit(f"{name} must be an integer, got {value!r}") from None


def servers_memory_mb():
    """SERVERS_MEMORY_MB in MiB, or None for no limit."""
    return None if knob("SERVERS_MEMORY_MB") == "none" else int_knob("SERVERS_MEMORY_MB")


def knobs():
    return {name: knob(name) for name in [*DEFAULTS, *SAME_AS, *DERIVED]}


def cpus(name):
    """A CPU-list knob for taskset, or None for no pinning."""
    return pinned_to(knob(name))


# Debian's php8.2-fpm binary (the package's system service is never started).
PHP_FPM = "/usr/sbin/php-fpm8.2"


def tomcat_home(version_knob="TOMCAT_VERSION"):
    return OPT / f"apache-tomcat-{knob(version_knob)}"


# Java 25, Tomcat 11's (a link to the JDK that stack/setup.sh found or installed).
JDK25 = OPT / "jdk-25"


DB_NAME = "lab"
DB_USER = "lab_app"
PASSWORD_FILE = SECRETS / "db-password"
APP_CONFIG = SECRETS / "app.properties"


def ensure_password():
    """The application account's password: generated once, kept in var/, readable by its owner only."""
    SECRETS.mkdir(parents=True, exist_ok=True)
    SECRETS.chmod(0o700)
    if not PASSWORD_FILE.exists():
        fd = os.open(PASSWORD_FILE, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(16) + "\n")
    return PASSWORD_FILE.read_text().strip()


def db_password():
    if not PASSWORD_FILE.exists():
        raise SystemExit(f"{PASSWORD_FILE} is missing: run `make setup` first")
    return PASSWORD_FILE.read_text().strip()
