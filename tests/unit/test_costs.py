"""Why a figure moved: a step's cost split read from /proc and httperf's rusage line, the costs per
reply a cell's saturation row keeps, and the report's split of a figure into cost and busy share, on
two runs recorded on the Intel Xeon host kind (cost-a: 2 rounds, cost-b: 3 rounds, PHP and the pooled
servlet on single MyISAM rows, QUICK=1)."""
import dataclasses
import math
import statistics

import pytest

from harness.drivers import driver
from harness.measure.load import usage_line
from harness.measure.processes import CLOCK_TICKS, context_switches, stat_reading
from harness.report import costs
from harness.report.compare import comparison_markdown, comparison_rows
from harness.results.records import COSTS
from harness.results.rounds import cell_figures
from harness.results.saturation import summarize
from harness.results.store import load_run, read_steps
from stack.settings import ROOT

HTTPERF = driver("httperf")

FIXTURES = ROOT / "tests" / "fixtures"
RUN_A, RUN_B = load_run(FIXTURES / "results" / "cost-a"), load_run(FIXTURES / "results" / "cost-b")


def test_a_processes_stat_splits_user_and_system_time_and_counts_its_faults():
    reading = stat_reading((FIXTURES / "proc" / "stat-mariadb.txt").read_text())
    # utime 1138, stime 406 ticks; minflt 21138; no reaped children; 70 threads.
    assert reading.own == (pytest.approx(1544 / CLOCK_TICKS), pytest.approx(1138 / CLOCK_TICKS),
                           pytest.approx(406 / CLOCK_TICKS), 21138)
    assert reading.reaped == (0, 0, 0, 0) and reading.threads == 70


def test_a_threads_status_gives_its_context_switches():
    assert context_switches((FIXTURES / "proc" / "status-mariadb-thread.txt").read_text()) == (5, 0)


def test_the_clients_rusage_line_is_parsed_with_httperfs_summary():
    raw = (RUN_A.directory / "cells" / "php-myisam-single" / "raw").glob("step-*.txt")
    output = (sorted(raw))[0].read_text()
    assert output.splitlines()[2].startswith("# rusage: minflt ")
    figures = HTTPERF.figures(output)
    assert {"client_minflt", "client_vcsw", "client_ivcsw"} <= set(figures)

    class Usage:
        ru_minflt, ru_nvcsw, ru_nivcsw = 468, 1, 162
    assert HTTPERF.figures(output.replace(output.splitlines()[2], usage_line(Usage())))["client_ivcsw"] == 162


def test_a_recorded_cells_saturation_row_keeps_its_steps_costs_per_reply():
    for row in RUN_A.saturation:
        steps = read_steps(RUN_A.directory / "cells" / row.key.name / ("" if row.round == 1 else f"round-{row.round}")
                           / "steps.tsv")
        summary = summarize(row.key, steps, row.restarts, row.round)
        assert summary.costs() == row.costs() and set(row.costs()) == set(COSTS)
        # User and system time add up to the CPU per reply, within the rounding of their seconds.
        assert row.server_user_ms_per_reply_saturation + row.server_system_ms_per_reply_saturation == \
            pytest.approx(row.server_cpu_ms_per_reply_saturation, rel=0.05)


def test_a_figure_is_its_busy_share_over_its_cost_so_a_move_splits_exactly():
    fast, slow = (next(row for row in RUN_A.saturation if row.app == "pooled-servlet" and row.round == number)
                  for number in (1, 2))
    split = costs.cost_split(fast, slow)
    assert split["figure"] == pytest.approx(slow.saturation_rps / fast.saturation_rps)
    assert split["figure"] == pytest.approx(split["busy"] / split["cost"])
    assert split["parts"]["server_system_ms_per_reply"] == pytest.approx(
        slow.server_system_ms_per_reply_saturation / fast.server_system_ms_per_reply_saturation)


def test_which_part_carried_a_move():
    assert costs.carried_by({"figure": 0.5, "cost": 2.0, "busy": 1.0}) == "cost"
    assert costs.carried_by({"figure": 0.5, "cost": 1.0, "busy": 0.5}) == "busy"
    assert costs.carried_by({"figure": 0.5, "cost": math.sqrt(2), "busy": math.sqrt(0.5)}) == "both"
    assert costs.carried_by({"figure": 1.02, "cost": 0.9, "busy": 0.92}) == "nothing"


