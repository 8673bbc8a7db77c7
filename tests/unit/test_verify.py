"""Verifying a cell's answer before load, on answers recorded from the real apps
(tests/fixtures/answers) and the rows of sql/people.tsv, which both tables hold."""
import csv

import pytest

from harness.run import verify
from stack import lab
from stack.settings import ROOT

ANSWERS = ROOT / "tests" / "fixtures" / "answers"


def people(condition):
    with open(ROOT / "sql" / "people.tsv", newline="", encoding="utf-8") as source:
        rows = csv.reader(source, delimiter="\t")
        assert next(rows) == lab.COLUMN_NAMES
        return [row for row in rows if condition(row)]


PLAYER_100 = people(lambda row: row[0] == "100")
O_QUOTE = people(lambda row: row[3].startswith("O'"))


def answer(name):
    return (ANSWERS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("kind,name,expected", [
    ("html", "php-single-id-100.html", PLAYER_100), ("soap", "soap-single-id-100.xml", PLAYER_100),
    ("html", "php-large-O-quote.html", O_QUOTE), ("soap", "soap-large-O-quote.xml", O_QUOTE)])
def test_recorded_answers_hold_exactly_the_rows_of_the_data(kind, name, expected):
    assert len(expected) in (1, 89)
    assert verify.judge_answer(kind, 200, answer(name), expected) == (True, f"{len(expected)} rows equal to the database")


def test_a_changed_value_is_named_with_its_row():
    tampered = answer("php-large-O-quote.html").replace("<td>O&#039;Brien</td>", "<td>OBrien</td>", 1)
    correct, problem = verify.judge_answer("html", 200, tampered, O_QUOTE)
    assert not correct and problem.startswith("row ") and "OBrien" in problem


def test_missing_rows_and_wrong_statuses_fail():
    assert verify.judge_answer("soap", 200, answer("soap-single-id-100.xml"), PLAYER_100 * 2) == (
        False, "1 rows, the database holds 2")
    correct, problem = verify.judge_answer("html", 503, "database unavailable", PLAYER_100)
    assert not correct and problem.startswith("status 503")


def test_an_answer_of_the_wrong_shape_fails_with_a_reason():
    assert verify.judge_answer("soap", 200, "<html>", PLAYER_100) == (False, "not XML: no element found: line 1, column 6")
    correct, problem = verify.judge_answer("html", 200, "<table><tr><th>id</th></tr></table>", PLAYER_100)
    assert not correct and "not the contract's columns" in problem
    for body in ("", "<html>", "<?xml version='1.0' encoding='utf-8'?><table/>"):
        correct, problem = verify.judge_answer("html", 200, body, PLAYER_100)
        assert not correct and ("not the contract's columns" in problem or problem.startswith("not HTML: ")), problem


def test_a_nil_soap_result_is_no_row():
    found = answer("soap-single-id-100.xml")
    player = found[found.index("<getPlayerReturn>"):found.index("</getPlayerResponse>")]
    assert verify.soap_rows(found.replace(player, '<getPlayerReturn xsi:nil="true"/>')) == []


def rows_by_id(player_id):
    return people(lambda row: row[0] == player_id)


def test_a_repeating_workloads_answer_holds_its_count_of_distinct_drawn_rows_each_the_databases():
    recorded = answer("php-updates-3.html")
    assert verify.judge_repeated(200, recorded, "updates-3", rows_by_id) == (
        True, "3 rows of distinct drawn ids equal to the database")
    assert verify.judge_repeated(200, recorded, "updates-4", rows_by_id) == (False, "3 rows, the request asked for 4")
    twice = recorded.replace("<td>252</td><td>almonhe01</td><td>Hector</td><td>Almonte</td><td>1975</td><td>10</td><td>17</td>"
                             "<td>190</td><td>74</td>",
                             "<td>11213</td><td>mickeed01</td><td>Ed</td><td>Mickelson</td><td>1926</td><td>9</td><td>9</td>"
                             "<td>205</td><td>75</td>")
    assert verify.judge_repeated(200, twice, "updates-3", rows_by_id) == (False, "ids drawn twice among 11213, 11213, 15205")
    tampered = recorded.replace("<td>Hector</td>", "<td>Hektor</td>")
    correct, problem = verify.judge_repeated(200, tampered, "updates-3", rows_by_id)
    assert not correct and problem.startswith("row 2 is ") and "Hektor" in problem
    unraised = recorded.replace("<td>1</td></tr>", "<td>0</td></tr>", 1)
    assert verify.judge_repeated(200, unraised, "updates-3", rows_by_id) == (False, "version '0' is not one an update raised")
    assert verify.judge_repeated(503, "database unavailable", "updates-3", rows_by_id)[0] is False


def test_a_repeating_workloads_ids_must_lie_within_the_table():
    rows = [["0"], ["16001"], ["7"]]
    assert verify.drawn_ids_problem(rows, 3, {"from": 1, "to": 16000}) == "ids 0, 16001 outside 1..16000"


def test_a_soap_update_answer_holds_the_row_and_a_raised_version():
    recorded = answer("soap-update-id-100.xml")
    assert verify.judge_answer("soap", 200, recorded, PLAYER_100, writes=True) == (True, "1 rows equal to the database")
    assert verify.judge_answer("soap", 200, recorded, PLAYER_100) == (True, "1 rows equal to the database")
    unraised = recorded.replace("<ver>7</ver>", "<ver>0</ver>")
    assert verify.judge_answer("soap", 200, unraised, PLAYER_100, writes=True) == (
        False, "version '0' is not one an update raised")
    unversioned = recorded.replace("<ver>7</ver>", "")
    assert verify.judge_answer("soap", 200, unversioned, PLAYER_100, writes=True) == (
        False, "version None is not one an update raised")
