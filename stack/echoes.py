"""The SOAP papers' workloads (contract/README.md, "Echo operations"): the envelope for N items and
what its answer must hold. Pure: the sweep, the tests and the cross-check all take their requests
from here, through registry.request.

Each item's values follow from its index alone, so an answer is checked against the same function
that wrote the request."""
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


VALUES = {"echo": struct, "list": struct, "ints": integer, "doubles": double, "strings": text}
OPERATIONS = {"echo": "echoStructs", "list": "echoList", "ints": "echoInts", "doubles": "echoDoubles",
              "strings": "echoStrings", "quote": "getQuote"}


def values(kind, count):
    """What a request of `count` items carries, and so what its answer must hold."""
    if kind == "quote":
        return [QUOTE]
    return [VALUES[kind](index) for index in range(count)]


def struct_xml(values_of_struct):
    return "".join(f"<lab:{name}>{escape(str(value))}</lab:{name}>"
                   for name, value in zip(STRUCT_FIELDS, values_of_struct))


def envelope(kind, count):
    """The request body of a workload: `kind` (echo, list, ints, doubles, strings, quote) at `count`."""
    operation = OPERATIONS[kind]
    if kind == "quote":
        inner = f"<lab:symbol>{QUOTE_SYMBOL}</lab:symbol>"
    elif kind == "list":
        nodes = values(kind, count)
        inner = ("<lab:list>" + "<lab:next>".join(struct_xml(node) for node in nodes)
                 + "</lab:next>" * (len(nodes) - 1) + "</lab:list>")
    elif kind == "echo":
        inner = "".join(f"<lab:item>{struct_xml(item)}</lab:item>" for item in values(kind, count))
    else:
        inner = "".join(f"<lab:item>{escape(repr(item) if kind == 'doubles' else str(item))}</lab:item>"
                        for item in values(kind, count))
    return ENVELOPE.format(f"<lab:{operation}>{inner}</lab:{operation}>")


def parsed_struct(element):
    found = [element.findtext(f"{LAB}{name}") for name in STRUCT_FIELDS]
    if None in found[:2]:
        raise ValueError(f"a struct without {STRUCT_FIELDS[found.index(None)]}")
    return int(found[0]), float(found[1]), found[2] or ""


def parsed_quote(element):
    return {name: type(value)(element.findtext(f"{LAB}{name}")) for name, value in QUOTE.items()}


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
