"""The real stack for integration tests: started (and imported) once, stopped at the end even when a
test fails - unless it was already running before the tests, in which case it is left as found. With
TOPOLOGY=netns the tests run from the client host's namespace, as the sweep does; with TOPOLOGY=ssh
the hosts' servers are set up by Ansible."""
import http.client
import random
import socket
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import pytest

from harness.measure import profiler
from harness.results.records import LOCATED, LOWER_BOUND_STATUSES
from harness.results.store import read_steps
from stack import lab, lifecycle, registry, topology
from stack.settings import ROOT

COLUMNS = lab.COLUMN_NAMES


@pytest.fixture(scope="session")
def stack():
    if topology.current().ssh:
        yield from hosts_stack()
        return
    already_running = all(server.pid() for server in lifecycle.lab_servers().values())
    try:
        lifecycle.up()
        lab.import_data(if_needed=True)
        topology.enter(topology.current().namespace("client"))
    except lifecycle.LabError as error:
        lifecycle.down()
        pytest.fail(str(error))
    yield lifecycle.lab_servers()
    if not already_running:
        lifecycle.down()


def hosts_stack():
    """TOPOLOGY=ssh (test_ssh.py runs test_lockdown.py so): every server up on its host and the data
    imported, through Ansible's playbooks, as `make up` and `make import` do; stopped so at the end."""
    commands = lab.commands_acting_on_servers
    try:
        commands(["up"])["up"]()
        commands(["import", "--if-needed"])["import"]()
    except lifecycle.LabError as error:
        pytest.fail(str(error))
    yield lifecycle.lab_servers()
    commands(["down"])["down"]()


@pytest.fixture(scope="session")
def inferno():
    """perf and inferno (folded stacks, flame graphs), as `make profile` installs it."""
    subprocess.run(["bash", "stack/install-crate.sh", "inferno", "INFERNO_VERSION", "1.71", "inferno-flamegraph"],
                   cwd=ROOT, check=True, capture_output=True, timeout=900)
    problem = profiler.unavailable()
    assert problem is None, problem


@pytest.fixture(scope="session")
def db(stack):
    return stack["mariadb"]


def db_rows(db, engine, where="1=1", limit=None):
    return lab.rows(db, engine, where, limit)


def measured_rate(files, row):
    """A cell's saturation figure, once its status says it has one. A cell that was not measured
    (no step passed, other work disturbed it, a wrong answer) fails the test with its status, its note
    and every step's verdict, not with a comparison against None."""
    if row.status not in (LOCATED, *LOWER_BOUND_STATUSES):
        steps_file = files.cell_steps(row.key, row.round, row.replica)
        steps = read_steps(steps_file) if steps_file.exists() else []
        told = "".join(f"\n  step {step.step} at {step.offered_rate:g}/s: {step.verdict}, {step.reason}"
                       for step in steps)
        pytest.fail(f"{row.visit} has no saturation figure: {row.status} ({row.note}){told}")
    return row.saturation_rps


@dataclass
class Reply:
    status: int
    headers: http.client.HTTPMessage  # names case-insensitive, as HTTP's are (hyper sends them lowercase)
    body: str


def fetch(port, path, method="GET", body=None, headers=None, timeout=60, half_close=False):
    """One HTTP exchange with a raw path (so hostile bytes reach the server unaltered); half_close
    shuts down the client's sending side once the request is sent, as HTTP/1.1 allows."""
    conn = http.client.HTTPConnection(topology.current().address("web"), port, timeout=timeout)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in (headers or {}).items():
            conn.putheader(name, value)
        payload = body.encode("utf-8") if isinstance(body, str) else body
        if payload is not None:
            conn.putheader("Content-Length", str(len(payload)))
        conn.endheaders(payload)
        if half_close:
            conn.sock.shutdown(socket.SHUT_WR)
        response = conn.getresponse()
        return Reply(response.status, response.headers,
                     response.read().decode("utf-8", errors="replace"))
    finally:
        conn.close()


def send(request, timeout=60):
    return fetch(request.port, request.path, request.method, request.body or None, request.headers,
                 timeout)


def sample_ids():
    """First, last, a few fixed ones and a seeded random sample."""
    return sorted({1, 2, 100, 8000, 15999, 16000, *random.Random(2006).sample(range(1, 16001), 6)})


def html_apps():
    return [name for name in registry.apps() if registry.app(name)["kind"] == "html"]


SOAP_ENVELOPE = "{http://schemas.xmlsoap.org/soap/envelope/}"


def soap_fault(reply):
    """(the fault code's local name, once its prefix is checked to be SOAP 1.1's, the fault string)."""
    assert reply.status == 500, reply.status  # SOAP 1.1 and WS-I BP: a fault travels with HTTP 500
    element = ET.fromstring(reply.body).find(f"{SOAP_ENVELOPE}Body/{SOAP_ENVELOPE}Fault")
    assert element is not None, reply.body[:300]
    detail = element.find("detail")  # Axis2 writes an empty one
    assert detail is None or (len(detail) == 0 and not (detail.text or "").strip()), \
        "fault carries details (hostname, stack trace)"
    prefix, _, code = element.findtext("faultcode").rpartition(":")
    assert f'xmlns:{prefix}="{SOAP_ENVELOPE[1:-1]}"' in reply.body, reply.body[:300]
    return code, element.findtext("faultstring")
