"""`make plots`: PDFs, report.pdf and summary.md/.tsv of a run's saved results (harness/report/;
the gnuplot scripts beside this file). Run from the project root with the root on PYTHONPATH, as the
Makefile does."""
import sys

from harness.report.render import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
