"""The pooled servlet's pool record, on a real one: 3 s of wrk at 32 connections against a cold
Tomcat, whose five connections were all in use while up to 25 request threads waited."""
from pathlib import Path

from harness.measure.pool_log import pool_columns

RECORD = (Path(__file__).parent.parent / "fixtures" / "pool" / "pool-wait.tsv").read_text()


def test_a_step_gets_the_most_waiting_and_active_of_its_seconds():
    assert pool_columns(RECORD, 1795372074.4, 1795372076.9) == {"pool_waiting_max": 25, "pool_active_max": 5}


def test_seconds_outside_the_step_do_not_count():
    assert pool_columns(RECORD, 1795372075.0, 1795372076.5) == {"pool_waiting_max": 12, "pool_active_max": 5}
    assert pool_columns(RECORD, 1795372073.0, 1795372073.9) == {"pool_waiting_max": 5, "pool_active_max": 2}


def test_a_step_during_which_the_pool_was_idle_gets_no_columns():
    assert pool_columns(RECORD, 1795372080.0, 1795372090.0) == {}
    assert pool_columns("", 0, 2e9) == {}


def test_a_torn_last_line_is_skipped():
    assert pool_columns(RECORD + "1795372077\t3", 1795372077, 1795372078) == {}
