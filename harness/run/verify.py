"""Before any load, a cell's answer is checked against the database, as TechEmpower's verifier
does: the rows an app returns for the sweep's exact request must be the rows the table holds, in
order. Parsing and comparing are pure; fetching the answer and the rows sit in `verify_cell`."""
import xml.etree.ElementTree as ET

from lxml import etree

from harness.measure import load
from stack import echoes, lab, registry, targets, workload_names

SOAP_ENVELOPE = "{http://schemas.xmlsoap.org/soap/envelope/}"
SOAP_NAMESPACE = "{urn:lab}"
XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"
# xsi:nil is an XML Schema boolean: Axis 1.4 writes "true", Axis2 "1".
NIL_VALUES = ("true", "1")


class AnswerError(ValueError):
    """An answer that is not the contract's shape."""


class TableRows:
    """The header and the rows of <th>/<td> text of the contract's HTML table (entities decoded), as
    lxml's HTML parser (libxml2's) reports its tags: a parser target. Python's own html.parser took
    2.5 s over a 16,000-row page, this 0.5 s."""

    def __init__(self):
        self.header, self.rows, self.cell, self.row = [], [], None, None

    def start(self, tag, attrib):
        if tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = []

    def data(self, data):
        if self.cell is not None:
            self.cell.append(data)

    def end(self, tag):
        if tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append("".join(self.cell))
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.header:
                self.rows.append(self.row)
            else:
                self.header = self.row
            self.row = None

    def close(self):
        return self


def html_rows(body, columns=None):
    """Rows (strings in column order) of an HTML answer; AnswerError when its header is not the
    contract's columns (or the `columns` given)."""
    try:
        table = etree.fromstring(body, etree.HTMLParser(target=TableRows()))
    except (ValueError, etree.LxmlError) as error:  # an XML document declaring its encoding, say
        raise AnswerError(f"not HTML: {error}") from None
    if table.header != (columns or lab.COLUMN_NAMES):
        raise AnswerError(f"table header {table.header[:3]}... is not the contract's columns")
    return table.rows


def versioned_rows(body, kind="html"):
    """Rows of a write workload's answer (the contract's columns, then the row's version) without
    their version, which must be a whole number of at least 1: the answer shows the row after its update."""
    rows = ROWS_OF[kind](body, [*lab.COLUMN_NAMES, lab.VERSION_COLUMN])
    for row in rows:
        if not (row[-1] or "").isdigit() or int(row[-1]) < 1:
            raise AnswerError(f"version {row[-1]!r} is not one an update raised")
    return [row[:-1] for row in rows]


def soap_rows(body, columns=None):
    """Rows (strings in column order, or of the `columns` given) of a getPlayer/findPlayers answer (an
    updatePlayer's with ver); a nil result is no row, a missing element None."""
    try:
        envelope = ET.fromstring(body)
    except ET.ParseError as error:
        raise AnswerError(f"not XML: {error}") from None
    answer = envelope.find(f"{SOAP_ENVELOPE}Body")
    if answer is None or len(answer) == 0:
        raise AnswerError("no SOAP body")
    returns = [element for element in answer[0] if element.tag.endswith("Return")]
    return [[element.findtext(f"{SOAP_NAMESPACE}{column}") for column in columns or lab.COLUMN_NAMES]
            for element in returns if element.get(XSI_NIL) not in NIL_VALUES]


# A baseline answers the HTML single-row page of the registry's default id, from no database.
ROWS_OF = {"html": html_rows, "soap": soap_rows, "baseline": html_rows}


def mismatch(actual, expected):
    """None when the rows are equal; else what differs first."""
    if len(actual) != len(expected):
        return f"{len(actual)} rows, the database holds {len(expected)}"
    for index, (got, want) in enumerate(zip(actual, expected)):
        if got != want:
            return f"row {index + 1} is {got}, the database holds {want}"
    return None


def answer_rows(kind, status, body, writes):
    """The rows of an answer of the app's `kind` (a write workload's when `writes`: each carries its
    raised version, which the rows come without); AnswerError when it is not one."""
    if status != 200:
        raise AnswerError(f"status {status}: {body[:200]!r}")
    return versioned_rows(body, kind) if writes else ROWS_OF[kind](body)


