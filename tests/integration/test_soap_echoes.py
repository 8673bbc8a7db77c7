"""The SOAP papers' operations on every engine (contract/README.md, "Echo operations"): a stock client
round-trips each echo through the engine's own WSDL, the sweep's envelopes come back unchanged, and one
table of hostile envelopes (tests/hostile_cases.py) gets the same Client fault from every engine
(test_soap_memory.py: a thousand of them more, with each server's memory bounded)."""
import http.client
import socket
import threading

import pytest
import requests
from urllib3.util import Retry

from harness.run.verify import judge_echo
from stack import echoes, registry, workload_names
from tests.hostile_cases import ECHO_CASES, LEAKS, MALFORMED

from .conftest import Reply, soap_fault

SOAP_APPS = [name for name in registry.apps() if registry.app(name)["kind"] == "soap"]
# Axis2's ADB reads INF as no number at all (Double.parseDouble wants "Infinity"): still a Client
# fault, with the malformed message (contract/README.md).
ADB_CANNOT_READ = {("soap-axis2", "infinity"), ("soap-axis2", "minus-infinity")}
# Where an engine answers what the others refuse (contract/README.md, "Where the engines still differ"):
# base64 with '=' inside it (gSOAP's decoder ends the image there, Axis2's reads on past it), and an
# element inside echoVoid (Axis2 reads nothing of an operation it needs nothing from).
ANSWERED_ANYWAY = {("soap-axis2", "an-image-cut-mid-quantum"): "its base64 decoder takes '=' inside the text",
                   ("soap-gsoap", "an-image-cut-mid-quantum"): "its base64 decoder takes '=' inside the text",
                   ("soap-axis2", "an-element-inside-echo-void"): "it reads nothing inside echoVoid"}
CLIENTS = {}


def client_of(app):
    """zeep, reading the engine's own WSDL (one client per engine: reading a WSDL takes a while). Its
    kept connection may be closed by the server's idle timeout (KEEPALIVE_TIMEOUT_S) just as the next
    test sends on it: the echoes are idempotent, so a request is sent once more on a new connection."""
    zeep = pytest.importorskip("zeep")
    if app not in CLIENTS:
        session = requests.Session()
        session.mount("http://", requests.adapters.HTTPAdapter(max_retries=Retry(total=1, allowed_methods=None)))
        CLIENTS[app] = zeep.Client(f"http://127.0.0.1:{registry.port_of(app)}{registry.app(app)['wsdl']}",
                                   transport=zeep.Transport(session=session))
    return CLIENTS[app]


def fields(struct):
    return struct.varInt, struct.varFloat, struct.varString


@pytest.mark.parametrize("count", [1, 100, 10000])
@pytest.mark.parametrize("app", SOAP_APPS)
def test_a_stock_client_round_trips_every_echo(stack, app, count):
    service = client_of(app).service
    structs = echoes.values("echo", count)
    sent = [dict(zip(echoes.STRUCT_FIELDS, struct)) for struct in structs]
    assert [fields(struct) for struct in service.echoStructs(item=sent)] == structs
    for operation, kind in (("echoInts", "ints"), ("echoDoubles", "doubles"), ("echoStrings", "strings")):
        items = echoes.values(kind, count)
        assert getattr(service, operation)(item=items) == items, operation
    assert service.echoImage(image=echoes.image(count)) == echoes.image(count), "an image of `count` bytes"


@pytest.mark.parametrize("count", [1, 5000])
@pytest.mark.parametrize("app", SOAP_APPS)
def test_a_stock_client_round_trips_infosys_employees(stack, app, count):
    employees = echoes.values("employees", count)
    back = client_of(app).service.echoEmployees(item=[dict(zip(echoes.EMPLOYEE_FIELDS, each)) for each in employees])
    assert [tuple(employee[field] for field in echoes.EMPLOYEE_FIELDS) for employee in back] == employees


@pytest.mark.parametrize("nodes", [1, 64])
@pytest.mark.parametrize("app", SOAP_APPS)
def test_a_stock_client_round_trips_a_list_up_to_its_cap(stack, app, nodes):
    sent = None
    for struct in reversed(echoes.values("list", nodes)):
        sent = {**dict(zip(echoes.STRUCT_FIELDS, struct)), "next": sent}
    node, back = client_of(app).service.echoList(list=sent), []
    while node is not None:
        back.append(fields(node))
        node = node.next
    assert back == echoes.values("list", nodes)


@pytest.mark.parametrize("app", SOAP_APPS)
def test_a_stock_client_calls_echo_void_for_nothing(stack, app):
    assert client_of(app).service.echoVoid() is None


