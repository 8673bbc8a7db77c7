"""Nothing reads the lab's files at import: every module of stack/ and harness/ imported in a fresh
interpreter, with an audit hook noting each file opened meanwhile. The registry (contract/targets.json),
the servers, sweep.json and the profiles' rules are read on first use."""
import json
import subprocess
import sys

from stack.settings import ROOT

PROBE = """
import json, pkgutil, sys, importlib
opened = set()
def hook(event, args):
    if event == "open" and isinstance(args[0], str) and not args[0].endswith((".py", ".pyc")):
        opened.add(args[0])
sys.addaudithook(hook)
for package in ("stack", "harness"):
    module = importlib.import_module(package)
    for found in pkgutil.walk_packages(module.__path__, package + "."):
        if not found.name.endswith("__main__"):
            importlib.import_module(found.name)
print(json.dumps(sorted(opened)))
"""


def test_importing_every_module_reads_no_file_of_the_lab():
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lab_files = [path for path in json.loads(done.stdout) if path.startswith(str(ROOT))]
    assert lab_files == []
