"""ICWS'08's CPU breakdowns (Figs. 9-13) and memory footprint (§4.5.3) beside ours (harness/report/
paper_profiles.py, `make reproduce`), on a recorded profiled round: Apache Bench at 100 kept-alive
connections, echoStruct(10) on PHP+Lighttpd, PHP+Apache, gSOAP and Axis2/Java (Intel Xeon, 2 cores),
each level's windows with their servers' memory and one more window under perf."""
import json

import pytest

from harness.report import paper_declaration, paper_figures, paper_profiles
from harness.report.paper_declaration import figure_by_id
from harness.report.series import aligned_tables
from harness.results.chosen import Refused
from harness.results.store import read_tsv
from harness.run import paper_runs
from stack.settings import ROOT

FIXTURES = ROOT / "tests" / "fixtures" / "reproduce"
# The apps' titles and servers of the profiled sweep's folder (its manifest not kept: today's registry).
RECORDED_REGISTRY = paper_runs.recorded_registry(FIXTURES, "fig-9-13")
APPS = ["soap-php-lighttpd", "soap-php", "soap-gsoap", "soap-axis2"]


def icws08():
    declaration, values = paper_runs.read_paper("icws08")
    return declaration, values, read_tsv(paper_runs.PAPERS / declaration["breakdowns"])


def measured():
    rounds = [(1, json.loads((FIXTURES / "round-1" / folder / "concurrency.json").read_text()))
              for folder in ("fig-3", "fig-9-13")]
    return paper_figures.measured_levels(rounds)


def levels_of(declaration, figure_id):
    chosen = figure_by_id(declaration, figure_id)
    return chosen, paper_profiles.app_levels(chosen, *paper_runs.figure_cells(declaration, chosen), measured())


def test_a_profiled_level_serves_a_breakdown_and_any_level_with_memory_a_footprint():
    declaration, _, _ = icws08()
    found = measured()[("soap-php", "echo-10", 100)]
    assert len(found) == 2  # Fig. 3's recorded sweep (before memory was kept) and the profiled one
    breakdown, memory, fig4 = (figure_by_id(declaration, name) for name in ("9-13", "4.5.3", "4"))
    assert ["profile" in level for level in paper_figures.round_levels(breakdown, found)] == [True]
    assert paper_figures.round_levels(memory, found) == paper_figures.round_levels(breakdown, found)
    # A figure of replies takes the round's first level: one a round, whatever else measured it.
    assert paper_figures.round_levels(fig4, found) == found[:1]


def test_a_breakdown_is_planned_apart_from_the_figures_that_measured_its_cells_without_perf(tmp_path):
    declaration, _, _ = icws08()
    figures = [figure_by_id(declaration, name) for name in ("4", "9-13", "4.5.3")]
    steps, _ = paper_runs.plan(declaration, figures, 1, tmp_path)
    assert [(each["id"], sorted(apps)) for _, each, apps in steps] == [("4", sorted(APPS)), ("9-13", sorted(APPS))]


def test_the_stacked_bars_set_the_paper_s_bar_above_ours_per_configuration():
    declaration, _, breakdowns = icws08()
    chosen, levels = levels_of(declaration, "9-13")
    ours = {app: paper_profiles.pooled(found, paper_profiles.covered(chosen, app, RECORDED_REGISTRY)) for app, found in levels.items()}
    header, *rows = paper_profiles.breakdown_bars(chosen, breakdowns, ours, RECORDED_REGISTRY).splitlines()
    labels = [row.split("\t")[0] for row in rows]
    assert labels == ['"PHP+Lighttpd: the paper, Fig. 10"', '"PHP+Lighttpd: ours"', '"PHP+Apache: the paper, Fig. 11"',
                      '"PHP+Apache: ours"', '"Axis2 C: the paper, Fig. 12"', '"Axis2 C: ours"',
                      '"Axis2 Java: the paper, Fig. 13"', '"Axis2 Java: ours"']
    components = [name.strip('"') for name in header.split("\t")[1:]]
    for row in rows:
        shares = dict(zip(components, map(float, row.split("\t")[1:])))
        assert sum(shares.values()) == pytest.approx(100, abs=2.5)  # Fig. 12's labels add up to 98
    paper_php = dict(zip(components, map(float, rows[2].split("\t")[1:])))
    assert paper_php["language runtime"] == 46 and paper_php["web server"] == 18


