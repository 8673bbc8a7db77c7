"""The SOAP engines beside the papers: each paper's ratio beside ours from the same shape of
experiment, then the papers' pairs on the database-backed workloads, the lab's extension."""
from types import SimpleNamespace

from harness.report import papers
from harness.results.manifest import Manifest

# What paper_lines reads of a run's view: its engines' titles, as its registry recorded them.
VIEW = SimpleNamespace(engine_title=Manifest.of_registry({"engines": {"innodb": {"title": "InnoDB"}}}).engine_title)


def row(app, workload, figure, lower_bound=0, engine="none"):
    return {"workload": workload, "engine": engine, "app": app, "saturation_rps": figure, "lower_bound": lower_bound}


def paper(comparison, numerator, denominator, low, high, workloads, differs="keep-alive there"):
    return {"comparison": comparison, "numerator": numerator, "denominator": denominator, "paper": "P",
            "paper_low": low, "paper_high": high, "paper_payload": "payload", "workloads": workloads,
            "differs": differs}


TABLE = [paper("PHP over Axis2/Java", "soap-php", "soap-axis2", "1.87", "5.97", "echo-1,echo-10"),
         paper("doubles over ints", "soap-gsoap", "soap-gsoap", "1.13", "1.13", "doubles-1000/ints-1000"),
         paper("PHP over Axis2/Java", "soap-php", "soap-axis2", "", "", "list-1"),
         paper("Axis2 over Axis 1.4", "soap-axis2", "soap", "4.37", "4.37", "", "no database there"),
         paper("gSOAP over Axis2", "soap-gsoap", "soap-axis2", "2", "7", "")]


def test_each_papers_ratio_stands_beside_ours_from_the_same_experiment():
    rows = [row("soap-php", "echo-1", "3000"), row("soap-axis2", "echo-1", "1000"),
            row("soap-php", "echo-10", "2000", lower_bound=1), row("soap-axis2", "echo-10", "500"),
            row("soap-gsoap", "doubles-1000", "90"), row("soap-gsoap", "ints-1000", "100")]
    lines = papers.paper_lines(VIEW, rows, TABLE)
    assert lines[0] == "## The SOAP papers' ratios beside ours on the same messages"
    table = [line for line in lines if line.startswith("| ")]
    assert table[1] == "| PHP over Axis2/Java | P | payload | 1.87-5.97x | 1 structs: 3.00x; 10 structs: >= 4.00x | keep-alive there |"
    assert table[2] == "| doubles over ints | P | payload | 1.13x | 1,000 doubles / 1,000 ints: 0.90x | keep-alive there |"
    assert len(table) == 3, "the echoList row has no list cell in the run; the extension has no database cell"


def test_a_figure_without_numbers_and_the_database_backed_pairs_are_said_apart():
    rows = [row("soap-php", "list-1", "800"), row("soap-axis2", "list-1", "400"),
            row("soap-axis2", "rows-1", "1000", engine="innodb"), row("soap", "rows-1", "500", engine="innodb"),
            row("soap-axis2", "rows-16000", "8", engine="innodb"), row("soap", "rows-16000", "4", lower_bound=1, engine="innodb")]
    lines = papers.paper_lines(VIEW, rows, TABLE)
    assert "| PHP over Axis2/Java | P | payload | figure only | list of 1: 2.00x | keep-alive there |" in lines
    start = lines.index("## The papers' pairs on database-backed workloads: the lab's own extension")
    extension = [line for line in lines[start:] if line.startswith("| ")]
    assert "first 1 row by id, InnoDB" in extension[0] and "first 16,000 rows by id, InnoDB" in extension[0]
    assert extension[1] == "| Axis2 over Axis 1.4 | P | payload | 4.37x | 2.00x | <= 2.00x |"
    assert len(extension) == 2, "no gSOAP in the run: its pair is left out"
    assert papers.paper_lines(VIEW, [row("soap", "rows-1", "500", engine="innodb")], TABLE) == []


def test_the_papers_file_names_our_workloads_for_each_experiment():
    table = papers.paper_ratios()
    assert {entry["paper"].split()[0] for entry in table} >= {"ICWS'08", "Infosys", "Lublin"}
    assert any(entry["workloads"] == "quote" for entry in table), "StockQuote's rows set getQuote beside it"
    for entry in table:
        for mine, theirs in papers.our_pairs(entry):
            assert mine.split("-")[0] in ("quote", "echo", "list", "ints", "doubles", "strings") and theirs
