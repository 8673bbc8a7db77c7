"""The SOAP papers' workloads: envelopes written from N (stack/echoes.py), read back by a plain XML
parser, and real engines' answers (tests/fixtures/answers) judged echoed or not."""
import base64
import xml.etree.ElementTree as ET

import pytest

from harness.run.verify import judge_echo
from stack import echoes, registry, workload_names
from stack.settings import ROOT

ANSWERS = ROOT / "tests" / "fixtures" / "answers"
BODY = "{http://schemas.xmlsoap.org/soap/envelope/}Body"
LAB = "{urn:lab}"


def test_values_follow_from_the_index_alone():
    assert echoes.values("echo", 3) == [(0, 0.5, "s000000000000000"), (1, 1.5, "s000000000000001"),
                                        (2, 2.5, "s000000000000002")]
    assert echoes.values("doubles", 2) == [1 / 3, 2 / 3]
    assert [len(text) for text in echoes.values("strings", 16000)] == [echoes.STRING_LENGTH] * 16000
    ints = echoes.values("ints", 16000)
    assert min(ints) < -2 ** 30 and max(ints) > 2 ** 30 and -2 ** 31 not in ints and len(set(ints)) == 16000


def test_an_echo_envelope_carries_n_items_in_order():
    operation = ET.fromstring(echoes.envelope("echo", 3)).find(BODY)[0]
    assert operation.tag == f"{LAB}echoStructs"
    assert [[field.text for field in item] for item in operation] == [
        ["0", "0.5", "s000000000000000"], ["1", "1.5", "s000000000000001"], ["2", "2.5", "s000000000000002"]]
    doubles = ET.fromstring(echoes.envelope("doubles", 2)).find(BODY)[0]
    assert [float(item.text) for item in doubles] == [1 / 3, 2 / 3]


def test_employees_are_random_from_a_fixed_seed_and_the_index():
    employees = echoes.values("employees", 5000)
    assert employees == echoes.values("employees", 5000), "the same records on every call"
    assert employees[:3] == echoes.values("employees", 3), "a record depends on its index, not on N"
    assert [employee[0] for employee in employees] == list(range(1, 5001))
    assert len({employee[1] for employee in employees}) > 4900, "names drawn at random, few repeats"
    assert {type(value) for value in employees[0]} == {int, str, float, bool}
    assert {employee[8] for employee in employees} == {True, False}
    assert all(18 <= employee[6] <= 70 and 20_000 <= employee[7] <= 250_000 for employee in employees)


def test_an_employee_envelope_writes_its_nine_fields_in_the_schemas_order():
    operation = ET.fromstring(echoes.envelope("employees", 2)).find(BODY)[0]
    assert operation.tag == f"{LAB}echoEmployees" and len(operation) == 2
    first = operation[0]
    assert [field.tag for field in first] == [f"{LAB}{name}" for name in echoes.EMPLOYEE_FIELDS]
    assert first.findtext(f"{LAB}fullTime") in ("true", "false")
    assert echoes.parsed_employee(first) == echoes.values("employees", 1)[0]


def test_an_employee_answer_must_hold_every_field_and_a_schema_boolean():
    answer = (ANSWERS / "cxf-employees-2.xml").read_text()
    assert judge_echo("employees-2", 200, answer.replace("<email>", "<mail>", 1).replace("</email>", "</mail>", 1)) == (
        False, "an Employee without email")
    flag = "<fullTime>true</fullTime>" if "<fullTime>true</fullTime>" in answer else "<fullTime>false</fullTime>"
    assert judge_echo("employees-2", 200, answer.replace(flag, "<fullTime>yes</fullTime>", 1)) == (
        False, "'yes' is not an xs:boolean")


def test_an_image_is_random_bytes_of_its_size_inline_as_base64():
    image = echoes.values("image", 1000)
    assert len(image) == 1 and len(image[0]) == 1000 and image == echoes.values("image", 1000)
    assert len(set(image[0])) > 240, "bytes spread as compressed image data's are"
    operation = ET.fromstring(echoes.envelope("image", 1000)).find(BODY)[0]
    assert operation.tag == f"{LAB}echoImage" and [child.tag for child in operation] == [f"{LAB}image"]
    assert base64.b64decode(operation.findtext(f"{LAB}image")) == image[0]
    assert workload_names.largest_count("image") == 2 ** 20, "1 MiB, past the paper's million variables"


