"""The committed data file and its derivation: 16,000 complete real rows, sorted by playerID."""
import csv
import hashlib

from sql.derive_people import COLUMNS, derive
from stack import lab
from stack.settings import ROOT

PEOPLE = ROOT / "sql" / "people.tsv"


def read_people():
    with open(PEOPLE, encoding="utf-8", newline="") as source:
        return list(csv.reader(source, delimiter="\t", quoting=csv.QUOTE_NONE))


def test_people_file_holds_16000_complete_rows_numbered_in_playerid_order():
    header, *rows = read_people()
    assert header == ["id"] + COLUMNS
    assert len(rows) == 16000
    assert [int(row[0]) for row in rows] == list(range(1, 16001))
    assert all(len(row) == 11 and all(value for value in row) for row in rows)
    player_ids = [row[1] for row in rows]
    assert player_ids == sorted(player_ids) and len(set(player_ids)) == 16000


def test_derive_drops_incomplete_rows_sorts_by_playerid_and_numbers_from_one():
    fields = ["playerID", "birthYear", "birthMonth", "birthDay", "nameFirst", "nameLast",
              "weight", "height", "bats", "throws", "extra"]
    lines = [",".join(fields)]
    for number in range(16002):
        player = f"p{16002 - number:05d}"
        lines.append(f"{player},1950,1,2,First,Last,180,72,R,L,x")
    lines.append("incomplete01,1950,,2,First,Last,180,72,R,L,x")
    rows = derive("\n".join(lines) + "\n")
    assert len(rows) == 16000
    assert rows[0] == ["1", "p00001", "First", "Last", "1950", "1", "2", "180", "72", "R", "L"]
    assert rows[-1][:2] == ["16000", "p16000"]
    assert all(row[1] != "incomplete01" for row in rows)


def test_expected_checksum_is_over_the_rows_without_the_header():
    body = "\n".join("\t".join(row) for row in read_people()[1:])
    assert lab.expected_checksum() == hashlib.sha256(body.encode()).hexdigest()
