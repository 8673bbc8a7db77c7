"""The lab's command line: `python3 -m stack.lab up|down|status|ports|sets|import [--if-needed]`.

The Makefile's up, down, status and import targets call this; the sweep imports the same functions.
"""
import hashlib
import sys

from stack import lifecycle, registry, remote, settings, topology
from stack.lifecycle import LabError
from stack.settings import ROOT

TABLES = ("people_myisam", "people_innodb")
ROWS = 16000
COLUMNS = "id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, bats, throws"
COLUMN_NAMES = [name.strip() for name in COLUMNS.split(",")]


def expected_checksum():
    lines = (ROOT / "sql" / "people.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def table_checksums(db):
    """SHA-256 over every row of each table in id order, columns tab-separated, rows newline-separated."""
    queries = "SET SESSION group_concat_max_len = 67108864;\n" + "".join(
        f"SELECT COUNT(*), SHA2(GROUP_CONCAT(CONCAT_WS('\\t', {COLUMNS}) ORDER BY id SEPARATOR '\\n'), 256) "
        f"FROM lab.{table};\n" for table in TABLES)
    lines = db.sql(queries).split("\n")
    return {table: tuple(line.split("\t")) for table, line in zip(TABLES, lines)}


def rows(db, engine, where="1=1", limit=None):
    """Rows of an engine's table as the database holds them, as strings in column order, by id (the
    first `limit` of them when given)."""
    output = db.sql(f"SELECT {COLUMNS} FROM {settings.DB_NAME}.people_{engine} WHERE {where} ORDER BY id"
                    + (f" LIMIT {int(limit)}" if limit is not None else ""))
    return [line.split("\t") for line in output.splitlines()]


# The comparisons a workload's rows may be selected by (registry.selects).
OPERATORS = ("=", "LIKE")


def selected_rows(db, engine, selects=None, limit=None):
    """An engine's rows by id: those whose column compares with a value (`selects`: [column, operator,
    value], the column and the operator from fixed lists, the value quoted), or the first `limit`.
    The one query of rows that a host's agent runs for the sweep."""
    if engine not in registry.engines():
        raise LabError(f"no engine {engine!r}; the registry has {', '.join(registry.engines())}")
    where = "1=1"
    if selects:
        column, operator, value = selects
        if column not in COLUMN_NAMES or operator not in OPERATORS:
            raise LabError(f"rows are selected by one of the columns {', '.join(COLUMN_NAMES)} with "
                           f"{' or '.join(OPERATORS)}, not {column!r} {operator!r}")
        where = f"{column} {operator} '" + str(value).replace("\\", "\\\\").replace("'", "''") + "'"
    return rows(db, engine, where, limit)


def verify(db):
    """Problems with the imported data, or an empty list when both tables hold the 16,000 rows."""
    return data_problems(lambda: table_checksums(db))


def data_problems(read_checksums):
    """The imported data's problems, from the checksums `read_checksums()` gives (here, or through a
    host's agent); a database that cannot be read is a problem too."""
    try:
        checksums = read_checksums()
    except LabError as error:
        return [str(error)]
    return checksum_problems(checksums)


def checksum_problems(checksums):
    """Pure: what the tables' counts and digests ({table: (count, sha256)}) say is wrong with the
    imported data; an empty list when both hold the 16,000 rows of sql/people.tsv."""
    expected = expected_checksum()
    problems = []
    for table, (count, digest) in checksums.items():
        if int(count) != ROWS:
            problems.append(f"{table} holds {count} rows, expected {ROWS}")
        elif digest != expected:
            problems.append(f"{table} content differs from sql/people.tsv (sha256 {digest})")
    return problems


def account_hosts():
    """Where the apps log in from: the web host's address in every topology (on loopback also
    `localhost`, which MariaDB tells apart from 127.0.0.1), so that one import serves them all."""
    hosts = [topology.LOOPBACK, "localhost", topology.netns_address("web"), topology.current().address("web")]
    return list(dict.fromkeys(hosts))


def grant_statements(password):
    """The SELECT-only account, at each address the web host can have."""
    statements = []
    for host in account_hosts():
        account = f"'{settings.DB_USER}'@'{host}'"
        statements += [
            f"CREATE USER IF NOT EXISTS {account} IDENTIFIED BY '{password}';",
            f"ALTER USER {account} IDENTIFIED BY '{password}';",
            f"REVOKE ALL PRIVILEGES, GRANT OPTION FROM {account};",
            f"GRANT SELECT ON {settings.DB_NAME}.* TO {account};",
        ]
    return "\n".join(statements) + "\n"


def import_data(if_needed=False):
    db = lifecycle.SERVERS[registry.DATABASE_SERVER]
    if not db.pid():
        raise LabError("import: MariaDB is not running; run `make up` first")
    password = settings.db_password()
    if if_needed and not verify(db):
        db.sql(grant_statements(password))
        return ["import: data already in place (16,000 identical rows in both tables)"]
    db.sql((ROOT / "sql" / "schema.sql").read_text())
    db.sql((ROOT / "sql" / "load.sql").read_text())
    db.sql(grant_statements(password))
    problems = verify(db)
    if problems:
        raise LabError("import: verification FAILED:\n  " + "\n  ".join(problems))
    return [f"import: {ROWS} rows in each of {', '.join(TABLES)}; identical content, "
            f"sha256 {expected_checksum()[:16]}…; account {settings.DB_USER} has SELECT on lab.* only"]


def local_commands(argv):
    """The commands acting on this machine's servers (or, on one host of TOPOLOGY=ssh, that host's)."""
    here = settings.knob("LAB_ON_HOST")
    return {
        "up": lambda: lifecycle.up(only=argv[1:], pinned=True),
        "down": lifecycle.down,
        "status": lambda: [lifecycle.SERVERS[name].status() for name in lifecycle.chosen(host=here)],
        "import": lambda: import_data(if_needed="--if-needed" in argv[1:]),
    }


def remote_commands(argv):
    """TOPOLOGY=ssh, from the machine that drives the hosts: each command runs on the hosts."""
    return {
        "up": lambda: remote.up(lambda host: lifecycle.chosen(argv[1:], host)),
        "down": remote.down,
        "status": remote.status,
        "import": lambda: remote.import_data(if_needed="--if-needed" in argv[1:]),
    }


def main(argv):
    try:
        now = topology.current()
    except ValueError as error:
        print(f"ERROR {error}", file=sys.stderr)
        return 2
    driving = remote_commands if now.ssh and not settings.knob("LAB_ON_HOST") else local_commands
    commands = {
        **driving(argv),
        "ports": lambda: ["Ports: " + ", ".join(f"{server.name} {server.port}" for server in lifecycle.SERVERS.values()
                                                if server.port_knob)
                          + f" (TOPOLOGY={now.mode}: web on {now.address('web')}, db on {now.address('db')})."],
        "sets": lambda: ["Sets of apps (make saturation-sweep SET=name; APPS= narrows one):"]
                        + [f"  {name:10} {', '.join(members)}" + (" (default)" if name == registry.DEFAULT_SET else "")
                           for name, members in registry.sets().items()],
    }
    if not argv or argv[0] not in commands:
        print(f"usage: python3 -m stack.lab {'|'.join(commands)} [--if-needed | up's servers]", file=sys.stderr)
        return 2
    try:
        for line in commands[argv[0]]():
            print(line, flush=True)
    except (LabError, PermissionError, RuntimeError) as error:
        print(f"ERROR {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
