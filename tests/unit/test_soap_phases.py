"""The SOAP engines' phase records (harness/measure/soap_phases.py) on records the engines wrote, the
report's table (harness/report/soap_phases.py) on known answers, and what a stock client is given."""
import argparse
import copy
import csv
from pathlib import Path

import pytest

from harness.measure import stock_client
from harness.measure.soap_phases import Sample, samples, summary
from harness.report.soap_phases import COLUMNS, series, summary_lines
from harness.results.chosen import Refused
from harness.results.store import tsv_text
from harness.run import soap_phases
from stack import echoes, targets
from stack.registry import Request

RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "soap-phases"


@pytest.mark.parametrize("server, web_application", [
    ("tomcat", "soap"), ("tomcat", "soap-cxf"), ("tomcat", "soap-axis2"), ("apache", "soap-php"),
    ("lighttpd", "soap-php"), ("gsoap", "soap-gsoap")])
def test_each_engines_record_reads_as_its_requests_phases(server, web_application):
    # Recorded with SOAP_PHASES=on: 5 single-row and 5 echo-1000 requests to each engine, in that order.
    found = samples((RECORDED / f"{server}-soap-phases.tsv").read_text(), web_application)
    assert len(found) == 10 and all(min(s.unmarshal_us, s.marshal_us) > 0 and s.logic_us >= 0 for s in found)
    single, echoed = found[:5], found[5:]
    # 1,000 structs take longer to un-marshal and to marshal than one row's request and reply.
    assert summary(echoed)["unmarshal_us"] > summary(single)["unmarshal_us"]
    assert summary(echoed)["marshal_us"] > summary(single)["marshal_us"]


def test_a_shared_tomcats_record_is_split_by_web_application_and_a_cut_line_left_out():
    text = "soap\t10.0\t20.0\t30.0\nsoap-cxf\t1.0\t2.0\t3.0\nsoap\t11.0\t21.0\t31.0\nsoap\t12.0\t2"
    assert samples(text, "soap") == [Sample(10.0, 20.0, 30.0), Sample(11.0, 21.0, 31.0)]
    assert samples(text, "soap-axis2") == []


def test_a_record_with_each_phases_bytes_reads_them_and_the_summary_gives_their_medians():
    text = ("soap\t10.0\t20.0\t30.0\t1000\t0\t5000\nsoap\t11.0\t21.0\t31.0\t3000\t8\t7000\n"
            "soap\t12.0\t22.0\t32.0\t2000\t16\t6000\nsoap\t13.0\t23.0\t33.0\t4000\n")  # the last one cut short
    found = samples(text, "soap")
    assert found[0] == Sample(10.0, 20.0, 30.0, 1000.0, 0.0, 5000.0) and len(found) == 3
    figures = summary(found)
    assert (figures["unmarshal_b"], figures["logic_b"], figures["marshal_b"]) == (2000.0, 8.0, 6000.0)
    # A record from before the engines counted bytes has none, and its summary no medians of them.
    assert "unmarshal_b" not in summary(samples("soap\t1.0\t2.0\t3.0\n", "soap"))


def test_the_summary_gives_each_phases_median_and_spread():
    found = [Sample(float(value), 2.0 * value, 1.0) for value in range(1, 12)]  # 1..11
    figures = summary(found)
    assert figures["samples"] == 11 and figures["unmarshal_us"] == 6.0 and figures["logic_us"] == 12.0
    assert (figures["unmarshal_p10_us"], figures["unmarshal_p90_us"]) == (2.0, 10.0)
    assert figures["total_us"] == 6.0 + 12.0 + 1.0
    assert summary([]) == {}


def rows_of(*entries):
    """soap-phases.tsv rows (as read back) from (app, workload, n, unmarshal, logic, marshal, round trip)."""
    rows = [{"app": app, "workload": kind, "n": n, "samples": 3, "unmarshal_us": u, "logic_us": l, "marshal_us": m,
             "total_us": u + l + m, "round_trip_us": trip} for app, kind, n, u, l, m, trip in entries]
    return list(csv.DictReader(tsv_text(COLUMNS, rows).splitlines(), delimiter="\t"))


