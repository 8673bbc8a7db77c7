"""A stock SOAP client's call, timed: zeep, reading the engine's own WSDL, builds the request from
Python values and parses the reply back into them, the client-side marshalling the Infosys paper's
round trip held. The lab's own calls send a raw envelope and read the reply as bytes, leaving it out
(`make soap-phases CLIENT=zeep`; Infosys's Fig. 4z)."""
import time

from stack import echoes, workload_names


def kinds():
    """The echo kinds zeep sends here: those the registry does not declare `stock_client: false`."""
    return tuple(kind for kind, declared in workload_names.echo_workloads().items() if declared.get("stock_client", True))


def arguments(kind, count):
    """What zeep is given for an echo of `count` items: the values, a record as a dict of its fields;
    an image's bytes."""
    items = echoes.values(kind, count)
    if kind == "image":
        return items[0]
    fields = echoes.RECORD_FIELDS.get(kind)
    return [dict(zip(fields, item)) for item in items] if fields else items


def caller(request, wsdl, kind, count):
    """A function making one call of the echo on a connection of its own (as the raw calls) and
    returning its round trip in microseconds; the values are built before, as the paper's client
    filled its array before the call."""
    import requests  # zeep's own transport; both loaded only when a stock client is asked for
    import zeep
    session = requests.Session()
    session.headers["Connection"] = "close"
    client = zeep.Client(f"http://{request.host}:{request.port}{wsdl}", transport=zeep.Transport(session=session))
    operation, items = getattr(client.service, echoes.OPERATIONS[kind]), arguments(kind, count)

    def call():
        started = time.perf_counter()
        operation(**{echoes.PARAMETERS.get(kind, "item"): items})
        return (time.perf_counter() - started) * 1e6
    return call
