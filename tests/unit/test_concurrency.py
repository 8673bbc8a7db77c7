"""make concurrency-sweep's pure parts: a level's figures from its windows, what flags a level, each
app's peak and knee, and the summary."""
import json

from harness.judge.concurrency import Limits, knee, level_figures, level_flags, peak
from harness.report.concurrency import comparison_markdown, level_rows, series_text, summary_markdown
from harness.results.manifest import Manifest
from harness.run.window import server_figures
from stack import registry, settings

LIMITS = Limits(client_cpu_share=0.9, error_share=0.01, knee_factor=2)


def window(rate, p99, cpu_s=0.5, seconds=2.0, errors=0, requests=1000, non2xx=0):
    return {"replies_per_s": rate, "p50_ms": p99 / 4, "p90_ms": p99 / 2, "p99_ms": p99, "client_cpu_s": cpu_s,
            "seconds": seconds, "error_count": errors, "requests": requests, "non2xx": non2xx}


def test_a_level_is_the_median_of_its_windows_with_the_worst_client_share_and_all_failures():
    level = level_figures([window(1000, 9.0), window(1300, 3.0, cpu_s=1.9), window(1100, 4.0, errors=30)])
    assert level["replies_per_s"] == 1100 and level["p99_ms"] == 4.0 and level["p50_ms"] == 1.0
    assert level["client_cpu_share"] == 0.95
    assert level["error_share"] == round(30 / 3030, 4)


def test_a_level_is_flagged_by_the_client_the_cap_errors_and_other_work_and_not_otherwise():
    clean = level_figures([window(1000, 4.0)])
    assert level_flags(clean, 64, (150, "prefork's workers (APACHE_WORKERS)"), LIMITS) == []
    assert level_flags(clean, 150, (150, "prefork"), LIMITS) == []  # at the cap, not above it
    above = level_flags(clean, 256, (150, "prefork's workers (APACHE_WORKERS)"), LIMITS)
    assert len(above) == 1 and "cap of 150" in above[0]
    busy = level_flags(level_figures([window(1000, 4.0, cpu_s=1.85)]), 8, None, LIMITS)
    assert len(busy) == 1 and "client ran out" in busy[0]
    failing = level_flags(level_figures([window(1000, 4.0, non2xx=20)]), 8, None, LIMITS)
    assert len(failing) == 1 and "failed" in failing[0]
    assert level_flags(clean, 8, None, LIMITS, disturbed="other processes used 30 %") == [
        "disturbed: other processes used 30 %"]


def levels(*rows):
    return [{"connections": connections, "replies_per_s": rate, "p99_ms": p99, "flags": flags}
            for connections, rate, p99, flags in rows]


def test_the_peak_is_the_best_unflagged_level_and_the_knee_the_first_whose_p99_doubles_the_lowest():
    ladder = levels((1, 500, 2.0, []), (2, 900, 2.5, []), (4, 1400, 3.9, []), (8, 1500, 4.5, []),
                    (16, 1450, 9.0, []), (256, 1900, 80.0, ["above the server's cap"]))
    assert peak(ladder) == 8  # the capped level's higher figure is the configuration's, not the app's
    assert knee(ladder, 2) == 8  # 4.5 > 2 x 2.0; 3.9 is not
    assert knee(ladder, 5) is None


def test_no_knee_without_a_clean_lowest_level_and_no_peak_without_a_clean_level():
    assert knee(levels((1, 500, 2.0, ["disturbed: x"]), (2, 900, 9.0, [])), 2) is None
    assert peak(levels((1, 500, 2.0, ["disturbed: x"]))) is None


def test_the_plot_data_holds_four_blocks_clean_flagged_peak_knee():
    ladder = [{**level, "p50_ms": 1.0, "raw": [f"raw/wrk-c{level['connections']}-w1.txt"]}
              for level in levels((1, 500, 2.0, []), (2, 900, 5.0, []), (4, 800, 6.0, ["the client ran out"]))]
    blocks = series_text(ladder, peak=2, knee=2).split("\n\n\n")
    assert [block.count("\n") + 1 for block in blocks[:3]] == [2, 1, 1]
    assert blocks[1].startswith("4\t800\t1\t6\traw/wrk-c4-w1.txt")
    assert blocks[2] == blocks[3].rstrip("\n") == "2\t900\t1\t5\traw/wrk-c2-w1.txt"
    assert series_text(ladder[:1], peak=None, knee=None).split("\n\n\n")[2] == "NaN", "gnuplot counts it as a block"


