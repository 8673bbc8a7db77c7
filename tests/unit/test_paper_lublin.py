"""The Lublin paper's tables (`make reproduce PAPER=lublin`): a rate of items a second from an engine's
phase, a figure per table and type drawn from one shared run, and a recorded run (ten calls per type
and size, 10 to 16,000 items, five SOAP engines, AMD EPYC) set beside the paper's ratios of gSOAP
over Axis2/C, from 10 to 5,000 items only."""
import json

import pytest

from harness.report import paper_declaration, paper_figures, paper_markdown, paper_pages, paper_phases
from harness.report.paper_declaration import figure_by_id
from harness.results.chosen import Refused
from harness.results.store import read_tsv
from harness.run import paper_runs
from stack.settings import ROOT
from tests.recorded_papers import drawn

RECORDED = ROOT / "tests" / "fixtures" / "reproduce-lublin"
CALLS = RECORDED / "round-1" / "fig-1-int" / "soap-phases-calls.tsv"
PACKET_CALLS = RECORDED / "round-1" / "fig-5" / "soap-phases-calls.tsv"
IMAGE_CALLS = RECORDED / "round-1" / "fig-1-mime" / "soap-phases-calls.tsv"
VOID_CALLS = RECORDED / "round-1" / "fig-1-void" / "soap-phases-calls.tsv"


def lublin():
    return paper_runs.read_paper("lublin")


def test_a_rate_is_the_items_over_the_phases_time():
    row = {"n": "1000", "unmarshal_us": "2500.0", "marshal_us": "0.0", "round_trip_us": "4000.0"}
    assert paper_phases.phase_value("unmarshal_rate", row) == pytest.approx(400_000)
    assert paper_phases.phase_value("marshal_rate", row) is None, "a clock that read 0 gives no rate"
    assert paper_phases.phase_value("round_trip_us", row) == pytest.approx(4.0)


def test_a_phases_ram_is_its_bytes_in_mb_when_its_engine_counted_them():
    row = {"n": "1000", "unmarshal_b": "2500000", "marshal_b": ""}
    assert paper_phases.phase_value("unmarshal_mb", row) == pytest.approx(2.5)
    assert paper_phases.phase_value("marshal_mb", row) is None, "a call recorded before engines counted bytes"


def test_a_calls_packets_are_its_segments_both_ways_their_rate_over_its_round_trip_and_bytes_per_1000():
    row = {"round_trip_us": "500.0", "sent": "4", "received": "5", "data_sent": "1", "data_received": "2",
           "unmarshal_b": "1000000", "logic_b": "0", "marshal_b": "800000"}
    assert paper_phases.phase_value("packets", row) == 9
    assert paper_phases.phase_value("data_packets", row) == 3
    assert paper_phases.phase_value("packets_per_s", row) == pytest.approx(18_000)
    assert paper_phases.phase_value("mb_per_1000_packets", row) == pytest.approx(200)
    assert paper_phases.phase_value("packets", {"round_trip_us": "500.0", "sent": ""}) is None, \
        "a call recorded before segments were counted"


def test_table_5s_rows_are_set_against_one_struct_and_against_1000_to_5000():
    declaration, values = lublin()
    figure = figure_by_id(declaration, "5")
    calls = read_tsv(PACKET_CALLS)
    points = paper_phases.phase_points(figure, [(1, calls)])
    split = paper_phases.phase_points(figure_by_id(declaration, "5-packets"), [(1, calls)])
    assert dict(split[("soap-gsoap", "echo")])[1]["value"] == 2, "one struct: one segment of data each way"
    assert all(point["value"] > 2 for n, point in split[("soap-gsoap", "echo")] if n >= 1000)
    with_split, without = paper_figures.verdict_rows(figure, values, points)
    assert (with_split["span"], with_split["paper"], without["span"], without["paper"]) == ("1000–5000", "1.51×", "1–1", "2.83×")
    assert "over 2 points" in with_split["ours"] and "[" in without["ours"]


def test_every_table_and_type_shares_one_run_of_ten_calls():
    declaration, _ = lublin()
    folders = {paper_declaration.shared_folder(declaration, each) for each in declaration["figures"]}
    assert folders == {"fig-1-void", "fig-1-int", "fig-1-mime", "fig-5"}, (
        "Tables 5 and 6 share a run of their own, of structs from 1 to 16,000; the image its own, of 10 B to 1 MB; "
        "VOID its own, of single calls")
    image = paper_runs.figure_args(declaration, figure_by_id(declaration, "4-mime"))
    assert (image.kinds, image.sizes, image.count) == ("image", "10,100,1000,5000,100000,1000000", 10)
    packets = paper_runs.figure_args(declaration, figure_by_id(declaration, "6"))
    assert (packets.kinds, packets.sizes, packets.count) == ("echo", "1,10,100,1000,5000,16000", 10)
    args = paper_runs.figure_args(declaration, figure_by_id(declaration, "3-struct"))
    assert (args.kinds, args.sizes, args.count) == ("ints,doubles,strings,echo", "10,100,1000,5000,16000", 10)
    steps, _ = paper_runs.plan(declaration, declaration["figures"], 1, RECORDED)
    assert steps == [], "the recorded run is complete"