def judge_answer(kind, status, body, expected, writes=False):
    """(True, what was checked) or (False, what is wrong) for one answer (of a write workload when
    `writes`: its rows carry their raised version)."""
    try:
        rows = answer_rows(kind, status, body, writes)
    except AnswerError as error:
        return False, str(error)
    problem = mismatch(rows, expected)
    if problem:
        return False, problem
    return True, f"{len(rows)} rows equal to the database"


def drawn_ids_problem(rows, count, ids):
    """None when a repeating workload's rows are `count` rows of distinct ids within ids.from..ids.to
    (the ids its app drew); else what is wrong."""
    shown = [row[0] for row in rows]
    if len(shown) != count:
        return f"{len(shown)} rows, the request asked for {count}"
    if len(set(shown)) != count:
        return f"ids drawn twice among {', '.join(shown)}"
    outside = [each for each in shown if not each.isdigit() or not ids["from"] <= int(each) <= ids["to"]]
    return f"ids {', '.join(outside)} outside {ids['from']}..{ids['to']}" if outside else None


def judge_repeated(status, body, workload, rows_of):
    """(True, what was checked) or (False, what is wrong) for a repeating workload's answer: as many
    rows as it asked for, of distinct ids the app drew, each equal to `rows_of(id)`, the database's."""
    try:
        rows = answer_rows("html", status, body, writes=True)
    except AnswerError as error:
        return False, str(error)
    base, _ = workload_names.parse_workload(workload)
    problem = (drawn_ids_problem(rows, workload_names.repetitions(workload), workload_names.repeats(base)["ids"])
               or mismatch(rows, [row for shown in rows for row in rows_of(shown[0])]))
    return (False, problem) if problem else (True, f"{len(rows)} rows of distinct drawn ids equal to the database")


def expected_rows(db, engine, workload):
    """The rows the sweep's request for a workload must return, read from the database (`db`: its
    server as the sweep drives it, harness/hosts/servers.py)."""
    count = workload_names.row_count(workload)
    if count is not None:
        return db.rows(engine, None, count)
    column, operator, parameter = workload_names.selects(workload)
    return db.rows(engine, [column, operator, targets.registry()["defaults"][parameter]])


def judge_echo(workload, status, body):
    """(True, what was checked) or (False, what is wrong) for an echo workload's answer: it must
    hold exactly what the request carried."""
    if status != 200:
        return False, f"status {status}: {body[:200]!r}"
    base, fixed = workload_names.parse_workload(workload)
    count = int(fixed.get(workload_names.ECHO_PARAMETER, 1))
    problem = echoes.mismatch(base, count, body)
    return (False, problem) if problem else (True, f"{count:,} item{'s' if count > 1 else ''} echoed unchanged")


def rows_checked(kind, status, body, workload, db, engine):
    return judge_answer(kind, status, body, expected_rows(db, engine, workload))


def versioned_checked(kind, status, body, workload, db, engine):
    return judge_answer(kind, status, body, expected_rows(db, engine, workload), writes=True)


def drawn_ids_checked(kind, status, body, workload, db, engine):
    return judge_repeated(status, body, workload, lambda player_id: db.rows(engine, ["id", "=", player_id]))


def echo_checked(kind, status, body, workload, db, engine):
    return judge_echo(workload, status, body)


# How an answer is checked, by the `check` its workload declares (workload_names.answer_check): each
# (the app's kind, the reply's status and body, the workload, the database server, the engine) ->
# (True, what was checked) or (False, what is wrong).
ANSWER_CHECKS = {"rows": rows_checked, "versioned": versioned_checked, "drawn_ids": drawn_ids_checked,
                 "echo": echo_checked}


def verify_cell(key, request, db):
    """(True, what was checked) or (False, what is wrong) for a cell's request, before load."""
    check = workload_names.answer_check(key.workload)
    if check not in ANSWER_CHECKS:
        raise ValueError(f"workload {key.workload} declares the check {check!r}, none of {', '.join(ANSWER_CHECKS)}")
    reply = load.exchange(request, timeout_s=60)
    if reply is None:
        return False, "no answer within 60 s"
    status, body = reply
    # Both tables hold the same rows (the import verifies it): a baseline is checked against the first.
    engine = key.engine if registry.reads_database(key.app) else registry.engines()[0]
    return ANSWER_CHECKS[check](registry.app(key.app)["kind"], status, body, key.workload, db, engine)
