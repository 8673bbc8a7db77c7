"""The one table of hostile input every app is tested against (HTML apps through query strings,
the SOAP service through envelope elements and ?method= GETs)."""

LONG = "9" * 10000
ID = "id must be an integer from 1 to 2147483647"
ENGINE = "engine must be myisam or innodb"
NAME = "name must be at most 64 characters of text"
COUNT = "count must be an integer from 1 to 16000"

# The valid value each workload's required parameter takes while another parameter is the hostile one.
REQUIRED = {"single": {"id": "1"}, "large": {}, "rows": {"count": "1"}}


def parameters_with(workload, parameter, value):
    """The workload's parameters, one of them hostile."""
    return {**REQUIRED[workload], parameter: value}


# (workload, parameter, hostile value, the contract's message; None = a documented 200)
VALUE_CASES = [
    ("single", "id", "abc", ID),
    ("single", "id", "", ID),
    ("single", "id", "-1", ID),
    ("single", "id", "0", ID),
    ("single", "id", "007", ID),
    ("single", "id", "1.5", ID),
    ("single", "id", "+1", ID),
    ("single", "id", " 1", ID),
    ("single", "id", "0x10", ID),
    ("single", "id", "2147483648", ID),
    ("single", "id", "99999999999999999999", ID),
    ("single", "id", "1 OR 1=1", ID),
    ("single", "id", "1;DROP TABLE people_myisam", ID),
    ("single", "id", "1' OR '1'='1", ID),
    ("single", "id", "1 UNION SELECT user, password FROM mysql.user", ID),
    ("single", "id", "1--", ID),
    ("single", "id", "1/**/", ID),
    ("single", "id", "1\\", ID),
    ("single", "id", "1\u0000", ID),
    ("single", "id", LONG, ID),
    ("single", "engine", "memory", ENGINE),
    ("single", "engine", "MYISAM", ENGINE),
    ("single", "engine", "myisam'", ENGINE),
    ("single", "engine", "people_myisam;DROP TABLE x", ENGINE),
    ("single", "engine", "", ENGINE),
    ("large", "name", "a" * 65, NAME),
    ("large", "name", "Smith\n", NAME),
    ("large", "name", "\u0000", NAME),
    ("large", "name", "\ufffd", NAME),
    ("large", "name", LONG, NAME),
    ("large", "engine", "x", ENGINE),
    ("large", "name", "' OR '1'='1", None),
    ("large", "name", "x';DROP TABLE people_innodb;--", None),
    ("large", "name", "\\'", None),
    ("large", "name", '"<script>', None),
    ("large", "name", "%\\_%", None),
    ("rows", "count", "0", COUNT),
    ("rows", "count", "16001", COUNT),
    ("rows", "count", "99999", COUNT),
    ("rows", "count", "010", COUNT),
    ("rows", "count", "-1", COUNT),
    ("rows", "count", "", COUNT),
    ("rows", "count", "1 OR 1=1", COUNT),
    ("rows", "count", "1;DROP TABLE people_innodb", COUNT),
    ("rows", "count", LONG, COUNT),
    ("rows", "engine", "aria", ENGINE),
]

# Raw query strings only HTTP can carry: (workload, query, status, message fragment or None).
QUERY_CASES = [
    ("single", "", 400, ID),
    ("single", "id=1&id=2", 400, "parameter id given more than once"),
    ("single", "id=1&engine=innodb&engine=myisam", 400, "parameter engine given more than once"),
    ("single", "id%5B%5D=1", 400, ID),
    ("single", "id=1&unknown=x", 200, None),
    ("large", "name=a&name=b", 400, "parameter name given more than once"),
    ("large", "name=%C3%28", 400, NAME),
    ("large", "name=%FF%FE", 400, NAME),
    ("large", "name=%00", 400, NAME),
    # Malformed percent-encoding (RFC 3986, 2.1: "%" HEXDIG HEXDIG), anywhere in the query string: it
    # does not decode, so every known parameter is undecodable and the first check answers.
    ("large", "name=%", 400, NAME),
    ("large", "name=%ZZ", 400, NAME),
    ("large", "name=Adams%2", 400, NAME),
    ("large", "name=Adams&engine=%G0", 400, NAME),
    ("single", "id=1&engine=%ZZ", 400, ID),
    ("single", "id=1&unknown=%", 400, ID),
    ("single", "id=1&%=x", 400, ID),
    ("rows", "count=1&unknown=100%", 400, COUNT),
    ("rows", "", 400, COUNT),
    ("rows", "count=1&count=2", 400, "parameter count given more than once"),
    ("single", "id[]=1", None, None),
    ("single", f"id={LONG}", None, None),
]

# Never in any answer to hostile input.
LEAKS = ["Warning", "Fatal", "Exception", "Stack trace", "stackTrace", "SQLSTATE", "SELECT", "people_",
         "hostname", "/work", "/usr/", "/var/", ".php", ".java", "Apache/", "Tomcat/", "Axis", "MariaDB",
         "PDO", "at lab.", "at org."]


# The SOAP papers' operations (contract/README.md, "Echo operations"): one table for every engine,
# (name, the operation's element and its content, the contract's message).
MALFORMED = "malformed SOAP request"
ITEMS = "echo takes 1 to 16000 items"
NODES = "list must have 1 to 64 nodes"
FINITE = "numbers must be finite"
IMAGE = "image must be 1 to 1048576 bytes"
SYMBOL = "symbol must be 1 to 8 capital letters"
TOO_LARGE = "request body must be at most 16 MB"
XSI = 'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"'


