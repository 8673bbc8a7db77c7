"""The lab's command line: `python3 -m stack.lab up|down|status|exposure|ports|sets|import [--if-needed]`.

The Makefile's up, down, status, exposure and import targets call this; the sweep imports the same functions.
"""
import hashlib
import json
import sys

from stack import exposure, lifecycle, playbooks, registry, remote, settings, targets, topology, workload_names
from stack.lifecycle import LabError
from stack.settings import ROOT

TABLES = ("people_myisam", "people_innodb")
ROWS = 16000
COLUMNS = "id, playerID, nameFirst, nameLast, birthYear, birthMonth, birthDay, weight, height, bats, throws"
COLUMN_NAMES = [name.strip() for name in COLUMNS.split(",")]
# The row's version (sql/schema.sql): outside COLUMNS, so the pages, the rows compared and the
# checksums never read it; the apps' account may UPDATE it and nothing else.
VERSION_COLUMN = "ver"
# DB_SCHEMA: which of the twin tables keep sql/schema.sql's primary key on id. keyed: both (the
# study's 6.1, "'id' is the primary key"); unkeyed: neither (its 6.1.5, "no indexes, primary keys");
# innodb-unkeyed: MyISAM keyed, InnoDB not, the reading its InnoDB plateau would follow from
# (docs/study-attributions.md). Without a key, a lookup by id reads the whole table.
SCHEMAS = {"keyed": TABLES, "unkeyed": (), "innodb-unkeyed": ("people_myisam",)}


def schema():
    """The DB_SCHEMA knob, checked."""
    name = settings.knob("DB_SCHEMA")
    if name not in SCHEMAS:
        raise LabError(f"DB_SCHEMA={name!r}: it must be one of {', '.join(SCHEMAS)}")
    return name


def dropped_keys_sql(name):
    """The statements that take the primary key off the tables schema `name` leaves unkeyed."""
    return "".join(f"ALTER TABLE {settings.DB_NAME}.{table} DROP PRIMARY KEY;\n"
                   for table in TABLES if table not in SCHEMAS[name])


def expected_checksum():
    lines = (ROOT / "sql" / "people.tsv").read_text(encoding="utf-8").splitlines()[1:]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def table_checksums(db):
    """Per table: its row count, SHA-256 over every row in id order (columns tab-separated, rows
    newline-separated, the version left out), how many index columns it has (0 without a key) and
    whether it has the version column (1 or 0)."""
    def counted(view, table, condition=""):
        return (f"(SELECT COUNT(*) FROM information_schema.{view} WHERE TABLE_SCHEMA = '{settings.DB_NAME}' "
                f"AND TABLE_NAME = '{table}'{condition})")
    queries = "SET SESSION group_concat_max_len = 67108864;\n" + "".join(
        f"SELECT COUNT(*), SHA2(GROUP_CONCAT(CONCAT_WS('\\t', {COLUMNS}) ORDER BY id SEPARATOR '\\n'), 256), "
        f"{counted('STATISTICS', table)}, {counted('COLUMNS', table, f' AND COLUMN_NAME = {VERSION_COLUMN!r}')} "
        f"FROM {settings.DB_NAME}.{table};\n" for table in TABLES)
    lines = db.sql(queries).split("\n")
    return {table: tuple(line.split("\t")) for table, line in zip(TABLES, lines)}


def table_versions(db):
    """The sum of every row's version over both tables: what the write workloads' updates raised."""
    sums = " + ".join(f"(SELECT SUM({VERSION_COLUMN}) FROM {settings.DB_NAME}.{table})" for table in TABLES)
    return int(db.sql(f"SELECT {sums}").strip())


def reset_versions(db):
    """Every row's version in both tables back to the column's default, the import's."""
    db.sql("".join(f"UPDATE {settings.DB_NAME}.{table} SET {VERSION_COLUMN} = DEFAULT;\n" for table in TABLES))


