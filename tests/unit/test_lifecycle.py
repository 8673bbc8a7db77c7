"""Lifecycle pieces that need no server: config rendering, port probing, PID ownership, pinning."""
import os
import socket
import subprocess

import pytest

from harness.results.manifest import Manifest
from harness.hosts.servers import Pinning
from stack import database_access, lifecycle, php_servers, server, servers, settings


def test_max_connections_covers_every_worker_thread_and_pooled_connection(monkeypatch):
    monkeypatch.setenv("APACHE_WORKERS", "10")
    monkeypatch.setenv("TOMCAT_THREADS", "20")
    monkeypatch.setenv("POOL_SIZE", "5")
    monkeypatch.setenv("PHP_FPM_WORKERS", "7")
    monkeypatch.setenv("LIGHTTPD_PHP_WORKERS", "16")
    # Apache's workers, the event Apache's FPM pool and its JIT variant's (persistent connections),
    # Lighttpd's FPM pool (a connection per call), Tomcat's threads and its pool, gSOAP's pool, Tomcat 11's
    # five JVMs (one a web application, TOMCAT11_LAYOUT=per-app, two of them the platform threads'
    # variant) each its threads and its pool, the Go server's pool and its variant's, the Node.js
    # server's and its two variants', the Rust server's and its variant's, and 20 to spare.
    assert database_access.max_connections() == 10 + 2 * 7 + 16 + 20 + 5 + 5 + 5 * (20 + 5) + 2 * 5 + 3 * 5 + 2 * 5 + 20


def test_every_pool_is_sized_by_hikaris_formula_over_the_databases_cores(monkeypatch):
    # connections = core_count * 2 + effective_spindle_count (1), the cores the database's: on 2
    # cores the one CPU it shares with the servers, not the load client's.
    monkeypatch.setenv("SERVER_CPUS", "1")
    assert settings.knob("POOL_SIZE") == "3"
    monkeypatch.setenv("DB_CPUS", "2-5")
    assert settings.knob("POOL_SIZE") == "9"
    monkeypatch.setenv("DB_CPUS", "none")
    assert settings.knob("POOL_SIZE") == str(2 * os.cpu_count() + 1)
    monkeypatch.setenv("POOL_SIZE", "7")
    assert settings.knob("POOL_SIZE") == "7" and settings.knobs()["POOL_SIZE"] == "7"


def test_render_refuses_to_leave_a_placeholder_unfilled(tmp_path):
    with pytest.raises(server.LabError, match="@PORT@"):
        server.render("server.xml.in", {"THREADING": 'maxThreads="1"', "ACCEPT_COUNT": 1}, tmp_path / "s.xml")


@pytest.mark.parametrize("topology, address", [("loopback", "127.0.0.1"), ("netns", "198.18.0.2")])
def test_rendered_server_xml_binds_the_web_hosts_address_and_disables_the_shutdown_port(
        tmp_path, monkeypatch, topology, address):
    monkeypatch.setenv("TOPOLOGY", topology)
    monkeypatch.setenv("TOMCAT_THREADS", "7")
    target = tmp_path / "server.xml"
    server.render("server.xml.in", {"ADDRESS": lifecycle.lab_servers()["tomcat"].address, "PORT": 8123,
                                    "THREADING": lifecycle.lab_servers()["tomcat"].threading(), "ACCEPT_COUNT": 3, "MAX_CONNECTIONS": 7, "KEEPALIVE_REQUESTS": 250,
                                    "KEEPALIVE_TIMEOUT_MS": 5000}, target)
    text = target.read_text()
    assert f'address="{address}" port="8123"' in text
    assert 'maxThreads="7" acceptCount="3"' in text and 'maxConnections="7"' in text
    assert 'maxKeepAliveRequests="250" keepAliveTimeout="5000"' in text
    assert '<Server port="-1"' in text
    assert "AJP" not in text.replace("no AJP", "")


def test_tomcat_11_runs_requests_on_virtual_threads_unless_vthreads_is_0(monkeypatch):
    monkeypatch.setenv("TOMCAT_THREADS", "9")
    tomcat11 = lifecycle.lab_servers()["tomcat11-servlet-java25"]
    assert tomcat11.threading() == 'useVirtualThreads="true"'
    monkeypatch.setenv("VTHREADS", "0")
    assert tomcat11.threading() == lifecycle.lab_servers()["tomcat"].threading() == 'maxThreads="9"'
    monkeypatch.setenv("VTHREADS", "yes")
    with pytest.raises(server.LabError, match="VTHREADS must be 1"):
        tomcat11.threading()


