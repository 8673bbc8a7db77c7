"""The test tiers (tests/conftest.py): every test file has one tier, and the files the tiers name exist."""
from stack.settings import ROOT
from tests.conftest import ANSWERS_FILES, HOSTS_FILES, tiers

TESTS = ROOT / "tests"


def test_every_test_file_is_in_exactly_one_of_the_four_tiers():
    files = sorted(TESTS.glob("*/test_*.py"))
    assert files
    for path in files:
        assert len({"unit", "stack", "faults", "hosts"} & set(tiers(path))) == 1, path
    assert tiers(TESTS / "unit" / "test_drivers.py") == ["unit"]
    assert tiers(TESTS / "faults" / "test_sweep_faults.py") == ["faults"]
    assert tiers(TESTS / "integration" / "test_ssh.py") == ["hosts"]
    assert tiers(TESTS / "integration" / "test_soap.py") == ["stack", "answers"]
    assert tiers(TESTS / "integration" / "test_sweep.py") == ["stack"]


def test_the_files_the_tiers_name_are_integration_tests_that_exist():
    for name in HOSTS_FILES | ANSWERS_FILES:
        assert (TESTS / "integration" / name).is_file(), name