def rows(db, engine, where="1=1", limit=None):
    """Rows of an engine's table as the database holds them, as strings in column order, by id (the
    first `limit` of them when given)."""
    output = db.sql(f"SELECT {COLUMNS} FROM {settings.DB_NAME}.people_{engine} WHERE {where} ORDER BY id"
                    + (f" LIMIT {int(limit)}" if limit is not None else ""))
    return [line.split("\t") for line in output.splitlines()]


# The comparisons a workload's rows may be selected by (workload_names.selects).
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
        name = schema()
        checksums = read_checksums()
    except LabError as error:
        return [str(error)]
    return checksum_problems(checksums, expected_checksum(), name)


def checksum_problems(checksums, expected, schema_name="keyed"):
    """Pure: what the tables' counts, digests, index columns and version columns ({table: (count,
    sha256, keys, versioned)}) say is wrong with the imported data against `expected` (sql/people.tsv's
    digest) and schema `schema_name`; an empty list when both hold the 16,000 rows, keyed as the schema
    says, with the version column."""
    problems = []
    for table, (count, digest, keys, versioned) in checksums.items():
        if int(versioned) == 0:
            problems.append(f"{table} has no {VERSION_COLUMN} column: it was imported before the write "
                            f"workloads (make import)")
        elif int(count) != ROWS:
            problems.append(f"{table} holds {count} rows, expected {ROWS}")
        elif digest != expected:
            problems.append(f"{table} content differs from sql/people.tsv (sha256 {digest})")
        elif (int(keys) > 0) != (table in SCHEMAS[schema_name]):
            problems.append(f"{table} has {'a' if int(keys) else 'no'} primary key; DB_SCHEMA={schema_name} "
                            f"wants {'one' if table in SCHEMAS[schema_name] else 'none'} (make import DB_SCHEMA={schema_name})")
    return problems


def account_hosts():
    """Where the apps log in from: the web host's address in every topology (on loopback also
    `localhost`, which MariaDB tells apart from 127.0.0.1), so that one import serves them all."""
    hosts = [topology.LOOPBACK, "localhost", topology.netns_address("web"), topology.current().address("web")]
    return list(dict.fromkeys(hosts))


# What a workload may declare in its grants: column privileges, of columns no read page shows.
GRANTABLE = ("UPDATE",)


def declared_grants(workloads):
    """{privilege: [columns]}: the union of the grants the declared `workloads` ({name: declaration})
    need; ValueError for one the account must never have (a privilege outside GRANTABLE, a column of
    the pages' or none of the tables')."""
    grants = {}
    for name, declared in workloads.items():
        for privilege, columns in declared.get("grants", {}).items():
            wrong = [column for column in columns if column != VERSION_COLUMN]
            if privilege not in GRANTABLE or wrong:
                raise ValueError(f"workload {name} declares the grant {privilege} ({', '.join(columns)}): the apps' "
                                 f"account may be granted only {', '.join(GRANTABLE)} of {VERSION_COLUMN}, which no page shows")
            grants[privilege] = sorted({*grants.get(privilege, []), *columns})
    return grants


def grant_statements(password, workloads):
    """The apps' account, at each address the web host can have: SELECT on the lab's tables, and the
    column grants the declared `workloads` need (declared_grants: UPDATE of the version column alone,
    the write workloads')."""
    statements = []
    for host in account_hosts():
        account = f"'{settings.DB_USER}'@'{host}'"
        statements += [
            f"CREATE USER IF NOT EXISTS {account} IDENTIFIED BY '{password}';",
            f"ALTER USER {account} IDENTIFIED BY '{password}';",
            f"REVOKE ALL PRIVILEGES, GRANT OPTION FROM {account};",
            f"GRANT SELECT ON {settings.DB_NAME}.* TO {account};",
            *(f"GRANT {privilege} ({', '.join(columns)}) ON {settings.DB_NAME}.{table} TO {account};"
              for privilege, columns in declared_grants(workloads).items() for table in TABLES),
        ]
    return "\n".join(statements) + "\n"


