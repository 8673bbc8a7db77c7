"""What the manifest records about the machine and the software, read at the edge."""
import os
import re
import subprocess
import zipfile
from datetime import datetime, timezone
from pathlib import Path

from harness import drivers
from harness.measure import network, ports
from stack import registry, settings


def first_line(command):
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return "unavailable"
    text = (result.stdout or result.stderr).strip()
    return text.splitlines()[0] if text else "unavailable"


def package_version(package):
    return first_line(["dpkg-query", "-W", "-f=${Version}", package])


# The Java 25 pooled servlet's WAR: its pool's version is a build property (docs/apps.md).
JAVA25_POOLED_WAR = "target/webapps-jakarta/pooled-servlet-java25.war"


def pom_property(name):
    match = re.search(f"<{name}>([^<]+)</{name}>", (settings.ROOT / "pom.xml").read_text())
    return match.group(1) if match else "unknown"


def library_version(names, artifact):
    """Pure: the version of `artifact` among a WAR's entries (WEB-INF/lib/<artifact>-<version>.jar), or
    "none"."""
    pattern = re.compile(rf"WEB-INF/lib/{re.escape(artifact)}-(\d[^/]*)\.jar")
    return next((match.group(1) for name in names if (match := pattern.fullmatch(name))), "none")


def war_library(war, artifact):
    """The version of a library as built into a WAR (so that a build with another version says so)."""
    try:
        with zipfile.ZipFile(settings.ROOT / war) as archive:
            return library_version(archive.namelist(), artifact)
    except OSError:
        return "unbuilt"


def declared_version(how):
    """A version as a server's declaration says to read it: ["dpkg", package] or a command."""
    return package_version(how[1]) if how[0] == "dpkg" else first_line(how)


def installed_versions():
    """The versions of what is installed on this machine (on a host of TOPOLOGY=ssh: that host's):
    each server's and each load driver's, as its declaration says, and the client's tools."""
    return {
        **{what: declared_version(how) for name in registry.servers()
           for what, how in registry.server(name).get("versions", {}).items()},
        **{what: declared_version(how) for what, how in drivers.versions().items()},
        "gnuplot": first_line(["gnuplot", "--version"]),
        "python": first_line(["python3", "--version"]),
        "java 25": first_line([str(settings.JDK25 / "bin" / "java"), "-version"]),
        "kernel": os.uname().release,
    }


def versions():
    """Every component's version: what is installed, and what the build and the knobs chose."""
    return {
        **installed_versions(),
        "tomcat": settings.knob("TOMCAT_VERSION"),
        "axis": pom_property("axis.version"),
        "hikaricp": pom_property("hikaricp.version"),
        "jdbc driver": "MariaDB Connector/J " + pom_property("mariadb-java-client.version"),
        "tomcat 11": settings.knob("TOMCAT11_VERSION"),
        "hikaricp (java 25)": war_library(JAVA25_POOLED_WAR, "HikariCP"),
        "jdbc driver (java 25)": "MariaDB Connector/J " + war_library(JAVA25_POOLED_WAR, "mariadb-java-client"),
    }


def host():
    """This machine: its CPUs and memory, and the kernel settings the lab reads (kernel_settings)."""
    meminfo = Path("/proc/meminfo").read_text()
    cpuinfo = Path("/proc/cpuinfo").read_text()
    model = re.search(r"model name\s*:\s*(.+)", cpuinfo)
    return {
        "cores": os.cpu_count(),
        "memory_gib": round(int(re.search(r"MemTotal:\s+(\d+)", meminfo).group(1)) / 2 ** 20, 1),
        "cpu_model": model.group(1) if model else "unknown",
        **boot(Path("/proc/sys/kernel/random/boot_id").read_text(), Path("/proc/stat").read_text()),
        **kernel_settings(),
    }


def boot(boot_id, stat):
    """Pure: which boot of which machine ran this ({"boot_id", "booted_at"}), from the kernel's boot id
    (new at every boot) and /proc/stat's btime: two runs with one boot id ran on one VM, unrestarted,
    which a CPU model alone cannot tell (VMs of one model differ up to 2.8x on the canary)."""
    booted = re.search(r"^btime (\d+)$", stat, re.MULTILINE)
    return {"boot_id": boot_id.strip(),
            "booted_at": datetime.fromtimestamp(int(booted.group(1)), timezone.utc).isoformat(timespec="seconds")
            if booted else None}


def kernel_settings():
    """The kernel settings that bound what the lab's clients and servers can do here: a TIME_WAIT
    port's reuse, the range of local ports, the network's sysctls."""
    return {"tcp_tw_reuse": ports.tw_reuse(), "ip_local_port_range": ports.local_port_range(),
            "sysctl": network.sysctls()}


def git_state():
    def git(*args):
        result = subprocess.run(["git", *args], capture_output=True, text=True, cwd=settings.ROOT)
        return result.stdout.strip()
    return {"commit": git("rev-parse", "HEAD") or "unknown", "dirty": bool(git("status", "--porcelain"))}
