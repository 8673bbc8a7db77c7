"""The host's price list: its parsers on outputs recorded on the Intel Xeon host kind (the fsync's on
AMD EPYC), its rows in prices.tsv, and what a round's list reads per role."""
import pytest

from harness.measure import prices
from harness.results.prices import (missing_prices, price_rows, round_prices, rounds_priced, run_prices,
                                    spread)
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "prices"


def recorded(name):
    return (FIXTURES / name).read_text()


def test_perf_bench_outputs_read_as_one_operations_price():
    assert prices.per_op_us(recorded("perf-syscall-basic.txt")) == pytest.approx(0.100623)
    switch = prices.BY_NAME["context_switch_us"]
    assert switch.reading(recorded("perf-sched-pipe.txt")) == pytest.approx(2.4162 / 2), "a round trip is two switches"
    assert prices.gb_per_s(recorded("perf-mem-memcpy.txt")) == pytest.approx(9.080343)
    assert prices.gb_per_s("       812.5 MB/sec\n") == pytest.approx(0.8125)


def test_the_lab_programs_outputs_read_in_the_lists_units():
    assert prices.BY_NAME["page_fault_us"].reading(recorded("host-costs-fault.txt")) == pytest.approx(1.5059)
    assert prices.BY_NAME["tcp_connection_us"].reading(recorded("host-costs-tcp.txt")) == pytest.approx(12.30)
    # A 4 KiB block written over and fdatasync'ed in var/ (AMD EPYC VM, 2026-12-03).
    assert prices.BY_NAME["fsync_us"].reading(recorded("host-costs-fsync.txt")) == pytest.approx(110.8)
    assert prices.BY_NAME["fsync_us"].paid_in == "wait"
    # The canary's reps: its CPU times' line, the median of 20.
    assert prices.canary_rep_ms(recorded("canary-20.txt")) == pytest.approx(3.0235)


def test_an_output_without_its_figure_is_an_error_not_a_zero():
    with pytest.raises(ValueError, match="usecs/op"):
        prices.per_op_us("perf: 'bench' is not a perf-command\n")
    with pytest.raises(ValueError, match="bandwidth"):
        prices.gb_per_s("# Running 'mem/memcpy' benchmark:\n")


def test_a_price_list_read_here_has_every_price_on_each_cpu():
    found = prices.read_prices([0], repeats=1)
    assert set(found[0]) == {price.name for price in prices.PRICES}, found[0].get("missing")
    for summary in found[0].values():
        assert 0 < summary["low"] <= summary["median"] <= summary["high"]


READINGS = [("", "client", 0, {"canary_ms": {"median": 3.5, "low": 3.0, "high": 3.6},
                                "tcp_connection_us": {"median": 12.6, "low": 12.0, "high": 13.0}}),
            ("", "servers", 1, {"canary_ms": {"median": 3.0, "low": 2.9, "high": 3.1},
                                "tcp_connection_us": {"median": 12.0, "low": 11.0, "high": 14.0},
                                "missing": {"memcpy_gb_s": "no perf"}})]


def test_rows_per_round_and_the_servers_and_clients_lists():
    rows = price_rows(1, "t1", READINGS) + price_rows(2, "t2", [
        ("", "servers", 1, {"canary_ms": {"median": 5.0, "low": 4.0, "high": 6.0}})])
    assert rounds_priced(rows) == {1, 2}
    assert len(rows) == 5, "a missing price is no row"
    assert round_prices(rows) == {1: {"canary_ms": 3.0, "tcp_connection_us": 12.0}, 2: {"canary_ms": 5.0}}
    assert run_prices(rows, "client") == {"canary_ms": 3.5, "tcp_connection_us": 12.6}
    assert run_prices(rows)["canary_ms"] == 4.0, "the median of the rounds' 3.0 and 5.0"
    assert spread(rows, "canary_ms") == (3.0, 5.0) and spread(rows, "tcp_connection_us") is None
    assert missing_prices(READINGS) == ["memcpy_gb_s on CPU 1: no perf"]