def test_the_servers_that_hold_a_worker_per_connection_declare_their_cap():
    assert registry.connection_cap("php")[0] == settings.int_knob("APACHE_WORKERS")
    assert registry.connection_cap("servlet")[0] == settings.int_knob("TOMCAT_MAX_CONNECTIONS")
    assert registry.connection_cap("soap-gsoap")[0] == settings.int_knob("GSOAP_THREADS")
    assert registry.connection_cap("soap-php-lighttpd") is None  # Lighttpd's event loop holds no worker per connection


def test_the_summary_names_each_modes_peak_knee_and_flagged_levels():
    ladder = [{**level, "p50_ms": 1.0, "raw": ["raw/x.txt"]} for level in levels(
        (1, 500, 2.0, []), (2, 900, 5.0, []), (256, 800, 60.0, ["above the server's cap of 150 connections, prefork: wait"]),
        (512, 700, 90.0, ["above the server's cap of 150 connections, prefork: wait", "disturbed: other processes"]))]
    result = {"workload": "single", "app": "php", "engine": "innodb", "connection": "keepalive", "levels": ladder,
              "peak": 2, "knee": 2}
    text = summary_markdown("c1", {"cpu_model": "AMD EPYC", "cores": 2}, [result])
    assert "AMD EPYC, 2 cores" in text
    assert ("| single | php | innodb | keepalive | 2 | 900 | 5.0 | 2 | 5.0 | 256, 512 (above the server's cap of 150 "
            "connections), 512 (disturbed) |") in text


RECORDED = settings.ROOT / "tests" / "fixtures" / "reproduce"


def recorded_round(number):
    return json.loads((RECORDED / f"round-{number}" / "fig-3" / "concurrency.json").read_text())


def test_two_concurrency_sweeps_are_set_side_by_side_level_by_level():
    first, second = recorded_round(1), recorded_round(2)
    manifest = Manifest.read(RECORDED / "round-1" / "fig-3" / "manifest.json")
    rows = level_rows(first, second, manifest)
    assert len(rows) == len(first) == 12
    row = rows[0]
    assert row["cell"] == "soap, no database, quote, kept alive" and row["connections"] == 100
    assert row["second_over_first"] == second[0]["levels"][0]["replies_per_s"] / first[0]["levels"][0]["replies_per_s"]
    windows = [[window["replies_per_s"] for window in run[0]["levels"][0]["windows_figures"]] for run in (first, second)]
    assert row["overlap"] == (min(windows[0]) <= max(windows[1]) and min(windows[1]) <= max(windows[0]))
    # A level either run flagged carries its flags (gSOAP's 100 connections pass its cap of 16).
    assert [row["flags"] != [] for row in rows if row["cell"].startswith("soap-gsoap")] == [True, True]
    # A level one run did not measure, or answered nothing in, has no row.
    assert level_rows(first, second[:1], manifest) == rows[:1]
    text = comparison_markdown("r1", "r2", rows)
    assert text.startswith("# Concurrency sweep r1 against r2")
    assert f"| {row['cell']} | 100 | {row['first']['replies_per_s']:,.0f} ({min(windows[0]):,.0f}–{max(windows[0]):,.0f}) |" in text
    assert len([line for line in text.splitlines() if line.startswith("| soap")]) == 12


def test_a_window_keeps_its_apps_servers_cpu_wake_ups_and_memory_and_no_other_servers():
    monitored = {"tomcat_cpu_s": 1.05, "tomcat_vcsw": 21034, "tomcat_ivcsw": 310, "tomcat_rss_peak_mb": 900.5,
                 "mariadb_cpu_s": 0.4, "mariadb_vcsw": 9000, "client_vcsw": 5, "replies": 12540}
    assert server_figures(monitored, ["tomcat"]) == {
        "tomcat_cpu_s": 1.05, "tomcat_vcsw": 21034, "tomcat_ivcsw": 310, "tomcat_rss_peak_mb": 900.5}