@pytest.mark.parametrize("app", SOAP_APPS)
def test_get_quote_gives_the_fixed_answer(stack, app):
    quote = client_of(app).service.getQuote(symbol=echoes.QUOTE_SYMBOL)
    assert {name: quote[name] for name in echoes.QUOTE} == echoes.QUOTE


@pytest.mark.parametrize("workload", ["echo-1", "echo-16000", "employees-16000", "list-64", "ints-16000", "doubles-16000",
                                      "strings-16000", "image-1048576", "void-1", "quote"])
@pytest.mark.parametrize("app", SOAP_APPS)
def test_the_sweeps_envelopes_come_back_unchanged(stack, app, workload):
    echoed, problem = judge_echo(workload, *post(app, registry.request(app, workload).body.encode()))
    assert echoed, problem


@pytest.mark.parametrize("app", SOAP_APPS)
def test_the_smallest_int_comes_back(stack, app, request):
    if app == "soap-axis2":
        request.applymarker(pytest.mark.xfail(strict=True, reason="Axis2's ADB takes the smallest int for "
                                              "no value and leaves it out (contract/README.md)"))
    status, body = post(app, envelope("echoInts", "<lab:item>-2147483648</lab:item><lab:item>7</lab:item>"))
    assert status == 200 and echoes.answer_values("ints", body) == [-2 ** 31, 7]


def post(app, body, half_close=False):
    return post_to(registry.port_of(app), registry.app(app)["service"], body, half_close)


def post_to(port, path, body, half_close=False):
    """(status, body) of a POSTed envelope, read while it is still being sent: an engine may answer a
    body it refuses before reading all of it, and close (as Tomcat does past 2 MB unread)."""
    connection = socket.create_connection(("127.0.0.1", port), timeout=60)
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: text/xml; charset=utf-8\r\nSOAPAction: \"\"\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode()

    def send():
        try:
            connection.sendall(head + body)
            if half_close:
                connection.shutdown(socket.SHUT_WR)
        except OSError:
            pass  # the engine has answered and closed
    sender = threading.Thread(target=send)
    sender.start()
    try:
        response = http.client.HTTPResponse(connection)
        response.begin()
        return response.status, response.read().decode("utf-8", errors="replace")
    finally:
        sender.join()
        connection.close()


def envelope(operation, content):
    return echoes.ENVELOPE.format(f"<lab:{operation}>{content}</lab:{operation}>").encode("utf-8", "surrogateescape")


def replied(app, body, half_close=False):
    status, text = post(app, body, half_close)
    return Reply(status, {}, text)


@pytest.mark.parametrize("name,operation,content,message", ECHO_CASES, ids=[case[0] for case in ECHO_CASES])
@pytest.mark.parametrize("app", SOAP_APPS)
def test_hostile_echo_envelopes_get_the_same_client_fault_everywhere(stack, app, name, operation, content, message,
                                                                    request):
    if (app, name) in ANSWERED_ANYWAY:
        request.applymarker(pytest.mark.xfail(strict=True, reason=ANSWERED_ANYWAY[app, name]))
    reply = replied(app, envelope(operation, content))
    for leak in LEAKS:
        assert leak not in reply.body, f"{leak!r} in {reply.body[:300]}"
    expected = MALFORMED if (app, name) in ADB_CANNOT_READ else message
    assert soap_fault(reply) == ("Client", expected)
    assert judge_echo("echo-3", *post(app, registry.request(app, "echo-3").body.encode()))[0]


@pytest.mark.parametrize("workload", sorted(echoes.OPERATIONS))
@pytest.mark.parametrize("app", SOAP_APPS)
def test_every_operation_answers_a_client_that_half_closes(stack, app, workload):
    sized = workload if workload == "quote" else f"{workload}-{min(3, workload_names.largest_count(workload))}"
    assert judge_echo(sized, *post(app, registry.request(app, sized).body.encode(), half_close=True))[0]
    if workload != "void":  # an empty echoVoid is its whole request: nothing to refuse
        refused = envelope(echoes.OPERATIONS[workload], "")
        assert soap_fault(replied(app, refused, half_close=True))[0] == "Client"


@pytest.mark.parametrize("body", [b"<not-xml", envelope("echoInts", "<lab:item>1</lab:item>")[:-30]],
                         ids=["not-xml", "cut-short"])
@pytest.mark.parametrize("app", SOAP_APPS)
def test_an_unfinished_document_gets_its_fault_when_the_client_says_connection_close(stack, app, body, request):
    """gSOAP sent nothing at all when such a body ended (post sends Connection: close)."""
    if app == "soap-axis2" and body != b"<not-xml":
        request.applymarker(pytest.mark.xfail(strict=True, reason="Axis2 answers from the operation's element "
                                              "and never reads the document's end (contract/README.md)"))
    assert soap_fault(replied(app, body)) == ("Client", MALFORMED)
