"""The loops over rates and levels as plans (harness/run/planner.py): `walk` steps through any plan, and
the sequences, turns and the wrk ladder visit what their loops used to, in the same order."""
from harness.results import interleave
from harness.results.records import FAIL, PASS
from harness.run.planner import LadderThenRepeats, ListedPlan, Rung, Sequence, Turn, turns, walk


def test_walk_keeps_each_visit_beside_its_result_until_the_plan_is_done():
    assert walk(Sequence([100, 200, 400]), lambda level: level * 2) == [(100, 200), (200, 400), (400, 800)]
    assert walk(Sequence([]), lambda level: 1 / 0) == []


def test_walk_stops_where_a_take_returns_none_and_goes_on_from_the_steps_taken_before():
    offered = []

    def take(rate):
        offered.append(rate)
        return None if rate == 300 else PASS if rate < 250 else FAIL
    plan = ListedPlan([100, 200, 300, 400], stop_after_failures=2)
    assert walk(plan, take, [(100, PASS)]) == [(100, PASS), (200, PASS)], "300 stopped the loop, unrecorded"
    assert offered == [200, 300], "the earlier step is not taken again"


def test_turns_give_every_group_its_members_in_the_order_given():
    assert turns([(0.5, 0), (0.5, 1)], ["auto", "always"]).visits == (
        Turn((0.5, 0), "auto"), Turn((0.5, 0), "always"), Turn((0.5, 1), "auto"), Turn((0.5, 1), "always"))
    # The interleave's and the profile's overhead pairs: AB, BA, AB...
    assert [member for _, member in turns(range(1, 4), ("a", "b"), interleave.order).visits] == \
        ["a", "b", "b", "a", "a", "b"]


def test_the_wrk_ladder_climbs_until_the_rate_falls_twice_then_repeats_its_best_level():
    # The replies per second of the ladder test's server: the best at 4 connections, well below at 8 and 16.
    rates = {1: 400.0, 2: 800.0, 4: 1500.0, 8: 1300.0, 16: 1200.0, 32: 1100.0, 64: 900.0}
    taken = walk(LadderThenRepeats([1, 2, 4, 8, 16, 32, 64], drop=0.1, repeats=3), lambda rung: rates[rung.connections])
    assert [rung for rung, _ in taken] == [Rung("ladder", level, 0) for level in (1, 2, 4, 8, 16)] + \
        [Rung("repeat", 4, number) for number in (1, 2, 3)]


def test_a_ladder_that_never_falls_ends_at_its_top_and_repeats_the_best():
    taken = walk(LadderThenRepeats([1, 2], drop=0.1, repeats=2), lambda rung: 100.0 * rung.connections)
    assert [rung for rung, _ in taken] == [Rung("ladder", 1, 0), Rung("ladder", 2, 0), Rung("repeat", 2, 1),
                                           Rung("repeat", 2, 2)]
