"""A recorded run of `make reproduce PAPER=` drawn again (`--draw-only`), as the paper tests check it."""
import re
import shutil
import subprocess
import sys

from stack.settings import ROOT


def drawn(paper, recorded, results, options=()):
    """(the pages of <paper>.pdf, <paper>.md's text) of the recorded run copied into `results` and drawn."""
    shutil.copytree(recorded, results / "recorded")
    done = subprocess.run([sys.executable, "-m", "harness", "reproduce", "--paper", paper, "--draw-only", *options,
                           "--run", "recorded", "--results", str(results)], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    info = subprocess.run(["pdfinfo", str(results / "recorded" / f"{paper}.pdf")], capture_output=True, text=True,
                          check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)$", info, re.M).group(1)), (results / "recorded" / f"{paper}.md").read_text()
