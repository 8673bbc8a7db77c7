"""ROUNDS=auto: Stein's two-stage procedure sizes each cell's rounds from its first three, added rounds
visit only the cells that need them, and an A/A difference is called real no more often than the
intervals' 5 %, as a simulation of noisy A/A cells shows."""
import math
import random

import pytest

from harness.results.records import CellKey, CellSummary, Visit
from harness.results.stats import geometric_interval, ratio_interval, stein_interval, stein_rounds
from harness.run import options
from harness.run.auto_rounds import AutoRounds
from harness.run.context import Plan, Selection
from harness.run.schedule import added_rounds, auto_extension, round_minutes, starts_an_added_round

TIGHT, WIDE = CellKey("servlet", "myisam", "single"), CellKey("php", "innodb", "rows")


def test_the_first_rounds_spread_sizes_a_cells_rounds_for_a_ten_percent_interval():
    # Issue 32's widest cell, PHP on 16,000 InnoDB rows: 15.0, 21.0 and 24.8 req/s, a log spread of 0.256:
    # (t(0.975, 2) 4.303 x 0.256 / ln 1.1)^2 = 133.3, so 134 rounds; the cap holds it to 12.
    assert stein_rounds([15.0, 21.0, 24.8], 0.10, most=1000) == 134
    assert stein_rounds([15.0, 21.0, 24.8], 0.10, most=12) == 12
    assert stein_rounds([1403.62, 1465.5, 1420.0], 0.10, most=12) == 3, "already within +-10 %: none added"
    assert stein_rounds([100.0, 106.0, 94.0], 0.10, most=12) == 8  # a 6 % spread: (4.303 x 0.060 / 0.0953)^2 = 7.3


def test_steins_interval_takes_its_spread_from_the_first_rounds_and_its_centre_from_all():
    values = [20.0, 24.0, 22.0, 21.0, 23.0, 22.5]
    stein = stein_interval(values, first=3)
    logs = [math.log(value) for value in values]
    assert stein.estimate == pytest.approx(math.exp(sum(logs) / 6))
    first_spread = math.sqrt(sum((each - sum(logs[:3]) / 3) ** 2 for each in logs[:3]) / 2)
    assert math.log(stein.high / stein.estimate) == pytest.approx(4.3027 * first_spread / math.sqrt(6), rel=1e-4)
    assert stein_interval(values[:3], first=3) == geometric_interval(values[:3])


def test_added_rounds_visit_only_the_cells_that_need_them_in_a_fresh_order_each():
    needs, visits = added_rounds({TIGHT: [1403.62, 1465.5, 1420.0], WIDE: [100.0, 106.0, 94.0]}, first=3,
                                 target=0.10, most=12, seed=7, control=WIDE)
    assert needs == {TIGHT: 3, WIDE: 8}
    assert visits == [visit for round_ in range(4, 9) for visit in (Visit(WIDE, round_), Visit(WIDE, round_, replica=2))]
    assert added_rounds({TIGHT: [1403.62, 1465.5, 1420.0], WIDE: [20.0]}, 3, 0.10, 12, 7) == ({TIGHT: 3, WIDE: 3}, [])


def test_the_first_stages_rows_give_the_added_rounds_and_their_record():
    def row(key, round_, figure, replica=1):
        return CellSummary(key.app, key.engine, key.workload, "located", saturation_rps=figure, round=round_,
                           replica=replica)
    summaries = {row_.visit: row_ for row_ in [
        row(WIDE, 2, 106.0), row(WIDE, 1, 100.0), row(WIDE, 3, 94.0), row(WIDE, 3, 300.0, replica=2),
        row(TIGHT, 1, 1403.62), row(TIGHT, 2, None), row(TIGHT, 3, 1420.0)]}
    record, visits = auto_extension(summaries, [TIGHT, WIDE], first=3, target=0.10, most=12, seed=7)
    assert record["cells"] == {"servlet/myisam/single": {"rounds": 3, "first_figures": [1403.62, 1420.0]},
                               "php/innodb/rows": {"rounds": 8, "first_figures": [100.0, 106.0, 94.0]}}
    assert visits == [Visit(WIDE, round_) for round_ in range(4, 9)] and record["stopped_at_cap_after_round"] is None
    assert starts_an_added_round(Visit(WIDE, 4), [Visit(TIGHT, 3), Visit(WIDE, 3)], first=3)
    assert not starts_an_added_round(Visit(WIDE, 5), [Visit(WIDE, 4), Visit(TIGHT, 5)], first=3)
    assert not starts_an_added_round(Visit(WIDE, 3), [Visit(TIGHT, 2)], first=3), "the first stage is never capped"


