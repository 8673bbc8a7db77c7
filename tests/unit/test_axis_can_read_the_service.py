"""Axis 1.4 reads the service class's bytecode for its parameter names, and fails on the constant-pool
entries that lambdas and method references compile to (invokedynamic): every SOAP call then answers
Tomcat's bare 500. The service's sources must not use them."""
import re

from stack.settings import ROOT

SOAP_SOURCES = sorted((ROOT / "soap" / "src" / "main" / "java").rglob("*.java"))


def code(source):
    """The source without comments and string literals."""
    source = re.sub(r"/\*.*?\*/|//[^\n]*", "", source, flags=re.S)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', source)


def test_the_check_sees_a_lambda_and_a_method_reference():
    assert re.search(r"->|::", code("query.run(DATABASE::connect, rows -> players.add(rows));"))
    assert not re.search(r"->|::", code('// rows -> x\nString arrow = "->";'))


def test_the_soap_service_uses_neither_lambdas_nor_method_references():
    assert SOAP_SOURCES
    for path in SOAP_SOURCES:
        assert not re.search(r"->|::", code(path.read_text())), path
