"""`make compare RUN=a RUN2=b`: two runs' tables side by side (harness/report/compare.py). Run from
the project root with the root on PYTHONPATH, as the Makefile does."""
import sys

from harness.report.compare import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
