"""gSOAP's server is C: its AddressSanitizer build (soap-gsoap/Makefile) is sent every hostile
envelope of the tables and the valid calls of every operation, and ASan reports nothing (no heap
overflow, use after free or double free; leaks are not checked: the server never exits cleanly)."""
import os
import signal
import socket
import subprocess
import time

import pytest

from harness.run.verify import judge_echo
from stack import registry
from stack.settings import LOG, ROOT, RUN
from tests.hostile_cases import ECHO_CASES

from .conftest import Reply, soap_fault
from .test_soap import LAUGHS, XXE, envelope as operation_envelope
from .test_soap_echoes import ANSWERED_ANYWAY, envelope, post_to

BUILT = ROOT / "target" / "soap-gsoap" / "player-service-asan"
PATH = registry.app("soap-gsoap")["service"]
# Beside the lab's own gSOAP server, which keeps serving its port meanwhile.
PORT = registry.port_of("soap-gsoap") + 10
OTHER_HOSTILE_ENVELOPES = [
    b"<not-xml", operation_envelope("<lab:findPlayers><lab:name>&lol9;</lab:name></lab:findPlayers>", LAUGHS).encode(),
    operation_envelope("<lab:findPlayers><lab:name>&xxe;</lab:name></lab:findPlayers>", XXE).encode(),
    operation_envelope(f"<lab:getPlayer><lab:id>{'<a>' * 50000}1{'</a>' * 50000}</lab:id></lab:getPlayer>").encode(),
    operation_envelope(f"<lab:findPlayers><lab:name>{'a' * 10 * 2 ** 20}</lab:name></lab:findPlayers>").encode(),
]


@pytest.fixture
def asan_server(stack):
    built = subprocess.run(["make", "-s", "-C", str(ROOT / "soap-gsoap"), f"OUT={BUILT.parent}", str(BUILT)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stdout + built.stderr
    log = LOG / "gsoap-asan.log"
    with open(log, "w") as output:
        server = subprocess.Popen(stack["gsoap"].command(BUILT, PORT, RUN / "gsoap-asan.pid"), stderr=output,
                                  stdout=output, env=dict(os.environ, ASAN_OPTIONS="detect_leaks=0"))
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and server.poll() is None:
            try:
                socket.create_connection(("127.0.0.1", PORT), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        yield server, log
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)


def test_gsoap_under_address_sanitizer_answers_the_hostile_tables_with_no_report(asan_server):
    server, log = asan_server
    for name, operation, content, message in ECHO_CASES:
        answer = reply(envelope(operation, content))
        if ("soap-gsoap", name) in ANSWERED_ANYWAY:
            assert answer.status == 200, name  # read, under the sanitizer all the same
        else:
            assert soap_fault(answer) == ("Client", message), name
    for body in OTHER_HOSTILE_ENVELOPES:
        assert soap_fault(reply(body))[0] == "Client"
    assert soap_fault(reply(envelope("echoInts", ""), half_close=True))[0] == "Client"
    for workload in ("echo-100", "list-64", "ints-100", "doubles-100", "strings-100", "image-100000", "void-1", "quote"):
        echoed, problem = judge_echo(workload, *post_to(PORT, PATH, request_body(workload)))
        assert echoed, problem
    for workload in ("single", "large"):
        assert post_to(PORT, PATH, request_body(workload))[0] == 200
    assert server.poll() is None, "the server died"
    assert "AddressSanitizer" not in log.read_text(), log.read_text()[-3000:]


def reply(body, half_close=False):
    status, text = post_to(PORT, PATH, body, half_close)
    return Reply(status, {}, text)


def request_body(workload):
    return registry.request("soap-gsoap", workload).body.encode()
