"""The targets' declarations (contract/targets.json), read on first use (never at import) and laid out
by the layout knobs (stack/layout.py: TOMCAT_LAYOUT): the registry of apps and servers
(stack/registry.py) and the workloads' names (stack/workload_names.py) both read them here."""
import functools
import json

from stack import settings
from stack.layout import laid_out
from stack.settings import ROOT

TARGETS_FILE = ROOT / "contract" / "targets.json"


@functools.cache
def declared():
    """contract/targets.json as written."""
    return json.loads(TARGETS_FILE.read_text())


@functools.cache
def registry():
    """What the knobs make of the declarations, once; a wrong layout knob stops with its message, as a
    wrong knob does (settings.int_knob)."""
    try:
        return laid_out(declared(), settings.knob)
    except ValueError as error:
        raise SystemExit(str(error)) from None