def struct(var_int="1", var_float="0.5", var_string="x", element="item", attributes=""):
    return (f"<lab:{element}{attributes}><lab:varInt>{var_int}</lab:varInt><lab:varFloat>{var_float}"
            f"</lab:varFloat><lab:varString>{var_string}</lab:varString></lab:{element}>")


def employee(leave_out=(), **fields):
    """An Employee envelope's item: valid fields but those given, without those left out."""
    values = {"id": "1", "firstName": "Ada", "lastName": "Byron", "email": "ada@example.com",
              "department": "Research", "title": "Analyst", "age": "36", "salary": "52000.5", "fullTime": "true",
              **fields}
    return "<lab:item>" + "".join(f"<lab:{name}>{value}</lab:{name}>" for name, value in values.items()
                                  if name not in leave_out) + "</lab:item>"


def nested_list(nodes, var_float="1"):
    node = f"<lab:varInt>1</lab:varInt><lab:varFloat>{var_float}</lab:varFloat><lab:varString>x</lab:varString>"
    return "<lab:list>" + "<lab:next>".join([node] * nodes) + "</lab:next>" * (nodes - 1) + "</lab:list>"


ECHO_CASES = [
    ("ints-past-the-cap", "echoInts", "<lab:item>1</lab:item>" * 16001, ITEMS),
    ("structs-past-the-cap", "echoStructs", struct() * 16001, ITEMS),
    ("no-items", "echoStrings", "", ITEMS),
    ("employees-past-the-cap", "echoEmployees", employee() * 16001, ITEMS),
    ("no-employees", "echoEmployees", "", ITEMS),
    ("text-for-an-employees-age", "echoEmployees", employee(age="old"), MALFORMED),
    ("an-employee-without-its-email", "echoEmployees", employee(leave_out=("email",)), MALFORMED),
    ("an-employee-without-its-salary", "echoEmployees", employee(leave_out=("salary",)), MALFORMED),
    ("a-struct-without-its-float", "echoStructs",
     "<lab:item><lab:varInt>1</lab:varInt><lab:varString>x</lab:varString></lab:item>", MALFORMED),
    ("an-employee-whose-full-time-is-no-boolean", "echoEmployees", employee(fullTime="maybe"), MALFORMED),
    ("nan-salary", "echoEmployees", employee(salary="NaN"), FINITE),
    ("image-past-the-cap", "echoImage", f"<lab:image>{'A' * (4 * ((2 ** 20 + 3) // 3))}</lab:image>", IMAGE),
    ("no-image", "echoImage", "", IMAGE),
    ("an-empty-image", "echoImage", "<lab:image></lab:image>", IMAGE),
    ("an-image-not-in-base64", "echoImage", "<lab:image>not*base64!</lab:image>", MALFORMED),
    ("an-image-cut-mid-quantum", "echoImage", "<lab:image>QUJD=QUJD</lab:image>", MALFORMED),
    ("an-element-inside-echo-void", "echoVoid", "<lab:item>1</lab:item>", MALFORMED),
    ("list-past-the-cap", "echoList", nested_list(65), NODES),
    ("no-list", "echoList", "", NODES),
    ("list-100000-deep", "echoList", nested_list(100000), MALFORMED),
    ("text-for-an-int", "echoInts", "<lab:item>abc</lab:item>", MALFORMED),
    ("int-past-xs-int", "echoInts", "<lab:item>2147483648</lab:item>", MALFORMED),
    ("text-for-a-double", "echoDoubles", "<lab:item>abc</lab:item>", MALFORMED),
    ("text-for-a-struct-int", "echoStructs", struct(var_int="one"), MALFORMED),
    ("xsi-type-string-for-an-int", "echoInts", f'<lab:item {XSI} xsi:type="xsd:string">abc</lab:item>', MALFORMED),
    ("xsi-type-player-for-a-struct", "echoStructs",
     f'<lab:item {XSI} xsi:type="lab:Player"><lab:id>1</lab:id></lab:item>', MALFORMED),
    ("a-struct-without-its-string", "echoStructs",
     "<lab:item><lab:varInt>1</lab:varInt><lab:varFloat>1</lab:varFloat></lab:item>", MALFORMED),
    ("nul-character-reference", "echoStrings", "<lab:item>a&#0;b</lab:item>", MALFORMED),
    ("invalid-utf8", "echoStrings", "<lab:item>a\udcffb</lab:item>", MALFORMED),
    ("nan", "echoDoubles", "<lab:item>NaN</lab:item>", FINITE),
    ("nan-in-a-struct", "echoStructs", struct(var_float="NaN"), FINITE),
    ("infinity-in-a-list", "echoList", nested_list(2, var_float="INF"), FINITE),
    ("lower-case-symbol", "getQuote", "<lab:symbol>ibm</lab:symbol>", SYMBOL),
    ("no-symbol", "getQuote", "", SYMBOL),
    ("infinity", "echoDoubles", "<lab:item>INF</lab:item>", FINITE),
    ("minus-infinity", "echoDoubles", "<lab:item>-INF</lab:item>", FINITE),
    ("past-16-mb", "echoStrings", "<lab:item>" + "a" * (16 * 2 ** 20) + "</lab:item>", TOO_LARGE),
]
