"""What one host of the lab exposes, read where its servers run: the TCP sockets each running server
listens on, its Unix socket's mode, and every file under var/ that holds the app password, with its
mode and owner. `python3 -m stack.lab exposure` prints it, one JSON line per host (on TOPOLOGY=ssh's
hosts, through Ansible: ansible/exposure.yml); the lockdown suite (tests/integration/test_lockdown.py)
judges it on every topology."""
import os
import re
import stat
import subprocess

from stack import lifecycle, settings, topology
from stack.settings import VAR


def listening(namespace):
    """(local address, pids) of every listening TCP socket in a network namespace (None: this one)."""
    output = subprocess.run(topology.run_in(namespace, ["ss", "-ltnpH"]), capture_output=True, text=True,
                            check=True).stdout
    return [(line.split()[3], {int(pid) for pid in re.findall(r"pid=(\d+)", line)}) for line in output.splitlines()]


def mode(path):
    return f"{stat.S_IMODE(path.stat().st_mode):04o}"


def password_files():
    """Every file under the folders where the lab writes secrets, configurations and logs (a Tomcat
    per app, or one) that holds the app password: its path under var/, mode and owner."""
    password = settings.db_password().encode()
    held = []
    for folder in (settings.SECRETS, VAR / "run", VAR / "log", *sorted(VAR.glob("tomcat*/conf"))):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink() and path.stat().st_size < 2 ** 20 \
                    and password in path.read_bytes():
                held.append({"path": str(path.relative_to(VAR)), "mode": mode(path), "owner": path.stat().st_uid})
    return held


def report(host):
    """What `host` (web or db) exposes, as JSON-able values. Its servers are those running here."""
    now = topology.current()
    sockets = listening(now.namespace(host))
    servers = {}
    for name, server in lifecycle.lab_servers().items():
        if server.host != host or not server.pid():
            continue
        pids = set(server.processes())
        unix_socket = getattr(server, "socket_path", None)
        servers[name] = {"tcp_port": bool(server.port_knob),
                         "listening": sorted(address for address, owners in sockets if owners & pids),
                         **({"unix_socket_mode": mode(unix_socket)} if unix_socket and unix_socket.exists() else {})}
    return {"host": host, "address": now.address(host), "user": os.getuid(), "servers": servers,
            "secrets_mode": mode(settings.SECRETS), "password_files": password_files()}
