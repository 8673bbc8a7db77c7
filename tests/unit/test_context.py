"""The run context: knobs by their flat names into small values, the environment read once, and the
manifest's options as earlier runs recorded them."""
import json

import pytest

from harness.judge.verdict import Thresholds
from harness.run.context import PRESETS, Gate, Plan, RunContext, defaults, preset
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "results"


def recorded_options(run):
    return json.loads((FIXTURES / run / "manifest.json").read_text())["options"]


def test_each_knob_lands_in_its_group_and_the_rest_come_from_sweep_json():
    context = RunContext.of(("php",), rounds=2, gate_wait_s=7, max_redos=0, jit_quiet_share=0.2, client_cpus="0")
    assert (context.plan.rounds, context.gate.gate_wait_s, context.disturbance.max_redos) == (2, 7, 0)
    assert (context.warmup.jit_quiet_share, context.pinning.client_cpus) == (0.2, "0")
    assert context.plan.duration_s == defaults()["duration_s"] and context.gate.gate_factor == defaults()["gate_factor"]
    assert context.selection.apps == ("php",) and len(context.selection.cells) == 4
    limits = context.disturbance.limits
    assert (limits.max_steal_pct, limits.max_other_pct) == (defaults()["max_steal_pct"], defaults()["max_other_pct"])


def test_an_unknown_knob_is_refused_by_name():
    with pytest.raises(TypeError, match="unknown knobs: cooldown_s"):
        RunContext.of(("php",), cooldown_s=5)


def test_the_database_shares_the_web_servers_cpus_unless_db_cpus_names_others(monkeypatch):
    monkeypatch.setenv("SERVER_CPUS", "1")
    monkeypatch.delenv("DB_CPUS", raising=False)
    assert RunContext.of(("php",), server_cpus="1-2").pinning.db_cpus == "1-2"
    monkeypatch.setenv("DB_CPUS", "3")
    pinning = RunContext.of(("php",), server_cpus="1-2").pinning
    assert (pinning.db_cpus, pinning.host_cpus("db"), pinning.cpus_of("tomcat")) == ("3", "3", "1-2")


def test_the_manifest_keeps_every_knob_flat_as_earlier_runs_recorded_them():
    written = RunContext.of(("php",)).as_manifest()
    # net-100mbit (format 2) recorded every knob of its day; DB_CPUS, the quiet wait, the canary, ROUNDS=auto, STUDY=1
    # CONN= and RATES= and PRICE_LIST= and QUIET_CHECK= and the turns came after it, and the httperf build as a plan's value,
    # and the gate's own minimum of requests.
    assert set(written) - set(recorded_options("net-100mbit")) == {"db_cpus", "quiet_wait_s", "min_speed", "slow_wait_s",
                                                                       "auto_rounds", "auto_max_rounds", "auto_cap_min",
                                                                       "step_timeout_s", "linear_rates", "linear_low",
                                                                       "linear_high", "linear_stop_after", "reference_run",
                                                                       "reference_figures", "connection", "calls", "turn_pairs",
                                                                       "min_connections", "rates", "price_list", "quiet_check_s",
                                                                       "httperf_build", "turn_cycles", "turn_share",
                                                                       "turn_step_s", "warmup_counting_sds", "gate_min_requests"}
    assert not set(recorded_options("net-100mbit")) - set(written)


def test_a_recorded_run_gives_back_its_own_knobs_and_todays_for_the_rest():
    options = recorded_options("net-100mbit")
    again = RunContext.recorded(options).as_manifest()
    assert {key: value for key, value in again.items() if key in options and key != "thresholds"} == {
        key: value for key, value in options.items() if key != "thresholds"}
    # A threshold added since (the database work's margin) takes today's default beside those recorded.
    assert again["thresholds"] == {**options["thresholds"], "max_missing_work_ratio": Thresholds().max_missing_work_ratio}
    older = RunContext.recorded(recorded_options("full6"))  # before plans had rounds, with knobs since dropped
    assert older.plan.duration_s == 6 and older.plan.rounds == Plan().rounds and older.gate == Gate()


def test_a_resumed_run_keeps_its_seed_and_nothing_else_changes():
    context = RunContext.of(("php",), seed=3, rounds=2)
    resumed = context.with_seed(11)
    assert (resumed.plan.seed, resumed.plan.rounds) == (11, 2)
    assert resumed.selection == context.selection and resumed.gate == context.gate


@pytest.mark.parametrize("name", sorted(path.stem for path in PRESETS.glob("*.json")))
def test_every_preset_file_says_what_it_is_for_and_sets_knobs_a_run_has(name):
    declared = preset(name)
    values = dict(declared["options"])
    thresholds = Thresholds(**values.pop("thresholds", {}))
    chosen = RunContext.of(("php",), thresholds=thresholds, presets=(name,), **values)
    assert declared["about"] and chosen.as_manifest()["presets"] == [name]
    assert {key: chosen.as_manifest()[key] for key in values} == values