def test_render_can_restrict_the_file_to_its_owner(tmp_path):
    target = tmp_path / "secret.conf"
    values = {key: "x" for key in ("RUN", "ADDRESS", "PORT", "PIDFILE", "ERROR_LOG", "RUNTIME_DIR", "RUNTIME_CONF", "USER_LINES",
                                   "LISTEN_BACKLOG", "KEEPALIVE_REQUESTS", "KEEPALIVE_TIMEOUT_S", "DOCROOT", "DOCROOT_FILES", "DB_HOST",
                                   "DB_PORT", "DB_NAME", "DB_USER", "DB_PASSWORD")}
    server.render("httpd.conf.in", values, target, mode=0o600)
    assert oct(target.stat().st_mode & 0o777) == "0o600"


def test_a_bound_port_is_not_free():
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        assert not server.port_is_free("127.0.0.1", holder.getsockname()[1])


def test_a_server_never_claims_a_pid_it_did_not_start(tmp_path, monkeypatch):
    mariadb = servers.MariaDB("mariadb")
    pidfile = tmp_path / "mariadb.pid"
    monkeypatch.setattr(type(mariadb), "pidfile", property(lambda self: pidfile))
    # Only this test's own processes may be touched, never a lab server that happens to be running.
    monkeypatch.setattr(type(mariadb), "processes", lambda self: [])
    pidfile.write_text(f"{os.getpid()}\n")  # this pytest process: alive, but not a lab mariadbd
    assert mariadb.pid() is None
    assert mariadb.stop() == "mariadb: not running"
    assert not pidfile.exists()


def test_stop_kills_the_processes_a_dead_main_process_left_behind(tmp_path, monkeypatch):
    apache = php_servers.Apache("apache")
    monkeypatch.setattr(type(apache), "pidfile", property(lambda self: tmp_path / "apache.pid"))
    orphan = subprocess.Popen(["sleep", "60"])
    monkeypatch.setattr(type(apache), "processes",
                        lambda self: [orphan.pid] if orphan.poll() is None else [])
    try:
        assert apache.stop() == "apache: killed 1 leftover processes"
        assert orphan.wait(timeout=5) == -9
    finally:
        orphan.kill()


def test_tomcat_takes_one_connection_per_thread_unless_told(monkeypatch):
    monkeypatch.setenv("TOMCAT_THREADS", "48")
    monkeypatch.delenv("TOMCAT_MAX_CONNECTIONS", raising=False)
    assert settings.knob("TOMCAT_MAX_CONNECTIONS") == "48"
    assert settings.knobs()["TOMCAT_MAX_CONNECTIONS"] == "48"
    monkeypatch.setenv("TOMCAT_MAX_CONNECTIONS", "8192")
    assert settings.knob("TOMCAT_MAX_CONNECTIONS") == "8192"


def test_the_database_runs_on_the_web_servers_cpus_unless_db_cpus_gives_it_its_own(monkeypatch):
    monkeypatch.setenv("CLIENT_CPUS", "0")
    monkeypatch.setenv("SERVER_CPUS", "1-2")
    assert lifecycle.host_cpus() == {"client": "0", "web": "1-2", "db": "1-2"}
    monkeypatch.setenv("DB_CPUS", "3")
    assert lifecycle.host_cpus() == {"client": "0", "web": "1-2", "db": "3"}
    assert (lifecycle.server_cpus("mariadb"), lifecycle.server_cpus("tomcat")) == ("3", "1-2")
    chosen = Pinning.from_knobs()
    assert (chosen.cpus_of("mariadb"), chosen.cpus_of("apache"), chosen.host_cpus("web")) == ("3", "1-2", "1-2")
    # A run's servers ran on the union of both lists.
    run = Manifest({"pinning": {"server_cpus": "1-2", "db_cpus": "3"}, "host": {"cores": 8}})
    assert run.server_cores == 3 and run.servers_pinning_text == "web servers on CPUs 1-2, the database on 3"
    older = Manifest({"pinning": {"server_cpus": "1"}, "host": {"cores": 8}})
    assert older.server_cores == 1 and older.servers_pinning_text == "servers on CPUs 1"
    assert Manifest({"pinning": {"server_cpus": "none", "db_cpus": "3"}, "host": {"cores": 8}}).server_cores == 8


def test_php_fpm_runs_opcache_as_deployed_with_the_jit_php_jit_names():
    off, tracing = php_servers.opcache_flags("off"), php_servers.opcache_flags("tracing")
    assert off == ["-d", "opcache.validate_timestamps=0", "-d", "opcache.jit=off", "-d", "opcache.jit_buffer_size=0"]
    assert tracing[:2] == off[:2] and tracing[2:] == ["-d", "opcache.jit=tracing", "-d", "opcache.jit_buffer_size=64M"]
    with pytest.raises(server.LabError, match="^PHP_JIT=function: one of off, tracing$"):
        php_servers.opcache_flags("function")
    assert "PHP_JIT" in php_servers.PhpFpm("php-fpm").fixed_knobs, "a running pool keeps the JIT it started with"
