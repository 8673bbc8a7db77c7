"""Lockdown: the lab listens on its hosts' addresses only (loopback; with TOPOLOGY=netns each host's
namespace address, as test_netns.py runs this suite; with TOPOLOGY=ssh the hosts Ansible set up, as
test_ssh.py runs it), its apps log in with an account that reads and may raise a row's version only, the servers serve the apps and
nothing else, and the secrets stay private. What each host exposes is read on that host
(stack/exposure.py)."""
import json
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from harness.hosts import channel, servers
from stack import lab, lifecycle, registry, remote, settings, topology
from stack.settings import ROOT

from .conftest import fetch


@pytest.fixture(scope="module")
def exposed(stack):
    """{host: what it exposes}, each host's report read there: `python3 -m stack.lab exposure`."""
    lines = lab.commands_acting_on_servers(["exposure"])["exposure"]()
    reports = [json.loads(line[line.index("{"):]) for line in lines if "{" in line]
    assert sorted(report["host"] for report in reports) == sorted(remote.ORDER), lines
    return {report["host"]: report for report in reports}


def test_every_socket_the_lab_listens_on_is_on_its_hosts_address(exposed):
    for host, report in exposed.items():
        assert sorted(report["servers"]) == sorted(name for name, server in lifecycle.lab_servers().items()
                                                   if server.host == host), f"not every {host} server runs"
        for name, server in report["servers"].items():
            addresses = server["listening"]
            if not server["tcp_port"]:
                assert not addresses, f"{name} should listen on its Unix socket only: {addresses}"
                continue
            assert addresses, f"{name} listens on no TCP socket"
            # The JVM binds an IPv6 socket to the IPv4-mapped address: the same address all the same.
            assert all(address.startswith((f"{report['address']}:", f"[::ffff:{report['address']}]:"))
                       for address in addresses), (name, addresses)


def as_app_account(statement):
    """The statement run by the apps' own account, over TCP from the web host as the apps log in
    (with TOPOLOGY=ssh, over ssh in its lab folder), its password read from that host's copy."""
    now = topology.current()
    password_file = Path("var") / settings.PASSWORD_FILE.relative_to(settings.VAR) if now.ssh else settings.PASSWORD_FILE
    command = ["sh", "-c", 'MYSQL_PWD=$(cat "$0") exec "$@"', str(password_file),
               "mariadb", "--no-defaults", "--protocol=TCP", "-h", now.address("db"), "-P", settings.knob("MARIADB_PORT"),
               "-u", settings.DB_USER, settings.DB_NAME, "--batch", "--skip-column-names", "-e", statement]
    if now.ssh:
        [web] = [host for host in remote.hosts() if host.name == "web"]
        command = web.in_root(shlex.join(command))
    return subprocess.run(topology.run_in(now.namespace("web"), command), capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("statement", [
    "INSERT INTO people_myisam (id, nameFirst) VALUES (999999, 'x')",
    "UPDATE people_innodb SET weight = 0 WHERE id = 1",
    "UPDATE people_myisam SET ver = ver + 1, nameLast = 'x' WHERE id = 1",
    "UPDATE people_innodb SET id = 999999 WHERE id = 1",
    "DELETE FROM people_myisam WHERE id = 1",
    "DROP TABLE people_innodb",
    "CREATE TABLE intruder (i INT)",
    "TRUNCATE TABLE people_myisam",
    "ALTER TABLE people_myisam ENGINE = InnoDB",
    "SELECT id FROM people_myisam LIMIT 1 INTO OUTFILE '/tmp/lab-intruder.txt'",
    "LOAD DATA INFILE '/etc/passwd' INTO TABLE people_myisam",
    "GRANT SELECT ON lab.* TO 'lab_app'@'127.0.0.1'",
    "CREATE USER 'intruder'@'%'",
    "SELECT COUNT(*) FROM mysql.user",
])
def test_the_app_account_can_only_read_the_lab_tables_and_raise_a_version(stack, statement):
    result = as_app_account(statement)
    assert result.returncode != 0, result.stdout
    assert "denied" in result.stderr, result.stderr


def test_the_app_account_reads_the_tables_and_no_file(stack):
    assert as_app_account("SELECT COUNT(*) FROM people_innodb").stdout.strip() == "16000"
    for table in lab.TABLES:  # the write workloads' one statement (a version only grows)
        raised = as_app_account(f"UPDATE {table} SET ver = ver + 1 WHERE id = 1; SELECT ROW_COUNT()")
        assert raised.returncode == 0 and raised.stdout.strip() == "1", raised.stderr
    assert as_app_account("SELECT LOAD_FILE('/etc/passwd')").stdout.strip() == "NULL"
    try:  # the tables' checksums, read on the db host (by its agent with TOPOLOGY=ssh)
        assert not lab.data_problems(servers.server("mariadb").checksums)
    finally:
        channel.stop_agents()


def test_the_php_fpm_socket_is_for_apache_s_workers_only(exposed):
    assert int(exposed["web"]["servers"]["php-fpm"]["unix_socket_mode"], 8) & 0o007 == 0


# One app of each server running PHP: mod_php's Apache, the event Apache and Lighttpd (PHP-FPM).
@pytest.mark.parametrize("app", ["php", "php-fpm", "soap-php-lighttpd"])
@pytest.mark.parametrize("path", [
    "/", "/server-status", "/server-info", "/lab.php", "/single.php~", "/single.phps", "/.git/config",
    "/php/", "/icons/", "/manual/", "/cgi-bin/", "/../../etc/passwd", "/single.php/../lab.php",
    "/nothing.php", "/baseline.php~", "/soap-baseline/", "/soap-baseline/canned-quote.php",
    "/soap-baseline/quote-response.xml~", "/soap-php/PlayerService.php", "/PlayerService.wsdl",
])
def test_each_php_server_serves_its_pages_and_nothing_else(stack, app, path):
    reply = fetch(registry.port_of(app), path)
    assert reply.status in (400, 403, 404), (path, reply.status)
    assert "Index of" not in reply.body and "<?php" not in reply.body
    assert "Apache/" not in reply.body and "lighttpd/" not in reply.body
    assert not re.search(r"\d", reply.headers.get("Server", "")), reply.headers.get("Server")


@pytest.mark.parametrize("app", sorted({registry.app(app)["server"]: app for app in registry.apps()}.values()))
def test_error_pages_carry_no_version_or_trace(stack, app):
    port = registry.port_of(app)
    for path in ("/nothing-here", "/servlet/single?id=%zz", "/%00"):
        reply = fetch(port, path)
        assert 400 <= reply.status < 500, (path, reply.status)
        for leak in ("Apache/", "Tomcat/", "Exception", "at org.", "PHP/"):
            assert leak not in reply.body, (path, leak)
        assert not re.search(r"\d", reply.headers.get("Server", "")), reply.headers.get("Server")


def tracked_files():
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    return [ROOT / name for name in listed.decode().split("\0") if name]


def test_no_password_is_committed_and_var_files_with_it_are_private(exposed):
    password = settings.db_password().encode()
    committed = [path for path in tracked_files() if path.is_file() and password in path.read_bytes()]
    assert not committed
    # The apps read it from their configuration on the web host; the db host holds it to grant it.
    assert str(settings.APP_CONFIG.relative_to(settings.VAR)) in [held["path"] for held in exposed["web"]["password_files"]]
    for host, report in exposed.items():
        for held in report["password_files"]:
            assert int(held["mode"], 8) & 0o077 == 0, f"{host}: var/{held['path']} is readable by others: {held['mode']}"
            assert held["owner"] == report["user"], (host, held)
        assert report["secrets_mode"] == "0700", host
