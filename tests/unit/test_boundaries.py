"""The lab's boundaries, read from its source: choices reach a run as values, not through the
environment; the registry's file has one reader; httperf is reached through its driver; the
Makefile's help takes the workloads' names from the registry rather than restating them."""
import ast
import re

import pytest

from stack import settings, workload_names
from stack.settings import ROOT

CODE = sorted(path for folder in ("harness", "stack") for path in (ROOT / folder).rglob("*.py"))
TESTS = sorted((ROOT / "tests").rglob("*.py"))
# httperf's own tests: its binding, the drivers' shared rules, and its large-body build on real servers.
HTTPERF_TESTS = {"test_httperf_driver.py", "test_drivers.py", "test_large_bodies.py", "test_writes.py"}


def tree(path):
    return ast.parse(path.read_text(), filename=str(path))


def is_environ(node):
    return isinstance(node, ast.Attribute) and node.attr == "environ" and getattr(node.value, "id", None) == "os"


def environment_writes(path):
    """Lines of `path` that set a variable of the harness's own environment."""
    found = []
    for node in ast.walk(tree(path)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AugAssign) else []
        written = [target for target in targets if isinstance(target, ast.Subscript) and is_environ(target.value)]
        called = (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and ((is_environ(node.func.value) and node.func.attr in ("update", "setdefault", "pop", "clear"))
                       or (getattr(node.func.value, "id", None) == "os" and node.func.attr in ("putenv", "unsetenv"))))
        if written or called:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_module_writes_the_environment_at_run_time():
    assert [line for path in CODE for line in environment_writes(path)] == []


def test_the_knobs_a_command_chooses_are_values_within_a_block(monkeypatch):
    monkeypatch.setenv("SOAP_PHASES", "off")
    with settings.chosen(SOAP_PHASES="on"):
        assert settings.knob("SOAP_PHASES") == "on"
        with settings.chosen(JIT_PROFILING="on"):
            assert (settings.knob("SOAP_PHASES"), settings.knob("JIT_PROFILING")) == ("on", "on")
        assert settings.knobs()["SOAP_PHASES"] == "on"  # what a server started here records
    assert settings.knob("SOAP_PHASES") == "off"
    with pytest.raises(ValueError, match="no knob SOAP_PHASE"):
        with settings.chosen(SOAP_PHASE="on"):
            pass


def test_only_the_registry_s_loader_names_its_file():
    naming = [f"{path.relative_to(ROOT)}:{node.lineno}" for path in CODE for node in ast.walk(tree(path))
              if isinstance(node, ast.Constant) and node.value == "targets.json"]
    assert [line.partition(":")[0] for line in naming] == ["stack/targets.py"]


def httperf_imports(path):
    return [f"{path.relative_to(ROOT)}:{node.lineno}" for node in ast.walk(tree(path)) if isinstance(node, ast.ImportFrom)
            and (node.module == "harness.drivers.httperf"
                 or (node.module == "harness.drivers" and any(alias.name == "httperf" for alias in node.names)))]


def test_httperf_is_imported_by_its_driver_and_its_edge_alone():
    outside = [line for path in CODE + TESTS for line in httperf_imports(path)
               if path.parent != ROOT / "harness" / "drivers" and path.name not in HTTPERF_TESTS]
    # The step is httperf's edge: it runs the binding's command here or on load client hosts.
    assert [line.partition(":")[0] for line in outside] == ["harness/run/step.py"]


def test_the_makefile_s_help_restates_no_workload_s_name():
    names = {*workload_names.workloads(), *workload_names.echo_workloads(), *workload_names.size_kinds()}
    help_lines = [line.partition("## ")[2] for line in (ROOT / "Makefile").read_text().splitlines() if "## " in line]
    named = [(value, line[:60]) for line in help_lines for value in re.findall(r"\b[A-Z_]+=([^\s)]+)", line)
             if names & set(re.split(r"[|,]", value))]
    listed = [line[:60] for line in help_lines if re.search(rf"\b({'|'.join(names)})[|,]({'|'.join(names)})\b", line)]
    assert (named, listed) == ([], [])
