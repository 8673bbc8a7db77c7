"""The load's bounds, the ports check, the ETA and the sweep's options."""
import pytest

from harness.judge.steps import step_timeout
from harness.measure import load, ports
from harness.run import context, options
from harness.run.context import RunContext
from harness.run.progress import estimate_eta, planned_eta, sweep_eta, within_cap
from stack import registry


def test_step_timeout_keeps_rate_times_timeout_within_the_descriptor_budget():
    assert step_timeout(10, 10, fd_budget=900) == 10
    assert step_timeout(3000, 2, fd_budget=900) == 0.3


def test_the_watchdog_allows_the_schedule_with_slack_then_the_timeout():
    assert load.wall_limit(num_requests=600, rate=200, timeout_s=2) == 600 / 200 * 1.5 + 2 + 15
    # Kept alive, the last connection's calls may each take the timeout.
    assert load.wall_limit(num_requests=600, rate=200, timeout_s=2, calls=10) == 600 / 200 * 1.5 + 20 + 15


def test_a_kept_alive_step_carries_calls_on_at_least_min_connections_and_fills_each():
    plan = context.Plan(connection="keepalive", calls=100, min_connections=20, duration_s=5, min_requests_per_step=10)
    assert plan.step_load(1500) == (7500, 100)   # 75 connections of 100
    assert plan.step_load(100) == (500, 25)      # 20 connections: fewer calls each
    assert plan.step_load(333) == (1743, 83)     # 1,665 requests rounded up to 21 connections of 83
    assert plan.step_load(2) == (10, 1)          # under 20 requests: a connection each
    assert context.Plan(connection="close").step_load(1500) == (7500, 1)


def test_without_time_wait_reuse_a_step_waits_until_its_connections_fit_in_the_free_ports():
    assert ports.ports_free_for(9000, time_wait=10000, port_range=28232, reuse=0)
    assert not ports.ports_free_for(9000, time_wait=20000, port_range=28232, reuse=0)
    assert ports.ports_free_for(9000, time_wait=50000, port_range=28232, reuse=2)


# This VM's /proc/net/sockstat after a short sweep (kernel 6.18): /proc/net/tcp and tcp6 then listed 37,895
# sockets in state 06.
SOCKSTAT = """sockets: used 33
TCP: inuse 11 orphan 0 tw 37895 alloc 17 mem 0
UDP: inuse 0 mem 0
UDPLITE: inuse 0
RAW: inuse 0
FRAG: inuse 0 memory 0
"""


def test_the_time_wait_count_is_the_kernels_own_in_sockstat():
    assert ports.time_wait_count(SOCKSTAT) == 37895
    assert ports.time_wait_count(SOCKSTAT.replace("tw 37895", "tw 0")) == 0
    assert ports.time_wait_count("sockets: used 2\n") == 0


def test_time_wait_ports_are_reused_for_other_hosts_only_with_reuse_1():
    assert not ports.ports_free_for(9000, time_wait=20000, port_range=28232, reuse=2, loopback=False)
    assert ports.ports_free_for(9000, time_wait=20000, port_range=28232, reuse=1, loopback=False)
    assert (ports.on_loopback("127.0.0.1"), ports.on_loopback("localhost"), ports.on_loopback("198.18.0.2"),
            ports.on_loopback("web.example")) == (True, True, False, False)


def test_the_eta_before_a_run_takes_each_cells_walls_from_earlier_runs_by_round_kind():
    walls = {("soap", "echo-1", True): [100, 300, 200], ("soap", "echo-1", False): [40],
             ("php", "single", True): [60]}
    visits = [("soap", "echo-1", True), ("soap", "echo-1", False), ("soap", "echo-10", True),
              ("soap", "echo-10", False)]
    # soap/echo-10 has no walls of its own: every first round's median (100, 200, 300, 60 -> 200), then
    # every later round's (40).
    assert planned_eta(visits, walls, lambda first: 999) == (200 + 40 + 200 + 40, 2)
    assert planned_eta([("soap", "quote", True)], {}, lambda first: 75 if first else 30) == (75, 0)


def test_the_eta_counts_the_current_cell_and_the_cells_left_at_their_measured_length():
    assert estimate_eta(cells_left=3, cell_walls=[], steps_in_cell=2, step_walls=[10, 10]) == 6 * 10 + 3 * 80
    assert estimate_eta(cells_left=2, cell_walls=[50, 70], steps_in_cell=9, step_walls=[7]) == 2 * 60
    assert estimate_eta(cells_left=5, cell_walls=[], steps_in_cell=0, step_walls=[]) == 0


