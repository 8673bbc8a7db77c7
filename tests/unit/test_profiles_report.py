"""How the report shows the CPU profiles (harness/report/profiles.py): the top components in words,
profile.tsv's rows, what makes a breakdown doubtful, what profiling cost, ICWS'08's breakdown beside
ours and the stacked bars' data. Pure."""
from harness.report import profiles
from harness.report.tables import bottleneck_text
from harness.results.records import CellKey
from stack import registry


def result(components, servers, measured=10.0, rate=1000.0, overhead=None):
    seconds = round(sum(components.values()), 4)
    found = {"rate": rate, "verdict": "pass", "measured_cpu_s": measured,
             "profiled_over_measured": round(sum(sum(parts.values()) for name, parts in servers.items()
                                                 if name != "softirq") / measured, 3),
             "breakdown": {"seconds": seconds, "components": components, "servers": servers, "samples": 1000,
                           "outside_s": 0.1, "servers_s": seconds}}
    if overhead:
        found["overhead"] = overhead
    return found


TOMCAT = result({"gc": 2.1, "kernel-network": 1.8, "db-driver": 0.9, "db-server": 2.0, "web-server": 3.2},
                {"tomcat": {"gc": 2.1, "kernel-network": 1.8, "db-driver": 0.9, "web-server": 3.2},
                 "mariadb": {"db-server": 2.0}})


def title(app):
    return {"pooled-servlet": "Pooled servlet", "soap-php": "PHP SOAP", "soap-axis2": "Axis2"}.get(app, app)


def test_the_top_components_are_named_with_the_servers_that_took_most():
    assert profiles.top_text(TOMCAT, registry.server_title) == ("Tomcat 80 %, mariadbd 20 %: web server 32 %, GC 21 %, "
                                         "database server 20 %")


def test_a_row_has_every_components_share_in_percent():
    row = profiles.row(CellKey("pooled-servlet", "innodb", "single"), TOMCAT, registry.server_title)
    assert (row["app"], row["gc"], row["web-server"], row["other"], row["xml"]) == (
        "pooled-servlet", 21.0, 32.0, 0.0, 0.0)
    assert row["profiled_over_measured"] == 1.0 and row["profiled_cpu_s"] == 10.0


def test_a_profile_off_the_measured_cpu_or_mostly_unclassified_is_doubtful():
    assert profiles.trouble(TOMCAT) is None
    off = result({"web-server": 9.0}, {"tomcat": {"web-server": 9.0}}, measured=10.0)
    assert profiles.trouble(off) == "profiled / measured CPU 0.9"
    unknown = result({"web-server": 8.0, "other": 2.0}, {"tomcat": {"web-server": 8.0, "other": 2.0}})
    assert profiles.trouble(unknown) == "20 % unclassified"


def test_the_bottleneck_column_adds_the_profiles_top_components():
    row = {"app": "pooled-servlet", "engine": "innodb", "workload": "single", "bottleneck": "servers' CPU",
           "bottleneck_why": "CPU 98 %"}
    assert bottleneck_text(row) == "servers' CPU: CPU 98 %"
    assert bottleneck_text(row, {"pooled-servlet/innodb/single": TOMCAT}, registry.server_title) == (
        "servers' CPU: CPU 98 %; profile: Tomcat 80 %, mariadbd 20 %: web server 32 %, GC 21 %, database server 20 %")


def pair(without, with_):
    return {"without": {"cpu_us_per_reply": without, "reply_rate": 990.0, "verdict": "pass"},
            "with": {"cpu_us_per_reply": with_, "reply_rate": 985.0, "verdict": "pass"}}


def test_the_overhead_is_the_median_ratio_of_cpu_per_reply_with_perf_over_without():
    rows = profiles.overhead_rows({"php/innodb/single": [pair(500.0, 510.0), pair(500.0, 505.0), pair(400.0, 412.0)]})
    assert [row["ratio"] for row in rows] == [1.02, 1.01, 1.03]
    assert profiles.overhead_summary(rows) == {"php/innodb/single": (1.02, 1.01, 1.03, 3)}


def test_icws08s_breakdown_stands_beside_ours_at_echo_10_only():
    php = result({"runtime": 5.0, "xml": 2.0, "libc": 1.0, "web-server": 2.0},
                 {"apache": {"runtime": 5.0, "xml": 2.0, "libc": 1.0, "web-server": 2.0}})
    assert profiles.icws_lines({"soap-php/none/single": php}, title) == []
    lines = profiles.icws_lines({"soap-php/none/echo-10": php}, title)
    assert "PHP SOAP, beside ICWS'08's PHP 5.2.5 + Apache 2.0.63 (mod_php), Fig. 11:" in lines
    assert "| language runtime | 46 | 50 |" in lines
    assert "| XML parsing and serialization | 12 | 20 |" in lines
    assert "| kernel network (TCP, softirq) | 2 | 0 |" in lines


def test_the_summary_section_lists_each_profiled_cell_and_the_overhead():
    profiled = {"pooled-servlet/innodb/single": {**TOMCAT, "overhead": [pair(100.0, 101.0)]},
                "php/innodb/single": {"not_profiled": "client-limited: no saturation rate"}}
    text = "\n".join(profiles.summary_lines(profiled, title))
    assert "| Pooled servlet, innodb, single row | 1000 | 1.0 |" in text
    assert "php/innodb" not in text
    assert "- pooled-servlet/innodb/single: 1.01 [1.01, 1.01] over 1 pairs" in text
    assert profiles.summary_lines({}, title) == []


def test_the_bars_have_a_column_per_component_and_a_row_per_profiled_cell():
    lines = profiles.bars_data({"pooled-servlet/innodb/single": TOMCAT}, title).splitlines()
    assert lines[0].split("\t")[1:3] == ['"kernel network (TCP, softirq)"', '"kernel, other"']
    label, *values = lines[1].split("\t")
    assert label == '"Pooled servlet I single row"' and len(values) == len(profiles.rules().components)
    assert values[0] == "18.0" and sum(map(float, values)) == 100.0