def import_data(if_needed=False):
    db = lifecycle.lab_servers()[registry.database_server()]
    if not db.pid():
        raise LabError("import: MariaDB is not running; run `make up` first")
    password, name = settings.db_password(), schema()
    declared_workloads = targets.registry()["workloads"]
    if if_needed and not verify(db):
        db.sql(grant_statements(password, declared_workloads))
        return [f"import: data already in place (16,000 identical rows in both tables, DB_SCHEMA={name})"]
    db.sql((ROOT / "sql" / "schema.sql").read_text())
    db.sql((ROOT / "sql" / "load.sql").read_text())
    dropped = dropped_keys_sql(name)
    if dropped:
        db.sql(dropped)
    db.sql(grant_statements(password, declared_workloads))
    problems = verify(db)
    if problems:
        raise LabError("import: verification FAILED:\n  " + "\n  ".join(problems))
    keyed = ", ".join(SCHEMAS[name]) or "neither table"
    return [f"import: {ROWS} rows in each of {', '.join(TABLES)}; identical content, "
            f"sha256 {expected_checksum()[:16]}…; DB_SCHEMA={name}: the primary key on id in {keyed}; "
            f"account {settings.DB_USER} has SELECT on lab.*{granted_text(declared_workloads)} only"]


def granted_text(workloads):
    """How the import names the declared workloads' grants beside SELECT: " and UPDATE of ver"."""
    grants = declared_grants(workloads)
    return "".join(f" and {privilege} of {', '.join(columns)}" for privilege, columns in grants.items())


def local_commands(argv):
    """The commands acting on this machine's servers (or, on one host of TOPOLOGY=ssh, that host's)."""
    here = settings.knob("LAB_ON_HOST")
    return {
        "up": lambda: lifecycle.up(only=argv[1:], pinned=True),
        "down": lifecycle.down,
        "status": lambda: [lifecycle.lab_servers()[name].status(max(map(len, lifecycle.lab_servers())))
                           for name in lifecycle.chosen(host=here)],
        "import": lambda: import_data(if_needed="--if-needed" in argv[1:]),
        "exposure": lambda: [json.dumps(exposure.report(host)) for host in ([here] if here else remote.ORDER)],
    }


def remote_commands(argv):
    """TOPOLOGY=ssh, from the machine that drives the hosts: each command runs on the hosts."""
    return {
        "up": lambda: playbooks.up(lambda host: lifecycle.chosen(argv[1:], host)),
        "down": playbooks.down,
        "status": playbooks.status,
        "import": lambda: playbooks.import_data(if_needed="--if-needed" in argv[1:]),
        "exposure": playbooks.exposure,
    }


def commands_acting_on_servers(argv):
    """The commands up, down, status, import and exposure: on this machine's servers, or on
    TOPOLOGY=ssh's hosts when this machine drives them."""
    driving = remote_commands if topology.current().ssh and not settings.knob("LAB_ON_HOST") else local_commands
    return driving(argv)


def main(argv):
    try:
        now = topology.current()
    except ValueError as error:
        print(f"ERROR {error}", file=sys.stderr)
        return 2
    commands = {
        **commands_acting_on_servers(argv),
        "ports": lambda: ["Ports: " + ", ".join(f"{server.name} {server.port}" for server in lifecycle.lab_servers().values()
                                                if server.port_knob)
                          + f" (TOPOLOGY={now.mode}: web on {now.address('web')}, db on {now.address('db')})."],
        "sets": lambda: ["Sets of apps (make saturation-sweep SET=name; APPS= narrows one):"]
                        + [f"  {name:10} {', '.join(members)}" + (" (default)" if name == registry.default_set() else "")
                           for name, members in registry.sets().items()],
        "workloads": lambda: [
            "Workloads (WORKLOADS=): " + ", ".join(workload_names.workloads()) + ".",
            "Writing, taken when named (WORKLOADS=update,mixed-10; the apps that declare them): "
            + ", ".join(workload_names.write_workload_names()) + " (P: the percent of requests that update).",
            "Grown by N (SIZE_WORKLOAD=, KINDS=, cells NAME-N): " + ", ".join(workload_names.size_kinds())
            + f"; without N: {', '.join(kind for kind in workload_names.echo_workloads() if kind not in workload_names.size_kinds())}."],
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