def test_named_moves_name_only_what_moved_the_largest_first():
    assert costs.named_moves([("a", 1.05), ("b", 0.5), ("c", 1.3)]) == ["b 0.50x", "c 1.30x"]
    # A count that read 0 or below in one of the two (runs recorded before context switches were
    # counted per thread read some below 0) is no move.
    assert costs.named_moves([("a", 0.0), ("b", -2.0)]) == []
    # A bandwidth that halves is a price that doubles.
    moves = costs.price_moves({"memcpy_gb_s": 10.0, "syscall_us": 0.1}, {"memcpy_gb_s": 5.0, "syscall_us": 0.2})
    assert dict(moves) == {"memory bandwidth": 2.0, "a system call": 2.0}


def test_the_spread_of_a_cells_rounds_splits_into_cost_and_busy_share():
    figures = cell_figures(RUN_B)
    for key, cell in figures.items():
        parts = costs.spread_parts(cell)
        logs = {name: [math.log(value(row)) for row in cell.rows] for name, value in
                (("figure", lambda row: row.saturation_rps), ("cost", costs.cost_ms), ("busy", costs.busy_cores))}
        # log figure = log busy - log cost, so its variance is theirs less twice their covariance.
        assert parts["figure"] ** 2 == pytest.approx(parts["cost"] ** 2 + parts["busy"] ** 2
                                                     - 2 * parts["r"] * parts["cost"] * parts["busy"])
        assert parts["figure"] == pytest.approx(statistics.stdev(logs["figure"]))
        assert parts["lives"] in costs.LIVES
    assert costs.spread_parts(cell_figures(RUN_A)[next(iter(figures))]) is None, "two rounds give no split"
    assert "| php/myisam/single |" in "\n".join(costs.spread_lines(figures))


def test_where_the_spread_lives_is_named_from_its_parts():
    def cell(rows):
        return type("Cell", (), {"rows": [dataclasses.replace(RUN_B.saturation[0], saturation_rps=rps,
                                                              server_cpu_ms_per_reply_saturation=cost)
                                          for rps, cost in rows]})
    assert costs.spread_parts(cell([(100, 1.0), (80, 1.25), (120, 0.83)]))["lives"] == "cost"
    assert costs.spread_parts(cell([(100, 1.0), (80, 1.0), (120, 1.01)]))["lives"] == "busy"
    assert costs.spread_parts(cell([(100, 1.0), (101, 1.3), (99, 0.8)]))["lives"] == "not the CPU"


def test_a_wide_cell_names_what_moved_between_its_fastest_and_slowest_rounds():
    cells = cell_figures(RUN_A)
    lines = "\n".join(costs.moved_lines(cells, RUN_A.prices))
    wide = [key for key, cell in cells.items() if cell.geometric.half_width > costs.WIDE]
    assert wide, "the recorded two-round cells are wider than ±10 %"
    for key in wide:
        assert f"**{key}**" in lines
    assert "the price list at the rounds' starts" in lines and "the servers' CPU per reply" in lines
    narrow = dataclasses.replace(cells[wide[0]], geometric=dataclasses.replace(cells[wide[0]].geometric,
                                                                                low=1.0, high=1.0))
    assert costs.moved_lines({wide[0]: narrow}, RUN_A.prices) == []


def test_the_price_list_is_on_the_summary_and_the_title_page():
    lines = "\n".join(costs.price_lines(RUN_B.prices))
    assert "| tcp_connection_us (a loopback TCP connection) |" in lines and "(3 rounds)" in lines
    assert costs.price_title_text(RUN_B.prices).startswith("price list (servers' CPUs, median of rounds): canary_ms ")
    assert "not read" in costs.price_title_text([])


def test_make_compare_explains_each_cells_ratio_between_two_runs():
    rows = comparison_rows(RUN_A, RUN_B)
    markdown = comparison_markdown(RUN_A, RUN_B, rows)
    assert "## Why the figures differ" in markdown
    for row in rows:
        line = next(line for line in markdown.splitlines() if line.startswith(f"- {row['cell']}: "))
        split = costs.cost_split(row["first"].representative, row["second"].representative)
        assert f"cost-b reads {split['figure']:.2f}x" in line
        assert costs.CARRIED[costs.carried_by(split)] in line
        if costs.carried_by(split) == "cost":
            assert "moved with it" in line, "a move the cost carried says which prices went its way"
    older = comparison_markdown(load_run(FIXTURES / "results" / "rounds2"), RUN_B,
                                comparison_rows(load_run(FIXTURES / "results" / "rounds2"), RUN_B))
    assert "no cost per reply in both runs" in older and "no price list in rounds-test" in older
