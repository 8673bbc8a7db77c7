"""The targets' declarations (contract/targets.json), read on first use (never at import), their
variants written out (stack/variants.py) and laid out by the layout knobs (stack/layout.py:
TOMCAT_LAYOUT): the registry of apps and servers (stack/registry.py) and the workloads' names
(stack/workload_names.py) both read them here."""
import contextlib
import contextvars
import functools
import json

from stack import settings
from stack.layout import laid_out
from stack.settings import ROOT
from stack.variants import resolved

TARGETS_FILE = ROOT / "contract" / "targets.json"


@functools.cache
def declared():
    """contract/targets.json as written."""
    return json.loads(TARGETS_FILE.read_text())


@functools.cache
def from_file():
    """What the knobs make of the file's declarations, once, their variants written out
    (stack/variants.py); a wrong layout knob stops with its message, as a wrong knob does
    (settings.int_knob)."""
    try:
        return laid_out(resolved(declared()), settings.knob)
    except ValueError as error:
        raise SystemExit(str(error)) from None


# A registry value given for a block (a test's own, with a fake app or server), else the file's.
GIVEN = contextvars.ContextVar("the registry given", default=None)


@contextlib.contextmanager
def given(value):
    """Within the block the registry is `value`: one as `registry()` gives it, laid out."""
    token = GIVEN.set(value)
    try:
        yield value
    finally:
        GIVEN.reset(token)


def registry():
    """The registry in force: the one given for this block, else the file's."""
    value = GIVEN.get()
    return from_file() if value is None else value
