"""The interleaving: every round visits every cell once, blocks stay together, orders differ by
round and repeat by seed, the A/A control is measured twice a round."""
from itertools import groupby

from harness.results.records import CellKey
from harness.run.schedule import schedule

APPS = ("php", "servlet", "pooled-servlet", "soap")
CELLS = [CellKey(app, engine, workload) for app in APPS for engine in ("myisam", "innodb")
         for workload in ("single", "large")]
CONTROL = CellKey("php", "myisam", "single")


def rounds_of(visits):
    return [list(group) for _, group in groupby(visits, key=lambda visit: visit.round)]


def test_every_round_visits_every_cell_once_and_the_control_twice():
    visits = schedule(CELLS, 3, seed=7, control=CONTROL)
    assert [visit.round for visit in visits] == sorted(visit.round for visit in visits)
    for number, round_ in enumerate(rounds_of(visits), start=1):
        assert all(visit.round == number for visit in round_)
        firsts = [visit.key for visit in round_ if visit.replica == 1]
        assert sorted(firsts) == sorted(CELLS)
        assert [visit.key for visit in round_ if visit.replica == 2] == [CONTROL]
        positions = {visit.replica: index for index, visit in enumerate(round_) if visit.key == CONTROL}
        assert positions[1] < positions[2], "the control's second measurement follows its first"


def test_the_apps_of_a_block_run_next_to_each_other():
    for round_ in rounds_of(schedule(CELLS, 4, seed=11, control=CONTROL)):
        blocks = [(visit.key.engine, visit.key.workload) for visit in round_ if visit.replica == 1]
        runs = [block for block, _ in groupby(blocks)]
        assert len(runs) == len(set(runs)) == 4, f"a block was split: {blocks}"
        position = [visit.replica for visit in round_].index(2)
        if 0 < position < len(round_) - 1:
            before, after = round_[position - 1].key, round_[position + 1].key
            assert (before.engine, before.workload) != (after.engine, after.workload), "the repeat split a block"


def test_orders_differ_between_rounds_and_repeat_for_a_seed():
    first = schedule(CELLS, 3, seed=2026, control=CONTROL)
    assert first == schedule(CELLS, 3, seed=2026, control=CONTROL)
    assert first != schedule(CELLS, 3, seed=2027, control=CONTROL)
    orders = [[visit.key for visit in round_] for round_ in rounds_of(first)]
    assert len({tuple(order) for order in orders}) == 3


def test_no_control_outside_the_selection():
    cells = [key for key in CELLS if key.app == "soap"]
    visits = schedule(cells, 2, seed=1, control=CONTROL)
    assert len(visits) == 8 and all(visit.replica == 1 for visit in visits)
