"""`python -m harness VERB [options]` (harness/cli.py)."""
import sys

from harness.cli import main

sys.exit(main(sys.argv[1:]))