def test_a_figure_draws_its_own_kind_alone():
    declaration, _ = lublin()
    calls = read_tsv(CALLS)
    points = paper_phases.phase_points(figure_by_id(declaration, "1-double"), [(1, calls)])
    assert {kind for _, kind in points} == {"doubles"} and len(points) == 5
    n, gsoap = points[("soap-gsoap", "doubles")][2]
    timed = [1000 * 1e6 / float(row["marshal_us"]) for row in calls
             if (row["app"], row["workload"], row["n"]) == ("soap-gsoap", "doubles", "1000")]
    assert n == 1000 and len(timed) == 10 and gsoap["value"] == pytest.approx(sum(timed) / 10)
    assert paper_pages.x_label(figure_by_id(declaration, "1-double"), points) == "doubles in the message"
    assert paper_pages.log_base(figure_by_id(declaration, "1-double"), points) == 10


def test_the_papers_ratio_is_set_against_ours_from_10_to_5000_items():
    declaration, values = lublin()
    struct = figure_by_id(declaration, "3-struct")
    points = paper_phases.phase_points(struct, [(1, read_tsv(CALLS))])
    (row,) = paper_figures.verdict_rows(struct, values, points)
    assert (row["comparison"], row["apps"], row["paper"]) == ("gSOAP / Axis (Axis2/C)", "soap-gsoap / soap-axis2", "6.44×")
    assert "over 4 points" in row["ours"], "16,000 items lie past the sizes both of the paper's frameworks finished"
    assert row["source"] == "derived: 1,577,937 / 244,914 (the table's difference: 544.28%) (line 163)"


def test_the_image_is_counted_in_bytes_and_its_ratio_set_from_10_to_5000_bytes():
    declaration, values = lublin()
    figure = figure_by_id(declaration, "3-mime")
    points = paper_phases.phase_points(figure, [(1, read_tsv(IMAGE_CALLS))])
    assert {kind for _, kind in points} == {"image"}
    assert [n for n, _ in points[("soap-gsoap", "image")]] == [10, 100, 1000, 5000, 100000, 1000000]
    assert paper_pages.x_label(figure, points) == "bytes of the image in the message"
    (row,) = paper_figures.verdict_rows(figure, values, points)
    assert (row["paper"], row["source"]) == ("1.70×", "derived: 1,490,912 / 875,489 (the table's difference: 70.29%) (line 164)")
    assert "over 4 points" in row["ours"], "10 to 5,000 bytes, as for the other types"


def test_void_is_one_call_without_data_its_rate_calls_a_second():
    declaration, values = lublin()
    figure = figure_by_id(declaration, "1-void")
    calls = read_tsv(VOID_CALLS)
    points = paper_phases.phase_points(figure, [(1, calls)])
    ((n, gsoap),) = points[("soap-gsoap", "void")]
    timed = [1e6 / float(row["marshal_us"]) for row in calls if (row["app"], row["workload"]) == ("soap-gsoap", "void")]
    assert n == 1 and len(timed) == 10 and gsoap["value"] == pytest.approx(sum(timed) / 10)
    assert paper_pages.x_label(figure, points) == "a call without data"
    (row,) = paper_figures.verdict_rows(figure, values, points)
    assert (row["span"], row["paper"]) == ("1–1", "2.29×")


def test_a_kind_its_experiment_does_not_run_is_named():
    declaration, _ = lublin()
    declaration = json.loads(json.dumps(declaration))
    declaration["figures"][0]["kind"] = "employees"
    with pytest.raises(Refused, match="kind: 'employees' is not among the kinds its experiment runs"):
        paper_declaration.checked(declaration, "lublin.json")


def test_reproduce_draws_a_page_per_table_and_type(tmp_path):
    pages, markdown = drawn("lublin", RECORDED, tmp_path)
    assert pages == 27
    assert "| series | x | serialization rate (items/s) |" in markdown
    assert "| series | x | deserialization memory (MB) |" in markdown
    assert "The paper's memory: gSOAP 0.40 (line 143), Axis (Axis2/C) 0.40 (line 143) MB." in markdown
    assert "The paper's rates: gSOAP 1,301,413 (line 129), Axis (Axis2/C) 1,163,028 (line 129) items/s." in markdown
    assert "Tables 5 and 6" not in markdown.partition("## Not run")[2], "Tables 5 and 6 are drawn now"
    assert "## Not run" not in markdown, "every row of every table is drawn now, VOID and MIME included"
    assert ("The paper's packet rates: gSOAP 930 (1000–5000 items, line 199), Axis (Axis2/C) 616 (1000–5000 items, "
            "line 199), gSOAP 968 (1–1 items, line 200)") in markdown
    assert "The paper's memory per 1,000 packets: gSOAP 7.6–50.0 (1000–5000 items, line 210)" in markdown
    assert "(RAM per operation and type (Tables 2 and 4))" not in markdown, "Tables 2 and 4 are drawn now"
    assert paper_markdown.canary_text(json.loads((RECORDED / "round-1" / "fig-1-int" / "soap-phases.json").read_text())
                                      .get("canary")) in markdown.split("\n")[2]
