"""The SOAP papers' workloads (contract/README.md, "Echo operations"): the envelope for N items and
what its answer must hold. Pure: the sweep, the tests and the cross-check all take their requests
from here, through registry.request.

Each item's values follow from its index alone, so an answer is checked against the same function
that wrote the request. Infosys's Employee records are random, as the paper's were, but drawn from a
fixed seed per index (EMPLOYEE_SEED), so they too are the same on every call and checkable."""
import base64
import random
import string
import xml.etree.ElementTree as ET
from xml.sax.saxutils import escape

ENVELOPE = ('<?xml version="1.0" encoding="utf-8"?><soapenv:Envelope xmlns:soapenv="http://schemas.'
            'xmlsoap.org/soap/envelope/" xmlns:lab="urn:lab"><soapenv:Body>{}</soapenv:Body></soapenv:Envelope>')
SOAP_BODY = "{http://schemas.xmlsoap.org/soap/envelope/}Body"
LAB = "{urn:lab}"
# echoStrings' strings and the structs' varString: 16 characters each, whatever the index.
STRING_LENGTH = 16
QUOTE_SYMBOL = "IBM"
# getQuote's answer (the contract's), in the Quote type's order.
QUOTE = {"symbol": QUOTE_SYMBOL, "name": "International Business Machines",
         "lastTradeTimestamp": "2008-06-23T16:00:00Z", "last": 89.5, "open": 88.25, "high": 90.75,
         "low": 87.5, "prevClose": 88.0, "change": 1.5, "percentageChange": 1.625, "marketCap": 1.5e11,
         "peRatio": 24.75, "earnings": 3.5, "volume": 8765432}
STRUCT_FIELDS = ("varInt", "varFloat", "varString")
# Infosys's Employee: nine simple-typed fields (the paper's Figure 1, which named them, is not in its
# text). Types every engine reads and writes back exactly, with no time zone to convert.
EMPLOYEE_FIELDS = ("id", "firstName", "lastName", "email", "department", "title", "age", "salary", "fullTime")
EMPLOYEE_SEED = 2007
DEPARTMENTS = ("Engineering", "Finance", "Sales", "Marketing", "Operations", "Research", "Support", "Legal")
# Lublin's MIME image/jpg: the image's bytes, inline as xs:base64Binary (contract/README.md).
IMAGE_SEED = 2019
TITLES = ("Analyst", "Engineer", "Consultant", "Manager", "Architect", "Specialist", "Director", "Associate")


def text(index):
    return f"s{index:0{STRING_LENGTH - 1}d}"


def struct(index):
    """WSTest's struct: an int, a float (i + 0.5 is exact in a float below 2^23) and a string."""
    return index, index + 0.5, text(index)


def integer(index):
    """Spread over the xs:int range, both signs (Knuth's multiplicative hash of index + 1). Never
    the smallest int, which Axis2's ADB takes for "no value" and drops (contract/README.md)."""
    return ((index + 1) * 2654435761) % 2 ** 32 - 2 ** 31


def double(index):
    """A third: every engine must write all 17 significant digits for it to come back equal."""
    return (index + 1) / 3


def employee(index):
    """An Employee of random data from EMPLOYEE_SEED and the index: names of 4 to 12 letters, an
    address made of them, a salary in cents (its shortest text reads back as the same double)."""
    draw = random.Random(EMPLOYEE_SEED * 100_003 + index)
    first, last = ("".join(draw.choices(string.ascii_lowercase, k=draw.randint(4, 12))).capitalize()
                   for _ in range(2))
    return (index + 1, first, last, f"{first}.{last}@example.com".lower(), draw.choice(DEPARTMENTS),
            draw.choice(TITLES), draw.randint(18, 70), draw.randint(2_000_000, 25_000_000) / 100,
            draw.random() < 0.5)


def image(size):
    """Lublin's image of `size` bytes: random bytes from IMAGE_SEED, as a JPEG's compressed data is
    close to random; the same on every call of a size, so an answer can be checked."""
    return random.Random(IMAGE_SEED).randbytes(size)


VALUES = {"echo": struct, "employees": employee, "list": struct, "ints": integer, "doubles": double, "strings": text}
OPERATIONS = {"echo": "echoStructs", "list": "echoList", "ints": "echoInts", "doubles": "echoDoubles",
              "strings": "echoStrings", "employees": "echoEmployees", "image": "echoImage", "void": "echoVoid",
              "quote": "getQuote"}
# Each echo's parameter, where it is not its repeated `item`.
PARAMETERS = {"list": "list", "image": "image"}
# The echoes whose items are records: their fields, in order.
RECORD_FIELDS = {"echo": STRUCT_FIELDS, "employees": EMPLOYEE_FIELDS}


