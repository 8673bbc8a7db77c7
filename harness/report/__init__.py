"""The report of a run: `view` (how a run is shown), the pure texts and tables (`series`, `tables`, `trust`,
`comparisons`, `sizes`, `papers`), `render` (gnuplot and pdfunite: `python3 -m harness plots`,
behind plots/report.py) and `compare` (two runs side by side)."""
