"""The InnoDB plateau's test beds on the real MariaDB: the tables without their keys, re-imported and
proven identical, still answered right by the apps; and the era profile's settings accepted by
mariadbd as MySQL 5.0's values."""
import subprocess

import pytest

from harness.run.verify import html_rows
from stack import lab, registry
from stack.servers import MariaDB

from .conftest import db_rows, send


@pytest.fixture
def unkeyed(stack, db, monkeypatch):
    """The tables without their keys for one test, then keyed again (import --if-needed sees the
    keys differ and imports anew)."""
    monkeypatch.setenv("DB_SCHEMA", "innodb-unkeyed")
    lines = lab.import_data(if_needed=True)
    yield lines
    monkeypatch.setenv("DB_SCHEMA", "keyed")
    assert "DB_SCHEMA=keyed" in lab.import_data(if_needed=True)[0]
    assert lab.verify(db) == []


def test_an_unkeyed_innodb_table_holds_the_same_rows_and_the_apps_answer_from_it(db, unkeyed):
    assert "the primary key on id in people_myisam;" in unkeyed[0]
    checksums = lab.table_checksums(db)
    assert [int(checksums[table][2]) > 0 for table in lab.TABLES] == [True, False]
    assert checksums["people_myisam"][:2] == checksums["people_innodb"][:2], "the same rows, in id order"
    assert lab.verify(db) == []
    plan = db.sql("EXPLAIN SELECT * FROM lab.people_innodb WHERE id = 8000")
    assert "ALL" in plan.split("\t"), f"a lookup by id reads the whole table: {plan}"
    for app in ("php", "pooled-servlet"):
        reply = send(registry.request(app, "single", id=8000, engine="innodb"))
        assert html_rows(reply.body) == db_rows(db, "innodb", "id = 8000")


def test_mariadbd_takes_the_era_profile_as_mysql_5_0s_values(tmp_path, monkeypatch):
    monkeypatch.setenv("DB_PROFILE", "era")
    config = tmp_path / "my.cnf"
    config.write_text("[mariadbd]\n" + MariaDB.profile_settings())
    result = subprocess.run(["mariadbd", f"--defaults-file={config}", "--help", "--verbose"],
                            capture_output=True, text=True)
    values = dict(line.split(None, 1) for line in result.stdout.splitlines() if len(line.split(None, 1)) == 2)
    assert result.returncode == 0, result.stderr[-500:]
    assert (values["innodb-buffer-pool-size"], values["key-buffer-size"], values["thread-cache-size"],
            values["table-open-cache"]) == ("8388608", "8388608", "0", "64")