def test_php_lighttpd_s_components_are_its_php_pool_s_as_the_paper_s_fig_10_is_the_php_process_s():
    declaration, _, _ = icws08()
    chosen, levels = levels_of(declaration, "9-13")
    assert paper_profiles.covered(chosen, "soap-php-lighttpd", RECORDED_REGISTRY) == ["php-fpm-lighttpd"]
    assert paper_profiles.covered(chosen, "soap-php", RECORDED_REGISTRY) == ["apache"]
    pool_only = paper_profiles.pooled(levels["soap-php-lighttpd"], ["php-fpm-lighttpd"])
    both = paper_profiles.pooled(levels["soap-php-lighttpd"], ["php-fpm-lighttpd", "lighttpd"])
    assert 0 < sum(pool_only["components"].values()) < sum(both["components"].values())
    assert pool_only["by_server"] == both["by_server"] and both["rounds"] == 1


def test_the_text_gives_the_split_by_process_each_server_s_objects_and_the_paper_s_parts_with_lines():
    declaration, _, breakdowns = icws08()
    chosen, levels = levels_of(declaration, "9-13")
    ours = {app: paper_profiles.pooled(found, paper_profiles.covered(chosen, app, RECORDED_REGISTRY)) for app, found in levels.items()}
    text = "\n".join(paper_profiles.breakdown_lines(chosen, breakdowns, ours, RECORDED_REGISTRY))
    assert "the paper (Fig. 9, line 1031): php 84.58 %, lighttpd 13.16 %, others 2.26 %" in text
    assert "libphp5.so 46 %, libc-2.6.so 21 %" in text and "(line 1044)" in text
    assert "JIT-compiled Java" in text and "libxml2.so.2.9.14" in text
    assert "components over php-fpm-lighttpd only" in text


def test_the_footprint_has_a_row_per_server_of_each_configuration_and_the_paper_s_figures():
    declaration, values, _ = icws08()
    chosen, levels = levels_of(declaration, "4.5.3")
    lines = paper_profiles.memory_lines(chosen, values, levels, RECORDED_REGISTRY)
    rows = {tuple(cell.strip() for cell in line.split("|")[1:3]): line for line in lines[2:] if line.startswith("| ")}
    assert set(rows) == {("PHP+Lighttpd", "Lighttpd (PHP-FPM)"), ("PHP+Lighttpd", "PHP-FPM (Lighttpd's)"),
                         ("PHP+Apache", "Apache"), ("Axis2 C", "gSOAP"), ("Axis2 Java", "Tomcat")}
    pool = [cell.strip() for cell in rows[("PHP+Lighttpd", "PHP-FPM (Lighttpd's)")].split("|")[3:9]]
    assert pool[0] == "17" and pool[4] == "-"  # 16 workers and the master; no JVM heap
    assert float(pool[2]) == pytest.approx(float(pool[1]) / 17, abs=0.05)
    java = [cell.strip() for cell in rows[("Axis2 Java", "Tomcat")].split("|")[3:9]]
    assert java[0] == "1" and float(java[4]) > 0  # the JVM's heap after its last collection
    assert lines[-1] == ("The paper: PHP+Lighttpd 5.5 MB per process (line 959); PHP+Lighttpd 90.4 MB (line 961); "
                         "Axis2 Java 62.1 MB (line 967).")


@pytest.mark.parametrize("change, named", [
    (lambda fig: fig["options"].pop("profile"), "a breakdown, and only a breakdown, takes options.profile"),
    (lambda fig: fig.update(x="items"), "a breakdown, and only a breakdown"),
])
def test_a_breakdown_must_profile_and_nothing_else_may(change, named):
    declaration, _, _ = icws08()
    declaration = json.loads(json.dumps(declaration))
    change(figure_by_id(declaration, "9-13"))
    with pytest.raises(Refused, match=named):
        paper_declaration.checked(declaration, "icws08.json")


def test_a_table_on_a_text_page_lines_up():
    lines = aligned_tables(["intro", "| a | bb |", "|---|---:|", "| ccc | d |", "after"])
    assert lines == ["intro", "a    bb", "---  --", "ccc  d", "after"]