def test_the_table_gives_each_engine_its_phases_by_n_and_points_to_infosys_like_for_like():
    rows = rows_of(("soap", "echo", 10, 400, 10, 300, 1000), ("soap", "echo", 1000, 24000, 50, 8000, 40000),
                   ("soap-cxf", "echo", 1000, 2000, 40, 2000, 5000), ("soap-axis2", "echo", 1000, 3000, 60, 2500, 8000),
                   ("soap", "rows", 10, 300, 900, 400, 2000))
    lines = summary_lines(rows, str.upper)
    assert "| SOAP | 0.40 / 0.01 / 0.30 (1.00) | 24.00 / 0.05 / 8.00 (40.00) |" in lines
    assert "| SOAP-CXF | - | 2.00 / 0.04 / 2.00 (5.00) |" in lines
    assert "### echo-N: echoStructs of N structs" in lines and "### rows-N: the first N rows by id" in lines, \
        "each kind titled by its registry entry"
    # The paper's ratios are set beside its own message and procedure only (make reproduce PAPER=infosys).
    assert not any("JiBX" in line for line in lines) and any("PAPER=infosys" in line for line in lines)
    assert series(rows, "echo")["soap"] == "10 0.4000 0.0100 0.3000\n1000 24.0000 0.0500 8.0000\n"
    assert summary_lines([], str) == []
    assert not any("Other work" in line for line in lines)


def test_a_workload_still_disturbed_after_its_redos_is_named_under_the_table():
    rows = rows_of(("soap", "echo", 10, 400, 10, 300, 1000), ("soap-cxf", "echo", 10, 200, 10, 100, 900))
    rows[1].update(redone="2", disturbed="other processes used 31.0 % of a CPU (> 10 %)")
    note = [line for line in summary_lines(rows, str.upper) if line.startswith("Other work")]
    assert note == ["Other work shared the lab's CPUs during these, still after their redos (their figures measured "
                    "the machine too): SOAP-CXF echo-10 (other processes used 31.0 % of a CPU (> 10 %))."]



def test_a_stock_client_is_given_the_echos_values_a_record_as_its_fields():
    employees = stock_client.arguments("employees", 2)
    assert [list(each) for each in employees] == [list(echoes.EMPLOYEE_FIELDS)] * 2
    assert [tuple(each.values()) for each in employees] == echoes.values("employees", 2), "the raw envelope's values"
    assert stock_client.arguments("ints", 3) == echoes.values("ints", 3)
    assert stock_client.arguments("image", 4) == echoes.image(4), "an image is its bytes, no list"
    assert "list" not in stock_client.kinds() and {"employees", "image"} <= set(stock_client.kinds())


def test_the_kinds_a_stock_client_sends_are_the_registrys():
    value = copy.deepcopy(targets.registry())
    value["echo_workloads"]["ints"]["stock_client"] = False
    with targets.given(value):
        assert "ints" not in stock_client.kinds() and "doubles" in stock_client.kinds()


def test_a_stock_client_is_refused_a_kind_it_does_not_send_before_any_server_is_touched():
    parser = argparse.ArgumentParser()
    soap_phases.add_arguments(parser)
    with pytest.raises(Refused, match="CLIENT=zeep sends the echoes .* not rows"):
        soap_phases.execute(parser.parse_args(["--client", "zeep", "--kinds", "rows,echo", "--apps", "soap"]))


def test_a_call_goes_as_one_message_its_body_counted_and_its_connection_closed_after():
    request = Request("POST", 18083, "/soap-gsoap/PlayerService", {"SOAPAction": '""'}, "<envelope>é</envelope>",
                      host="127.0.0.1")
    message = soap_phases.wire(request)
    head, _, body = message.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"POST /soap-gsoap/PlayerService HTTP/1.1"
    assert body == "<envelope>é</envelope>".encode() and f"Content-Length: {len(body)}".encode() in head
    assert b"Connection: close" in head and b"Host: 127.0.0.1:18083" in head
    bare = soap_phases.wire(Request("GET", 18080, "/php/players.php?count=1", host="127.0.0.1"))
    assert bare.endswith(b"\r\n\r\n") and b"Content-Length" not in bare
