"""Every app runs its SQL as prepared statements with ? placeholders, and its table name comes from a
fixed map of engine names: no request value is ever spliced into SQL."""
import re

from stack.settings import ROOT

PHP = sorted([*(ROOT / "php").glob("*.php"), *(ROOT / "soap-php").glob("*.php")])
JAVA = sorted(path for path in ROOT.glob("*/src/main/java/**/*.java"))
COMMON = ROOT / "java-common" / "src" / "main" / "java" / "lab" / "common"


def call_arguments(source, function):
    """The full argument text of every call of `function` (parentheses balanced, strings skipped)."""
    found = []
    for match in re.finditer(rf"{re.escape(function)}\s*\(", source):
        depth, index, quote = 1, match.end(), None
        while depth and index < len(source):
            char = source[index]
            if quote:
                if char == "\\":
                    index += 1
                elif char == quote:
                    quote = None
            elif char in "\"'":
                quote = char
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            index += 1
        found.append(source[match.end():index - 1].strip())
    return found


def test_the_argument_reader_sees_a_spliced_value_however_it_is_written():
    source = 'c.prepareStatement("SELECT * FROM t WHERE id = " + id); c.prepareStatement(String.format("%s (x)", t))'
    assert call_arguments(source, "prepareStatement") == ['"SELECT * FROM t WHERE id = " + id',
                                                         'String.format("%s (x)", t)']


def test_the_sources_are_where_the_check_looks():
    assert len(PHP) >= 6 and len(JAVA) >= 8


def test_php_runs_sql_only_through_prepare_with_placeholders():
    prepared, queries = [], 0
    for path in PHP:
        source = path.read_text()
        assert not re.search(r"->(query|exec)\s*\(", source), path
        prepared += [(path.name, sql) for sql in call_arguments(source, "->prepare")]
        # run_query(sql, value, streamed[, db]) prepares the SQL it is handed: that SQL is checked here
        # (the update page runs its two statements on one connection, $db).
        for arguments in call_arguments(source.replace("function run_query", "function"), "run_query"):
            sql = arguments.removesuffix(", $db").rsplit(", ", 2)[0]
            assert "?" in sql and "$_" not in sql, (path, sql)
            assert not re.search(r"\$(name|id|count|parameters|request)\b", sql), (path, sql)
            queries += 1
    assert prepared == [("lab.php", "$sql")], "SQL is prepared in one place only"
    assert queries == 6, "the contract's three queries, the update's two statements and a cheat's read"
    assert "const TABLES = ['myisam' => 'people_myisam', 'innodb' => 'people_innodb'];" in \
        (ROOT / "php" / "lab.php").read_text()


def test_java_prepares_only_the_contracts_queries_in_one_place():
    prepared = {path.name: call_arguments(path.read_text(), "prepareStatement") for path in JAVA}
    assert {name: arguments for name, arguments in prepared.items() if arguments} == {
        "PlayerQuery.java": ["sql"], "VersionUpdate.java": ["Contract.updateSql(table)", "Contract.versionedSingleSql(table)"]}
    for path in JAVA:
        source = path.read_text()
        assert "createStatement" not in source and "addBatch" not in source and "prepareCall" not in source, path
    update = (COMMON / "VersionUpdate.java").read_text()
    assert "this.table = table;" in update and "Contract.table(engine)" in update and "setInt(1, id)" in update
    query = (COMMON / "PlayerQuery.java").read_text()
    assert "private final String sql;" in query and query.count("this.sql = sql;") == 1
    assert call_arguments(query, "new PlayerQuery") == ["Contract.singleSql(Contract.table(engine)), playerId, false",
                                                        "Contract.largeSql(Contract.table(engine)), pattern, true",
                                                        "Contract.rowsSql(Contract.table(engine)), rowCount, true"]
    contract = (COMMON / "Contract.java").read_text()
    assert re.search(r'return "people_myisam";', contract) and re.search(r'return "people_innodb";', contract)
    assert contract.count("WHERE id = ?") == 3 and contract.count("WHERE nameLast LIKE ? ORDER BY id") == 1
    assert contract.count("ORDER BY id LIMIT ?") == 1
