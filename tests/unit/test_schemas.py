"""The twin tables' keys (DB_SCHEMA) and MariaDB's settings (DB_PROFILE), chosen to test the 2006
study's InnoDB plateau: what the data check says, pure."""
import pytest

from stack import lab
from stack.lifecycle import LabError
from stack.servers import MariaDB

DIGEST = "d" * 64


def checked(keys_myisam, keys_innodb, schema):
    return lab.checksum_problems({"people_myisam": ("16000", DIGEST, str(keys_myisam), "1"),
                                  "people_innodb": ("16000", DIGEST, str(keys_innodb), "1")}, DIGEST, schema)


def test_each_schema_wants_the_primary_key_on_its_own_tables_and_says_how_to_get_it():
    assert checked(1, 1, "keyed") == [] and checked(0, 0, "unkeyed") == [] and checked(1, 0, "innodb-unkeyed") == []
    assert checked(1, 1, "unkeyed") == [
        "people_myisam has a primary key; DB_SCHEMA=unkeyed wants none (make import DB_SCHEMA=unkeyed)",
        "people_innodb has a primary key; DB_SCHEMA=unkeyed wants none (make import DB_SCHEMA=unkeyed)"]
    assert checked(1, 1, "innodb-unkeyed") == [
        "people_innodb has a primary key; DB_SCHEMA=innodb-unkeyed wants none (make import DB_SCHEMA=innodb-unkeyed)"]
    assert checked(0, 0, "keyed")[0].startswith("people_myisam has no primary key; DB_SCHEMA=keyed wants one")


def test_wrong_rows_are_told_before_keys():
    problems = lab.checksum_problems({"people_myisam": ("15999", DIGEST, "1", "1"),
                                      "people_innodb": ("16000", "e" * 64, "0", "1")}, DIGEST, "keyed")
    assert problems == ["people_myisam holds 15999 rows, expected 16000",
                        f"people_innodb content differs from sql/people.tsv (sha256 {'e' * 64})"]


def test_tables_imported_before_the_version_column_are_sent_back_to_make_import():
    problems = lab.checksum_problems({"people_myisam": ("16000", DIGEST, "1", "0"),
                                      "people_innodb": ("16000", DIGEST, "1", "1")}, DIGEST, "keyed")
    assert problems == ["people_myisam has no ver column: it was imported before the write workloads (make import)"]


def test_the_import_drops_only_the_keys_the_schema_leaves_out(monkeypatch):
    assert lab.dropped_keys_sql("keyed") == ""
    assert lab.dropped_keys_sql("innodb-unkeyed") == "ALTER TABLE lab.people_innodb DROP PRIMARY KEY;\n"
    assert lab.dropped_keys_sql("unkeyed").count("DROP PRIMARY KEY") == 2
    monkeypatch.setenv("DB_SCHEMA", "no-index")
    with pytest.raises(LabError, match="DB_SCHEMA='no-index': it must be one of keyed, unkeyed, innodb-unkeyed"):
        lab.schema()
    assert lab.data_problems(lambda: pytest.fail("the data is not read under an unknown schema")) == [
        "DB_SCHEMA='no-index': it must be one of keyed, unkeyed, innodb-unkeyed"]


def test_the_era_profile_adds_mysql_5_0s_defaults_and_an_unknown_profile_is_refused(monkeypatch):
    assert MariaDB.profile_settings() == ""
    monkeypatch.setenv("DB_PROFILE", "era")
    era = MariaDB.profile_settings()
    assert "innodb_buffer_pool_size    = 8M" in era and "thread_cache_size          = 0" in era
    monkeypatch.setenv("DB_PROFILE", "1999")
    with pytest.raises(LabError, match="DB_PROFILE='1999': it must be current or one of era"):
        MariaDB.profile_settings()


def test_durability_sets_what_an_innodb_commit_waits_for_and_an_unknown_one_is_refused(monkeypatch):
    assert MariaDB.flush_log_at_commit() == 1
    monkeypatch.setenv("DB_DURABILITY", "relaxed")
    assert MariaDB.flush_log_at_commit() == 2
    monkeypatch.setenv("DB_DURABILITY", "none")
    with pytest.raises(LabError, match="DB_DURABILITY='none': it must be one of full, relaxed"):
        MariaDB.flush_log_at_commit()
    from harness.results.manifest import Manifest
    assert Manifest({"settings": {"DB_DURABILITY": "relaxed"}}).database_text.startswith(
        "the database not as by default: DB_DURABILITY=relaxed")


def test_a_run_on_a_test_bed_says_so_where_its_tables_are_titled_by_primary_key():
    from harness.results.manifest import Manifest
    bed = Manifest({"settings": {"DB_SCHEMA": "innodb-unkeyed", "DB_PROFILE": "era"}})
    assert bed.database_text.startswith("the database not as by default: DB_SCHEMA=innodb-unkeyed, DB_PROFILE=era")
    assert Manifest({"settings": {"DB_SCHEMA": "keyed", "DB_PROFILE": "current"}}).database_text == ""
    assert Manifest({"settings": {}}).database_text == "", "a run recorded before the knobs used the default tables"
