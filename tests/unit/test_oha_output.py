"""oha's reports judged by the sweep's rules, on two real runs against the PHP single-row MyISAM
cell (sweep figure 1,832 req/s): 7,500 requests at 1,500 req/s (all answered) and 11,000 at
2,200 req/s (1,583 timed out)."""
import json
from pathlib import Path

from harness.oha_output import figures
from harness.results.records import FAIL, PASS
from harness.verdict import issue_rate, judge

FIXTURES = Path(__file__).parent.parent / "fixtures" / "oha"


def report(name):
    return json.loads((FIXTURES / name).read_text())


def test_a_run_below_saturation_passes_with_its_percentiles():
    below = figures(report("php-myisam-single-1500.json"), offered=1500, planned=7500)
    assert (below["replies"], below["status_2xx"], below["errors_total"]) == (7500, 7500, 0)
    assert round(below["reply_rate"]) == 1500
    assert (below["p50_ms"], below["p99_ms"]) == (13.44, 68.63)
    assert judge(below, 1500, 2, 7500)[0] == PASS


def test_a_run_above_saturation_fails_on_its_timeouts_not_as_a_slow_client():
    above = figures(report("php-myisam-single-2200.json"), offered=2200, planned=11000)
    assert (above["replies"], above["client_timo"], above["connections"]) == (9417, 1583, 11000)
    # 11,000 requests sent in 6.07 s less the 2 s timeout tail: oha kept its schedule.
    assert issue_rate(above, 2) >= 0.98 * 2200
    verdict, reason = judge(above, 2200, 2, 11000)
    assert verdict == FAIL and "1583 errors" in reason and "reply rate 1883.4" in reason