def test_an_image_answer_must_hold_the_same_bytes_in_base64():
    sent = base64.b64encode(echoes.image(5)).decode()
    answer = ('<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><echoImageResponse '
              'xmlns="urn:lab"><echoImageReturn>{}</echoImageReturn></echoImageResponse></e:Body></e:Envelope>')
    # Engines may wrap base64 in lines (Axis 1.4 does not, others may): whitespace is not data.
    assert judge_echo("image-5", 200, answer.format(f"{sent[:4]}\n{sent[4:]}"))[0]
    assert judge_echo("image-5", 200, answer.format(base64.b64encode(b"12345").decode()))[1].startswith("item 1 came back")
    assert judge_echo("image-5", 200, answer.format("****"))[1].startswith("an image not in base64")
    assert judge_echo("image-5", 200, answer.format(""))[1] == "item 1 came back as b'', " + repr(echoes.image(5)) + " was sent"


def test_a_void_call_carries_nothing_and_its_answer_must_hold_nothing():
    operation = ET.fromstring(echoes.envelope("void", 1)).find(BODY)[0]
    assert operation.tag == f"{LAB}echoVoid" and len(operation) == 0 and not operation.text
    answer = ('<e:Envelope xmlns:e="http://schemas.xmlsoap.org/soap/envelope/"><e:Body><echoVoidResponse '
              'xmlns="urn:lab">{}</echoVoidResponse></e:Body></e:Envelope>')
    assert judge_echo("void-1", 200, answer.format(""))[0]
    assert judge_echo("void-1", 200, answer.format("<x/>")) == (False, "1 items back, 0 sent")
    assert workload_names.largest_count("void") == 1


def test_a_list_envelope_nests_one_node_in_the_next():
    node, depth = ET.fromstring(echoes.envelope("list", 64)).find(BODY)[0].find(f"{LAB}list"), 0
    while node is not None:
        assert node.findtext(f"{LAB}varInt") == str(depth)
        node, depth = node.find(f"{LAB}next"), depth + 1
    assert depth == 64
    # Envelope, Body, echoList, then one element per node and its fields: within the depth bound.
    assert 3 + 64 + 1 <= registry.soap_max_element_depth()


def test_the_quote_envelope_asks_for_ibm():
    assert "<lab:getQuote><lab:symbol>IBM</lab:symbol></lab:getQuote>" in echoes.envelope("quote", 0)


@pytest.mark.parametrize("name,workload", [
    ("axis2-echo-3.xml", "echo-3"), ("gsoap-list-3.xml", "list-3"), ("php-doubles-3.xml", "doubles-3"),
    ("axis-quote.xml", "quote"), ("cxf-ints-3.xml", "ints-3"), ("php-strings-2.xml", "strings-2"),
    ("gsoap-employees-2.xml", "employees-2"), ("cxf-employees-2.xml", "employees-2")])
def test_recorded_answers_of_the_engines_are_echoes(name, workload):
    assert judge_echo(workload, 200, (ANSWERS / name).read_text())[0]


def test_an_answer_that_changed_an_item_is_named():
    answer = (ANSWERS / "php-doubles-3.xml").read_text().replace("0.3333333333333333", "0.33333333333333")
    assert judge_echo("doubles-3", 200, answer) == (
        False, "item 1 came back as 0.33333333333333, 0.3333333333333333 was sent")
    assert judge_echo("echo-4", 200, (ANSWERS / "axis2-echo-3.xml").read_text()) == (False, "3 items back, 4 sent")
    assert judge_echo("ints-3", 200, (ANSWERS / "php-doubles-3.xml").read_text())[1] == (
        "{urn:lab}echoDoublesResponse is not the echoInts response")
    assert judge_echo("quote", 500, "<fault/>") == (False, "status 500: '<fault/>'")


def test_echo_workloads_are_named_counted_and_engine_less():
    assert workload_names.parse_workload("echo-10") == ("echo", {"items": "10"})
    assert workload_names.item_count("strings-16000") == 16000 and workload_names.item_count("quote") is None
    assert workload_names.is_workload("list-64") and workload_names.is_workload("quote")
    assert not workload_names.is_workload("echo-0") and not workload_names.is_workload("echo-x")
    assert workload_names.workload_title("echo-1000") == "echoStructs of 1,000 structs"
    assert registry.cells_of("soap", ["myisam", "innodb"], ["single", "echo-10", "quote"]) == [
        ("myisam", "single"), ("innodb", "single"), ("none", "echo-10"), ("none", "quote")]
    assert registry.cells_of("php", ["myisam"], ["single", "echo-10"]) == [("myisam", "single")]


def test_every_engine_is_sent_the_same_envelope():
    soap_apps = [name for name in registry.apps() if registry.app(name)["kind"] == "soap"]
    assert {registry.request(app, "list-5").body for app in soap_apps} == {echoes.envelope("list", 5)}