def test_the_eta_runs_the_round_under_way_and_the_rounds_after_it_only_to_the_cap():
    # ROUNDS=auto's last minutes, the cap at 60 min: 2 min of the round under way, 10 of added rounds.
    assert within_cap(current_s=120, further_s=600, sweep_s=55 * 60, cap_s=60 * 60) == 120 + 180
    assert within_cap(current_s=120, further_s=60, sweep_s=55 * 60, cap_s=60 * 60) == 180
    # Past the cap the round under way still ends; no round starts after it, and no ETA goes negative.
    assert within_cap(current_s=240, further_s=600, sweep_s=61 * 60, cap_s=60 * 60) == 240
    assert within_cap(current_s=-5, further_s=0, sweep_s=0, cap_s=60) == 0


def test_options_come_from_sweep_json_and_the_command_line_overrides_them(monkeypatch):
    monkeypatch.setenv("CLIENT_CPUS", "none")
    chosen, run_id, _ = options.from_argv(["--apps", "php", "--quick", "--duration", "4"], "test")
    quick = context.preset("quick")["options"]
    assert chosen.selection.apps == ("php",) and chosen.presets == ("quick",) and run_id.endswith("-quick")
    assert chosen.plan.duration_s == 4 and chosen.plan.precision == quick["precision"] and chosen.pinning.client_cpus == "none"
    default, _, _ = options.from_argv([], "test")
    study = tuple(registry.set_members("study"))
    assert default.selection.apps == study and default.plan.duration_s == context.defaults()["duration_s"]
    assert default.as_manifest()["presets"] == [] and len(default.selection.cells) == len(study) * 4
    assert (default.plan.rounds, str(default.selection.control)) == (context.defaults()["rounds"], context.defaults()["aa_control"])
    assert (chosen.plan.rounds, chosen.selection.control) == (1, None), "the quick preset: one round, no A/A control"
    explicit, _, _ = options.from_argv(["--seed", "7", "--rounds", "5"], "test")
    assert (explicit.plan.seed, explicit.plan.rounds) == (7, 5) and default.plan.seed > 0, "a seed is drawn when none is given"
    assert default.plan.auto_rounds, "the default set's default run adds rounds where the noise is (default_set_rounds)"
    assert not explicit.plan.auto_rounds and not chosen.plan.auto_rounds, "a number of rounds, told or preset, is fixed"
    limits, _, _ = options.from_argv(["--max-other-pct", "100", "--max-steal-pct", "50"], "test")
    assert (limits.disturbance.max_other_pct, limits.disturbance.max_steal_pct) == (100, 50)
    assert (default.disturbance.max_other_pct, default.disturbance.max_steal_pct) == (context.defaults()["max_other_pct"],
                                                              context.defaults()["max_steal_pct"])


def test_the_default_sets_sweep_takes_turns_and_quick_study_sizes_and_other_sets_only_when_told_or_paired():
    default, _, _ = options.from_argv([], "test")
    assert (default.plan.turn_cycles, default.plan.turn_share) == (context.defaults()["default_set_turn_cycles"],
                                                                   context.defaults()["turn_share"])
    assert default.plan.turn_cycles > 0 and RunContext.of(("php",)).plan.turn_cycles == 0, "code-built: none"
    for argv in (["--quick"], ["--study", "--rates", "10,20"], ["--sizes", "1,10"], ["--set", "today"]):
        assert options.from_argv(argv, "test")[0].plan.turn_cycles == 0, argv
    assert default.plan.turn_step_s == context.defaults()["turn_step_s"] < default.plan.duration_s
    engines, _, _ = options.from_argv(["--set", "today", "--turn-pairs", "engines"], "test")
    assert engines.plan.turn_cycles == context.defaults()["default_set_turn_cycles"], "TURN_PAIRS asks for turns on any set"
    assert options.from_argv(["--quick", "--turn-pairs", "engines"], "test")[0].plan.turn_cycles == 0, "a preset's say"
    told, _, _ = options.from_argv(["--set", "today", "--turn-cycles", "4", "--turn-share", "0.5", "--turn-step", "2"],
                                   "test")
    assert (told.plan.turn_cycles, told.plan.turn_share, told.plan.turn_step_s) == (4, 0.5, 2)
    for wrong in (["--turn-cycles", "-1"], ["--turn-share", "1"], ["--turn-share", "0"], ["--turn-step", "0"]):
        with pytest.raises(SystemExit):
            options.from_argv(wrong, "test")


