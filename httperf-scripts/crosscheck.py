"""`make crosscheck`: closed-loop wrk against a run's cells on the running servers
(harness/crosscheck.py; its knobs under "crosscheck" in sweep.json). Run from the project root with
the root on PYTHONPATH, as the Makefile does."""
import sys

from harness.crosscheck import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
