"""A short real concurrency sweep (make concurrency-sweep) on the live stack: both connection modes,
a level above prefork's workers flagged and kept out of the peak, every figure traced to wrk's report,
and the run's page linking every window's report and profile."""
import re

import pytest

from harness.report.concurrency import KEPT_ALIVE, write_report
from harness.results.manifest import Manifest, problems
from harness.results.records import CellKey
from harness.results.store import RunFiles, read_tsv
from harness.run import concurrency
from tests.integration.test_html_report import links, unresolved
from tests.integration.test_sweep import short


@pytest.mark.timing
def test_a_short_concurrency_sweep_flags_the_level_above_the_cap_and_plots_both_modes(stack, tmp_path, monkeypatch):
    monkeypatch.setitem(concurrency.sweep_settings(), "windows", 2)
    monkeypatch.setitem(concurrency.sweep_settings(), "settle_windows", 0)
    workers = concurrency.registry.connection_cap("php")[0]
    ladder = (1, workers + 10)
    results = concurrency.run(short(apps=("php",), engines=("innodb",)), "levels", tmp_path, ("close", "keepalive"), ladder)
    assert [(result["app"], result["connection"]) for result in results] == [("php", "close"), ("php", "keepalive")]
    directory = tmp_path / "levels"
    for result in results:
        low, high = result["levels"]
        assert low["flags"] == [] and low["replies_per_s"] > 0 and 0 < low["p50_ms"] <= low["p99_ms"]
        assert any(f"cap of {workers} connections" in flag for flag in high["flags"])
        assert result["peak"] == 1, "a level above the cap is the configuration's, never the app's peak"
        for level in result["levels"]:
            assert len(level["raw"]) == 2 and level["windows"] == 2
            report = RunFiles(directory).cell(CellKey("php", "innodb", "single")) / level["raw"][0]
            assert report.read_text().startswith("$ wrk -t1 -c")
    closed, kept = [result["levels"][0]["windows_figures"][0]["command"] for result in results]
    assert "Connection: close" in closed and "Connection: close" not in kept
    rows = read_tsv(directory / "concurrency.tsv")
    assert [(row["connection"], row["connections"]) for row in rows] == [
        ("close", "1"), ("close", str(ladder[1])), ("keepalive", "1"), ("keepalive", str(ladder[1]))]
    manifest = Manifest.read(directory / "manifest.json")
    assert problems(manifest.data) == [] and manifest.data["concurrency"]["ladder"] == list(ladder)
    _, pdfs, front = write_report(directory)
    assert pdfs == [directory / "plots" / "concurrency-single.pdf"] and pdfs[0].stat().st_size > 1000
    # Both modes' pages of the PDF drawn on the run's page, and each of the 8 windows' report linked.
    assert unresolved(front, tmp_path) == []
    assert len([link for link in links(front) if link.startswith("figures/")]) == 2
    assert len([link for link in links(front) if "/raw/wrk-" in link]) == 8


def test_apache_bench_drives_the_sweep_and_names_the_server_that_would_not_keep_its_connections(stack, inferno,
                                                                                                tmp_path, monkeypatch):
    """ICWS'08's driver (ab -k, HTTP/1.0): Apache keeps PHP's connections; Tomcat closes Axis2's, whose
    answer has no length, so each of its requests pays for a connection. Each window keeps its servers'
    memory, and the level's profiled window says where their CPU went (ICWS'08's Figs. 9-13)."""
    monkeypatch.setitem(concurrency.sweep_settings(), "windows", 1)
    monkeypatch.setitem(concurrency.sweep_settings(), "settle_windows", 0)
    options = short(apps=("soap-php", "soap-axis2"), engines=("none",), workloads=("echo-10",), jit_warmup_cap_s=2)
    results = concurrency.run(options, "ab", tmp_path, ("keepalive",), (4,), concurrency.closed_loop("ab"),
                              profiling=True)
    shares = {result["app"]: result["levels"][0]["keepalive_share"] for result in results}
    # Apache closes a kept connection after its KEEPALIVE_REQUESTS'th request.
    assert shares["soap-php"] > KEPT_ALIVE and shares["soap-axis2"] == 0
    for result in results:
        [level] = result["levels"]
        assert result["driver"] == "ab" and level["replies_per_s"] > 0 and level["p99_ms"] >= level["p50_ms"]
        report = RunFiles(tmp_path / "ab").cell(CellKey(result["app"], "none", "echo-10")) / level["raw"][0]
        assert report.name == "ab-keepalive-c0004-w1.txt" and report.read_text().startswith("$ ab -q -r -l -c 4 ")
        profile = level["profile"]
        assert profile["breakdown"]["samples"] > 100 and (report.parent.parent / profile["folder"] / "flame.svg").exists()
    [php] = [result["levels"][0] for result in results if result["app"] == "soap-php"]
    assert php["windows_figures"][0]["servers"]["apache_pss_mb"] > 0
    # libphp8.2.so, libxml2.so.2.9.14: their names without version
    assert {"libphp", "libxml", "kernel"} <= {re.sub(r"[\d.]*\.so.*$", "", name) for name in php["profile"]["objects"]["apache"]}
    markdown, _, front = write_report(tmp_path / "ab")
    assert unresolved(front, tmp_path) == []
    assert len([link for link in links(front) if link.endswith("/flame.svg")]) == 2
    summary = markdown.read_text()
    assert "ab, closed loop" in summary and "- soap-axis2, none, echo-10: 0%–0% of answered requests" in summary
    assert "- soap-php" not in summary
    assert Manifest.read(tmp_path / "ab" / "manifest.json").data["concurrency"]["driver"] == "ab"
