"""The report of a run: `view` (how a run is shown), `series` and `tables` (pure: the data files and
tables), `render` (gnuplot and pdfunite, `python3 -m harness.report.render`, behind plots/report.py)."""
