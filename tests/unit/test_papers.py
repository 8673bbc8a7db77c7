"""The SOAP engines beside the papers: each pair's ratio as a paper reports it, and ours."""
from types import SimpleNamespace

from harness.report import papers


def row(app, count, figure, lower_bound=0):
    return {"workload": f"rows-{count}", "engine": "innodb", "app": app, "saturation_rps": figure,
            "lower_bound": lower_bound}



def test_the_papers_pairs_are_set_beside_ours_in_every_measured_workload():
    table = [{"comparison": "PHP over Axis2/Java", "numerator": "soap-php", "denominator": "soap-axis2",
              "paper": "ICWS'08", "paper_low": "1.87", "paper_high": "5.97", "paper_payload": "1-10 structs"},
             {"comparison": "Axis2 over Axis 1.4", "numerator": "soap-axis2", "denominator": "soap",
              "paper": "Infosys", "paper_low": "4.37", "paper_high": "4.37", "paper_payload": "records"},
             {"comparison": "gSOAP over Axis2", "numerator": "soap-gsoap", "denominator": "soap-axis2",
              "paper": "ICWS'08", "paper_low": "2", "paper_high": "7", "paper_payload": "structs"}]
    rows = [row("soap-php", 1, "3000"), row("soap-axis2", 1, "1000"), row("soap", 1, "500"),
            row("soap-php", 16000, "2", lower_bound=1), row("soap-axis2", 16000, "8"), row("soap", 16000, "4")]
    lines = papers.paper_lines(SimpleNamespace(), rows, table)
    assert lines[4].startswith("| pair | paper |") and "first 1 row by id, InnoDB" in lines[4]
    assert lines[6] == "| PHP over Axis2/Java | ICWS'08 | 1-10 structs | 1.87-5.97x | 3.00x | >= 0.25x |"
    assert lines[7] == "| Axis2 over Axis 1.4 | Infosys | records | 4.37x | 2.00x | 2.00x |"
    assert len(lines) == 9, "no gSOAP in the run: its pair is left out"
    assert papers.paper_lines(SimpleNamespace(), [row("soap", 1, "500")], table) == []
    assert len(papers.paper_ratios()) >= 5, "plots/soap-papers.tsv holds the papers' pairs"
