"""The write-share curve in a run's summary and figure (harness/report/write_share.py): each app's
engines against the share of its requests that write. On the kept run write-share-xeon-20261206
(Intel Xeon; experiments/write-share.json for PHP, the servlet and the pooled servlet: mixed-0, 1,
10, 50 and 100 on both engines, 3 rounds, each app's engines by turns at every share)."""
from dataclasses import replace

from harness.report import turns, write_share
from harness.report.tables import study_figures, summary_rows
from harness.report.view import View
from harness.results.store import load_run
from stack.settings import ROOT

RUN = load_run(ROOT / "reference-runs" / "write-share-xeon-20261206")
APPS = ["php", "servlet", "pooled-servlet"]
SHARES = [0, 1, 10, 50, 100]


def rows_of(run):
    return summary_rows(View(run), study_figures())


def test_the_curve_holds_each_apps_engines_at_every_share_of_the_mix():
    found = write_share.curves(rows_of(RUN))
    assert list(found) == [("update", "single")], "mixed-P mixes update among single-row reads"
    apps = found[("update", "single")]
    assert sorted(apps) == sorted(APPS)
    for engines in apps.values():
        assert sorted(engines) == ["innodb", "myisam"]
        assert write_share.shares_of(engines) == SHARES
        assert engines["myisam"][10]["workload"] == "mixed-10"


def test_an_app_at_one_share_makes_no_curve():
    one = [row for row in rows_of(RUN) if row["workload"] == "mixed-10"]
    assert write_share.curves(one) == {}
    study4 = load_run(ROOT / "reference-runs" / "writes-study4-epyc-20261204")
    assert write_share.write_share_lines(View(study4), rows_of(study4)) == [], "update and mixed-10: one share each"


def test_each_share_sets_the_engines_by_turns_with_holms_p_and_says_where_each_is_cheaper():
    view, judged = View(RUN), turns.judged_ratios(RUN)
    lines = write_share.write_share_lines(view, rows_of(RUN))
    assert lines[0] == "## The write-share curve"
    for app in APPS:
        heading = lines.index(f"### {view.title(app)}: update among single")
        table = lines[heading + 4:heading + 4 + len(SHARES)]
        assert [line.split(" | ")[0] for line in table] == [f"| {share} %" for share in SHARES]
        for share, line in zip(SHARES, table):
            each = judged[(f"{app}/myisam/mixed-{share}", f"{app}/innodb/mixed-{share}")]
            assert line.endswith(f" | {write_share.judged_words(each)} |")
            assert ("decided" if each.decided else "not resolved") in line
        verdict = next(line for line in lines if line.startswith(f"- {view.title(app)}: "))
        behind = [share for share in SHARES if (each := judged[(f"{app}/myisam/mixed-{share}",
                                                                f"{app}/innodb/mixed-{share}")]).decided
                  and each.ratio.estimate > 1]
        if behind:
            assert f"MyISAM cheaper a reply (InnoDB behind) at {', '.join(f'{s} %' for s in behind)}" in verdict


def test_the_figures_data_has_a_line_per_share_at_its_place_and_nan_where_a_cell_is_missing():
    view, judged = View(RUN), turns.judged_ratios(RUN)
    engines = write_share.curves(rows_of(RUN))[("update", "single")]["php"]
    text = write_share.series_text(view, engines, "php", ("myisam", "innodb"), judged, SHARES)
    lines = text.splitlines()
    assert lines[0].startswith("# place\tshare\tmyisam_rps") and len(lines) == 1 + len(SHARES)
    first = lines[1].split("\t")
    assert first[:2] == ["0", "0"] and float(first[2]) == float(engines["myisam"][0]["saturation_rps"])
    ratio = judged[("php/myisam/mixed-0", "php/innodb/mixed-0")].ratio
    assert float(first[8]) == float(f"{ratio.estimate:g}")
    gapped = {**engines, "innodb": {share: row for share, row in engines["innodb"].items() if share != 50}}
    fifty = write_share.series_text(view, gapped, "php", ("myisam", "innodb"), judged, SHARES).splitlines()[4].split("\t")
    assert fifty[:2] == ["3", "50"] and fifty[5:8] == ["NaN"] * 3, "its place kept, InnoDB's figure missing"


def test_a_run_without_turns_gives_the_curve_with_no_engines_verdict():
    quiet = replace(RUN, turns=[])
    lines = write_share.write_share_lines(View(quiet), rows_of(quiet))
    assert any(line.endswith(" | - |") for line in lines if line.startswith("| 10 %"))
    assert "- PHP (Apache + mod_php): no engines by turns." in lines
