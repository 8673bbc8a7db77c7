"""The targets' declarations (contract/targets.json), read once and laid out by the layout knobs
(stack/layout.py: TOMCAT_LAYOUT): the registry of apps and servers (stack/registry.py) and the
workloads' names (stack/workload_names.py) both read them here."""
import json

from stack import settings
from stack.layout import laid_out
from stack.settings import ROOT

TARGETS_FILE = ROOT / "contract" / "targets.json"
# As written; REGISTRY is what the knobs make of it.
DECLARED = json.loads(TARGETS_FILE.read_text())
try:
    REGISTRY = laid_out(DECLARED, settings.knob)
except ValueError as error:
    raise SystemExit(str(error)) from None
