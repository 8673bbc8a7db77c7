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
    ("rows", "", 400, COUNT),
    ("rows", "count=1&count=2", 400, "parameter count given more than once"),
    ("single", "id[]=1", None, None),
    ("single", f"id={LONG}", None, None),
]

# Never in any answer to hostile input.
LEAKS = ["Warning", "Fatal", "Exception", "Stack trace", "stackTrace", "SQLSTATE", "SELECT", "people_",
         "hostname", "/work", "/usr/", "/var/", ".php", ".java", "Apache/", "Tomcat/", "Axis", "MariaDB",
         "PDO", "at lab.", "at org."]