def test_a_noisy_aa_pair_is_called_real_in_at_most_five_percent_of_trials():
    """A/A cells at +-25 % noise (three rounds' geometric interval), each round's two measurements
    apart by chance alone, through the stopping rule: the cell's first three rounds size its rounds
    (at most 12), and the pair's Stein interval decides. Stein's procedure is exact under log-normal
    noise, so the rate is 5 % up to the simulation's own error: 205 of these 4,000 trials (5.1 %;
    5.12 % over 20,000 with the same seed). Its 99 % lower bound must not pass 5 %."""
    noise = math.log(1.25) * math.sqrt(3) / 4.3027  # the log spread that gives +-25 % at three rounds
    chooser, trials, real, added = random.Random(32), 4000, 0, 0
    for _ in range(trials):
        first = [math.exp(chooser.gauss(0, noise)) for _ in range(12)]
        second = [math.exp(chooser.gauss(0, noise)) for _ in range(12)]
        rounds = stein_rounds(first[:3], 0.10, most=12)
        added += rounds > 3
        pairs = list(zip(second[:rounds], first[:rounds]))
        real += ratio_interval(pairs, first=3).excludes(1.0)
    assert added > trials / 2, "most trials add rounds: the rule is exercised"
    rate = real / trials
    assert rate - 2.326 * math.sqrt(rate * (1 - rate) / trials) <= 0.05, f"{real} of {trials} A/A trials called real"


def test_rounds_are_a_count_or_auto_and_anything_else_is_refused_in_words(tmp_path, capsys):
    context = options.from_argv(["--apps", "php", "--rounds", "auto", "--auto-cap-min", "45",
                                 "--results", str(tmp_path)], "")[0]
    assert (context.plan.rounds, context.plan.auto_rounds, context.plan.auto_cap_min) == (3, True, 45)
    quick = options.from_argv(["--apps", "php", "--rounds", "auto", "--quick", "--results", str(tmp_path)], "")[0]
    assert quick.plan.rounds == 3, "Stein's first stage needs its three rounds, whatever the preset runs"
    for bad, said in ((["--rounds", "some"], "'some' is not an integer, or auto"),
                      (["--rounds", "0"], "0 is out of range: it must be at least 1, or auto"),
                      (["--auto-cap-min", "0"], "0 is out of range: it must be above 0")):
        with pytest.raises(SystemExit):
            options.from_argv(["--apps", "php", *bad, "--results", str(tmp_path)], "")
        assert said in capsys.readouterr().err


def test_a_round_takes_its_cells_median_walls_and_one_warm_up():
    walls = {TIGHT: [60.0, 90.0, 70.0], WIDE: [300.0]}
    assert round_minutes([TIGHT, WIDE], walls, warmup_s=30) == pytest.approx((70 + 300 + 30) / 60)
    other = CellKey("soap", "myisam", "single")
    assert round_minutes([other], walls) == pytest.approx(80 / 60), "a cell never timed: the median over all"
    assert round_minutes([TIGHT], {}, warmup_s=60) == 1


def test_the_cap_starts_no_added_round_that_would_end_past_it():
    """Under the first rule (no added round starts once the sweep has run the cap) a round that began
    just under the cap ran past it (run epyc-a, AMD EPYC: round 5 began at 50 min and ended at 62); now an added round
    starts only when it fits."""
    large = CellKey("php", "innodb", "large")
    now, said = [0.0], []
    plan = Plan(rounds=3, auto_rounds=True, auto_cap_min=60)
    selection = Selection(apps=("php", "servlet"), engines=("myisam", "innodb"), workloads=("single", "large"))
    auto = AutoRounds(plan, selection, said.append, clock=lambda: now[0])
    summaries = {Visit(key, round_): CellSummary(key.app, key.engine, key.workload, "located", saturation_rps=figure,
                                                 round=round_)
                 for key, figures in ((TIGHT, [1403.62, 1465.5, 1420.0]), (large, [15.0, 21.0, 24.8]))
                 for round_, figure in enumerate(figures, 1)}
    assert [visit.round for visit in auto.extension(summaries)] == list(range(4, 13))
    assert auto.extension(summaries) == [], "added once"
    auto.measured(large, 240.0)
    first_stage = [Visit(key, round_) for round_ in (1, 2, 3) for key in (TIGHT, large)]
    now[0] = 50 * 60  # 50 min in: round 4 (large alone, 4 min, and a 60 s warm-up) ends at 55
    assert not auto.stops_before(Visit(large, 4), first_stage, [large], warmup_s=60)
    now[0] = 56 * 60  # 56 min in: round 5 would end at 61
    assert auto.stops_before(Visit(large, 5), first_stage + [Visit(large, 4)], [large], warmup_s=60)
    assert auto.added["stopped_at_cap_after_round"] == 4
    assert said[-1] == ("ROUNDS=auto: 56 min of sweep and round 5's expected 5 min would pass the cap of 60 min; "
                        "round 5 and after not run")
    assert not auto.stops_before(Visit(large, 3), first_stage[:5], [large], warmup_s=60), "the first stage is never capped"