def values(kind, count):
    """What a request of `count` items carries, and so what its answer must hold."""
    if kind == "quote":
        return [QUOTE]
    if kind == "image":
        return [image(count)]
    if kind == "void":
        return []
    return [VALUES[kind](index) for index in range(count)]


def field_text(value):
    """A value as XML Schema writes it: xs:boolean is "true" or "false"."""
    return ("true" if value else "false") if isinstance(value, bool) else escape(str(value))


def struct_xml(values_of_struct, fields=STRUCT_FIELDS):
    return "".join(f"<lab:{name}>{field_text(value)}</lab:{name}>" for name, value in zip(fields, values_of_struct))


def envelope(kind, count):
    """The request body of a workload: `kind` (echo, list, ints, doubles, strings, quote) at `count`."""
    operation = OPERATIONS[kind]
    if kind == "quote":
        inner = f"<lab:symbol>{QUOTE_SYMBOL}</lab:symbol>"
    elif kind == "list":
        nodes = values(kind, count)
        inner = ("<lab:list>" + "<lab:next>".join(struct_xml(node) for node in nodes)
                 + "</lab:next>" * (len(nodes) - 1) + "</lab:list>")
    elif kind == "void":
        inner = ""
    elif kind == "image":
        inner = f"<lab:image>{base64.b64encode(image(count)).decode()}</lab:image>"
    elif kind in RECORD_FIELDS:
        inner = "".join(f"<lab:item>{struct_xml(item, RECORD_FIELDS[kind])}</lab:item>" for item in values(kind, count))
    else:
        inner = "".join(f"<lab:item>{escape(repr(item) if kind == 'doubles' else str(item))}</lab:item>"
                        for item in values(kind, count))
    return ENVELOPE.format(f"<lab:{operation}>{inner}</lab:{operation}>")


def parsed_struct(element):
    found = [element.findtext(f"{LAB}{name}") for name in STRUCT_FIELDS]
    if None in found[:2]:
        raise ValueError(f"a struct without {STRUCT_FIELDS[found.index(None)]}")
    return int(found[0]), float(found[1]), found[2] or ""


def xs_boolean(text):
    if text not in ("true", "false", "1", "0"):
        raise ValueError(f"{text!r} is not an xs:boolean")
    return text in ("true", "1")


def parsed_employee(element):
    found = [element.findtext(f"{LAB}{name}") for name in EMPLOYEE_FIELDS]
    if None in found:
        raise ValueError(f"an Employee without {EMPLOYEE_FIELDS[found.index(None)]}")
    return (int(found[0]), *found[1:6], int(found[6]), float(found[7]), xs_boolean(found[8]))


def parsed_quote(element):
    return {name: type(value)(element.findtext(f"{LAB}{name}")) for name, value in QUOTE.items()}


def parsed_image(text):
    try:
        return base64.b64decode("".join(text.split()), validate=True)
    except ValueError as error:
        raise ValueError(f"an image not in base64: {error}") from None


def answer_values(kind, body):
    """The values an answer holds, in order; ValueError when it is not the operation's response."""
    try:
        response = ET.fromstring(body).find(SOAP_BODY)[0]
    except (ET.ParseError, TypeError, IndexError) as error:
        raise ValueError(f"not a SOAP response: {error}") from None
    if response.tag != f"{LAB}{OPERATIONS[kind]}Response":
        raise ValueError(f"{response.tag} is not the {OPERATIONS[kind]} response")
    returns = list(response)
    if kind == "quote":
        return [parsed_quote(returns[0])]
    if kind == "list":
        nodes, node = [], returns[0] if returns else None
        while node is not None:
            nodes.append(parsed_struct(node))
            node = node.find(f"{LAB}next")
        return nodes
    if kind == "echo":
        return [parsed_struct(element) for element in returns]
    if kind == "employees":
        return [parsed_employee(element) for element in returns]
    if kind == "image":
        return [parsed_image(element.text or "") for element in returns]
    if kind == "void":
        return [element.tag for element in returns]
    convert = {"ints": int, "doubles": float, "strings": str}[kind]
    return [convert(element.text or "") for element in returns]


def mismatch(kind, count, body):
    """None when the answer holds exactly what the request carried; else what differs first."""
    try:
        got = answer_values(kind, body)
    except ValueError as error:
        return str(error)
    sent = values(kind, count)
    if len(got) != len(sent):
        return f"{len(got)} items back, {len(sent)} sent"
    for index, (back, want) in enumerate(zip(got, sent)):
        if back != want:
            return f"item {index + 1} came back as {back!r}, {want!r} was sent"
    return None
