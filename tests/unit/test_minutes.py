"""Where a sweep's minutes went (harness/results/minutes.py), on the default run the repository keeps
(reference-runs/, Intel Xeon, 58.1 minutes) and a recorded short run with turns."""
import dataclasses

import pytest

from harness.report import trust
from harness.report.view import View
from harness.results.minutes import spent
from harness.results.store import REFERENCE_RUNS, load_run
from stack.settings import ROOT

DEFAULT_RUN = load_run(REFERENCE_RUNS / "turns-fit-xeon-20261129")
TRIAL = load_run(ROOT / "tests" / "fixtures" / "results" / "turns-trial")


def test_the_default_run_s_hour_splits_into_visits_jvm_warm_ups_and_turns():
    found = spent(DEFAULT_RUN)
    # 19:19:18 to 20:17:26; the first turn at 20:08:30 (49 min 12 s in), the last at 20:17:24 (8 min 54 s on).
    assert found.sweep == pytest.approx(58 + 8 / 60)
    assert (found.first_turn, found.turns) == (pytest.approx(49 + 12 / 60), pytest.approx(8 + 54 / 60))
    # 51 visits (16 cells and the A/A repeat, 3 rounds); three JVM warm-ups of 134, 147 and 196 s.
    assert len(DEFAULT_RUN.states) == 51 and found.jvm_warmups == pytest.approx((133.9 + 146.9 + 195.7) / 60)
    assert found.visits == pytest.approx(40.4, abs=0.05) and found.warmups == pytest.approx(11.0, abs=0.05)
    assert found.steps + found.warmups + found.between_steps == pytest.approx(found.visits)
    assert 0 < found.rest < 1 and found.first_turn + found.turns <= found.sweep


def test_the_report_says_where_the_minutes_went_beside_the_cap():
    line = trust.minutes_line(View(DEFAULT_RUN))
    assert line.startswith("minutes: 58.1 of sweep (ROUNDS=auto's cap: 60): the cells' visits 40.4 (warm-ups 11.0, ")
    assert "the JVMs' warm-ups 7.9, the turns 8.9 from minute 49.2, the rest 0.8" in line
    assert "The sweep's minutes: 58.1 of sweep" in trust.rounds_sentence(View(DEFAULT_RUN))


def test_a_run_without_turns_or_an_end_says_so():
    without_turns = dataclasses.replace(TRIAL, turns=[])
    assert "the turns" not in trust.minutes_line(View(without_turns))
    assert "the turns 1.5 from minute 5.2" in trust.minutes_line(View(TRIAL))
    unfinished = dataclasses.replace(TRIAL.manifest, data={**TRIAL.manifest.data, "finished": None})
    assert spent(dataclasses.replace(TRIAL, manifest=unfinished)) is None
    assert trust.minutes_line(View(dataclasses.replace(TRIAL, manifest=unfinished))) == "minutes: the sweep is unfinished"