def test_an_unknown_engine_is_refused_with_the_registry_choices():
    with pytest.raises(SystemExit, match="unknown engines aria; the registry has myisam, innodb"):
        options.from_argv(["--engines", "aria"], "test")


def test_sizes_choose_the_payload_workload_at_each_count_and_its_profile_by_size():
    sized, _, _ = options.from_argv(["--apps", "php", "--sizes", "1,1000,16000"], "test")
    assert sized.selection.workloads == ("rows-1", "rows-1000", "rows-16000")
    assert [key.workload for key in sized.selection.cells] == ["rows-1", "rows-1000", "rows-16000"] * 2
    threshold = context.size_sweep()["large_profile_from"]
    assert context.profile_for(f"rows-{threshold - 1}") == context.profiles()["single"]
    assert context.profile_for(f"rows-{threshold}") == context.profiles()["large"]
    assert context.profile_for("single") == context.profiles()["single"]
    for wrong in ("0", "16001", "ten"):
        with pytest.raises(SystemExit, match="rows counts must be integers from 1 to 16,000"):
            options.from_argv(["--sizes", wrong], "test")
    with pytest.raises(SystemExit, match="unknown workloads rows-x"):
        options.from_argv(["--workloads", "rows-x"], "test")


def test_the_size_sweep_takes_its_counts_set_engines_and_rounds_from_sweep_json_unless_told():
    sizes = context.size_sweep()
    default, run_id, _ = options.from_argv(["--size-sweep"], "test")
    assert default.selection.workloads == tuple(f"rows-{count}" for count in sizes["counts"]["rows"]) and run_id.endswith("-sizes")
    assert default.selection.apps == tuple(registry.set_members(sizes["set"])) and default.selection.app_set == sizes["set"]
    assert default.selection.engines == tuple(sizes["engines"]) and default.plan.rounds == sizes["rounds"]
    told, _, _ = options.from_argv(["--size-sweep", "--sizes", "5", "--set", "study", "--engines", "myisam",
                                    "--rounds", "2"], "test")
    assert (told.selection.workloads, told.selection.apps, told.selection.engines, told.plan.rounds) == (
        ("rows-5",), tuple(registry.set_members("study")), ("myisam",), 2)


def test_an_echo_size_sweep_adds_get_quote_and_the_soap_baselines_and_keeps_each_kind_within_its_cap(capsys):
    sizes = context.size_sweep()
    echo, run_id, _ = options.from_argv(["--size-sweep", "--size-workload", "echo"], "test")
    assert echo.selection.workloads == (*(f"echo-{count}" for count in sizes["counts"]["echo"]), "quote")
    assert run_id.endswith("-sizes-echo")
    baselines = registry.set_members("soap-baselines")
    assert echo.selection.apps == (*registry.set_members("soap"), *baselines)
    cells = {(key.app, key.engine, key.workload) for key in echo.selection.cells}
    # The baselines answer getQuote only; no echo cell has an engine.
    assert {(app, "none", "quote") for app in baselines} <= cells
    assert not any(app in baselines and workload != "quote" for app, _, workload in cells)
    assert {engine for _, engine, _ in cells} == {"none"}
    assert len(cells) == len(registry.set_members("soap")) * (len(sizes["counts"]["echo"]) + 1) + len(baselines)
    named, _, _ = options.from_argv(["--size-workload", "list", "--apps", "soap-gsoap", "--sizes", "2,64"], "test")
    assert (named.selection.apps, named.selection.workloads) == (("soap-gsoap",), ("list-2", "list-64", "quote"))
    with pytest.raises(SystemExit, match="list counts must be integers from 1 to 64: not 65"):
        options.from_argv(["--size-workload", "list", "--sizes", "65"], "test")
    with pytest.raises(SystemExit):
        options.from_argv(["--size-workload", "quote"], "test")
    assert "invalid choice: 'quote'" in capsys.readouterr().err


