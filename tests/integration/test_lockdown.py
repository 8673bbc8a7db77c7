"""Lockdown: the lab listens on its hosts' addresses only (loopback; with TOPOLOGY=netns each host's
namespace address, as test_netns.py runs this suite), its apps log in with a SELECT-only account, the
servers serve the apps and nothing else, and the secrets stay private."""
import os
import re
import stat
import subprocess

import pytest

from stack import lab, registry, settings, topology
from stack.settings import ROOT, VAR

from .conftest import fetch


def listening_sockets(namespace):
    """(local address, pids) of every listening TCP socket in a network namespace (None: this one)."""
    output = subprocess.run(topology.run_in(namespace, ["ss", "-ltnpH"]), capture_output=True, text=True,
                            check=True).stdout
    for line in output.splitlines():
        fields = line.split()
        yield fields[3], {int(pid) for pid in re.findall(r"pid=(\d+)", line)}


def test_every_socket_the_lab_listens_on_is_on_its_hosts_address(stack):
    for name, server in stack.items():
        pids = set(server.processes())
        addresses = [address for address, owners in listening_sockets(server.namespace) if owners & pids]
        if not server.port_knob:
            assert not addresses, f"{name} should listen on its Unix socket only: {addresses}"
            continue
        assert addresses, f"{name} listens on no TCP socket"
        # The JVM binds an IPv6 socket to the IPv4-mapped address: the same address all the same.
        assert all(address.startswith((f"{server.address}:", f"[::ffff:{server.address}]:"))
                   for address in addresses), (name, addresses)


def as_app_account(statement):
    """The statement run by the apps' own account, over TCP from the web host as the apps log in."""
    now = topology.current()
    return subprocess.run(topology.run_in(now.namespace("web"), [
        "mariadb", "--no-defaults", "--protocol=TCP", "-h", now.address("db"), "-P", settings.knob("MARIADB_PORT"),
        "-u", settings.DB_USER, settings.DB_NAME, "--batch", "--skip-column-names", "-e", statement]),
        env={**os.environ, "MYSQL_PWD": settings.db_password()}, capture_output=True, text=True)


@pytest.mark.parametrize("statement", [
    "INSERT INTO people_myisam (id, nameFirst) VALUES (999999, 'x')",
    "UPDATE people_innodb SET weight = 0 WHERE id = 1",
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
def test_the_app_account_can_only_read_the_lab_tables(stack, statement):
    result = as_app_account(statement)
    assert result.returncode != 0, result.stdout
    assert "denied" in result.stderr, result.stderr


def test_the_app_account_reads_the_tables_and_no_file(stack, db):
    assert as_app_account("SELECT COUNT(*) FROM people_innodb").stdout.strip() == "16000"
    assert as_app_account("SELECT LOAD_FILE('/etc/passwd')").stdout.strip() == "NULL"
    assert not lab.verify(db)


def test_the_php_fpm_socket_is_for_apache_s_workers_only(stack):
    socket_path = stack["php-fpm"].socket_path
    assert stat.S_ISSOCK(socket_path.stat().st_mode)
    assert stat.S_IMODE(socket_path.stat().st_mode) & 0o007 == 0


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


def test_no_password_is_committed_and_var_files_with_it_are_private(stack):
    password = settings.db_password().encode()
    committed = [path for path in tracked_files() if path.is_file() and password in path.read_bytes()]
    assert not committed
    holders = []
    for folder in (VAR / "secrets", VAR / "run", VAR / "log", *VAR.glob("tomcat*/conf")):  # a Tomcat per app, or one
        for path in folder.rglob("*"):
            if path.is_file() and not path.is_symlink() and path.stat().st_size < 2 ** 20 \
                    and password in path.read_bytes():
                holders.append(path)
    assert settings.APP_CONFIG in holders
    for path in holders:
        mode = stat.S_IMODE(path.stat().st_mode)
        assert mode & 0o077 == 0, f"{path} is readable by others: {oct(mode)}"
        assert path.stat().st_uid == os.getuid()
    assert stat.S_IMODE(settings.SECRETS.stat().st_mode) == 0o700
