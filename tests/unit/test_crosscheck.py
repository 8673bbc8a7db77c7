"""make crosscheck's pure parts: when the wrk ladder stops, how well a run agrees with wrk, when oha
confirms a point, and by which rules."""
from harness.results import store
from harness.results.records import CLIENT_LIMITED, DISTURBED, FAIL, PASS
from harness.run.context import Plan, RunContext
from harness.run.crosscheck import agreement, oha_agrees
from harness.run.planner import ladder_done
from stack.settings import ROOT


def test_the_ladder_goes_on_while_it_climbs_and_stops_after_two_levels_well_below_the_best():
    assert not ladder_done({1: 400.0, 2: 800.0}, drop=0.1)
    assert not ladder_done({1: 400.0, 2: 800.0, 4: 1500.0, 8: 1450.0}, drop=0.1)
    assert not ladder_done({1: 400.0, 2: 800.0, 4: 1500.0, 8: 1300.0, 16: 1460.0}, drop=0.1)
    assert ladder_done({1: 400.0, 2: 800.0, 4: 1500.0, 8: 1300.0, 16: 1200.0}, drop=0.1)


def test_agreement_is_the_median_and_the_lowest_ratio():
    rows = [{"sweep_over_wrk": 0.81}, {"sweep_over_wrk": 1.02}, {"sweep_over_wrk": 0.88}, {"sweep_over_wrk": None}]
    assert agreement(rows) == (0.88, 0.81)
    assert agreement([]) == (None, None)


def test_oha_confirms_a_point_only_when_the_rate_below_passes_and_the_rate_above_does_not():
    assert oha_agrees(PASS, FAIL) is True
    assert oha_agrees(PASS, PASS) is False
    assert oha_agrees(FAIL, FAIL) is False
    assert oha_agrees(PASS, CLIENT_LIMITED) is None
    assert oha_agrees(DISTURBED, FAIL) is None


def test_oha_is_judged_by_the_options_the_run_recorded():
    manifest = store.load_run(ROOT / "tests" / "fixtures" / "results" / "full6").manifest
    recorded = RunContext.recorded(manifest.options)
    # full6 ran 6 s steps (today's default is 5) and predates fd_budget (today's is used).
    assert recorded.plan.duration_s == manifest.options["duration_s"] == 6
    assert "fd_budget" not in manifest.options and recorded.plan.fd_budget == Plan().fd_budget
    assert recorded.thresholds.min_reply_ratio == manifest.options["thresholds"]["min_reply_ratio"]
    assert recorded.selection.apps == tuple(manifest.options["apps"])
    assert recorded.pinning.client_cpus == manifest.options["client_cpus"]
