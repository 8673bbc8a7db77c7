"""Every app runs its SQL as prepared statements with ? placeholders, and its table name comes from a
fixed map of engine names: no request value is ever spliced into SQL."""
import re

from stack.settings import ROOT

PHP = sorted((ROOT / "php").glob("*.php"))
JAVA = sorted(path for path in ROOT.glob("*/src/main/java/**/*.java"))


def test_the_sources_are_where_the_check_looks():
    assert len(PHP) >= 3 and len(JAVA) >= 8


def test_php_runs_sql_only_through_prepare_with_placeholders():
    for path in PHP:
        source = path.read_text()
        assert not re.search(r"->(query|exec)\s*\(", source), path
        for sql in re.findall(r"->prepare\((.*?)\);", source):
            assert "?" in sql and "$_" not in sql and "$name" not in sql and "$id" not in sql, (path, sql)
    assert "const TABLES = ['myisam' => 'people_myisam', 'innodb' => 'people_innodb'];" in \
        (ROOT / "php" / "lab.php").read_text()


def test_java_runs_sql_only_through_prepared_statements_of_the_contract():
    for path in JAVA:
        source = path.read_text()
        assert "createStatement" not in source and "addBatch" not in source, path
        for argument in re.findall(r"prepareStatement\((.*?)\)\)", source):
            assert re.fullmatch(r"Contract\.(single|large)Sql\(table", argument), (path, argument)
    contract = (ROOT / "java-common" / "src" / "main" / "java" / "lab" / "common" / "Contract.java").read_text()
    assert re.search(r'return "people_myisam";', contract) and re.search(r'return "people_innodb";', contract)
    assert contract.count("WHERE id = ?") == 1 and contract.count("WHERE nameLast LIKE ? ORDER BY id") == 1
