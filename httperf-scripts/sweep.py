"""`make sweep`: the saturation sweep (harness/sweep.py; its knobs in sweep.json beside this file).
Run from the project root with the root on PYTHONPATH, as the Makefile does."""
import sys

from harness.sweep import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