def test_a_set_names_the_apps_apps_narrows_it_and_other_sets_run_one_round():
    assert registry.set_members("study") == ["php", "servlet", "pooled-servlet", "soap"]
    assert registry.set_members("all") == registry.apps()
    pooling, _, _ = options.from_argv(["--set", "pooling"], "test")
    assert pooling.selection.apps == tuple(registry.set_members("pooling")) and pooling.plan.rounds == 1
    assert pooling.as_manifest()["app_set"] == "pooling"
    narrowed, _, _ = options.from_argv(["--set", "pooling", "--apps", "php-persistent", "--rounds", "3"], "test")
    assert (narrowed.selection.apps, narrowed.plan.rounds) == (("php-persistent",), 3)
    anywhere, _, _ = options.from_argv(["--apps", "php-persistent"], "test")
    assert anywhere.selection.apps == ("php-persistent",) and anywhere.plan.rounds == context.defaults()["rounds"]
    with pytest.raises(SystemExit, match="soap not in set pooling"):
        options.from_argv(["--set", "pooling", "--apps", "soap"], "test")
    with pytest.raises(SystemExit):
        options.from_argv(["--set", "fastest"], "test")


@pytest.mark.parametrize("argv, message", [
    (["--set", "nope"], "argument --set: invalid choice: 'nope' (choose from 'study', 'pooling'"),
    (["--apps", "php,nope"], None),
    (["--duration", "-5"], "argument --duration: -5 is out of range: it must be above 0"),
    (["--duration", "0"], "argument --duration: 0 is out of range: it must be above 0"),
    (["--duration", "five"], "argument --duration: 'five' is not a number"),
    (["--precision", "2"], "argument --precision: 2 is out of range: it must be above 0 and below 1"),
    (["--rounds", "0"], "argument --rounds: 0 is out of range: it must be at least 1"),
    (["--rounds", "1.5"], "argument --rounds: '1.5' is not an integer"),
    (["--clients", "0"], "argument --clients: 0 is out of range: it must be at least 1"),
    (["--max-other-pct", "-1"], "argument --max-other-pct: -1 is out of range: it must be at least 0"),
    (["--seed", "-3"], "argument --seed: -3 is out of range: it must be at least 0"),
])
def test_a_bad_option_gets_one_line_naming_it_and_what_it_accepts(argv, message, capsys):
    with pytest.raises(SystemExit) as refused:
        options.from_argv(argv, "test")
    said = capsys.readouterr().err.strip().splitlines()
    if message is None:  # refused by from_argv itself: its message is the exit's
        assert str(refused.value) == "unknown apps nope; the registry has " + ", ".join(registry.apps())
    else:
        assert refused.value.code == 2 and len(said) == 1 and f": {message}" in said[0], said
        assert "Traceback" not in "".join(said)


def test_zero_is_a_limit_not_a_missing_option():
    strict, _, _ = options.from_argv(["--max-other-pct", "0", "--max-steal-pct", "0"], "test")
    assert (strict.disturbance.max_other_pct, strict.disturbance.max_steal_pct) == (0, 0)


def test_conn_chooses_close_or_keepalive_and_calls_must_fit_the_servers_keep_alive_limit(monkeypatch, capsys):
    default, _, _ = options.from_argv([], "test")
    assert (default.plan.connection, default.plan.keepalive) == ("close", False)
    kept, _, _ = options.from_argv(["--conn", "keepalive", "--calls", "50"], "test")
    assert (kept.plan.keepalive, kept.plan.calls) == (True, 50)
    assert (kept.as_manifest()["connection"], kept.as_manifest()["calls"]) == ("keepalive", 50)
    with pytest.raises(SystemExit):
        options.from_argv(["--conn", "pipelined"], "test")
    assert "invalid choice: 'pipelined' (choose from 'close', 'keepalive')" in capsys.readouterr().err
    monkeypatch.setenv("KEEPALIVE_REQUESTS", "40")
    with pytest.raises(SystemExit, match="CALLS=50 is more than the servers' KEEPALIVE_REQUESTS=40"):
        options.from_argv(["--conn", "keepalive", "--calls", "50"], "test")


def test_a_sweeps_eta_adds_the_later_rounds_warm_ups_and_bounds_them_by_the_cap():
    # Two more cells of round 3, one of an added round 4; cells of 100 s, a step of 10 s, 8 typical.
    walls, steps = [100.0], [10.0]
    assert sweep_eta([3, 3, 4], 3, walls, 8, steps, 60) == 200 + 100 + 60
    assert sweep_eta([3, 3, 4], 3, walls, 8, steps, 60, cap=(3500, 3600)) == 200 + 0
