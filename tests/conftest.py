"""Each test's tier, from its file (`make test-unit`, `test-fast`, `test-stack`, `test-faults`,
`test-hosts`; `make test` runs them all), and what every test run reports at its end: the seconds each
test file cost (the budget of `make test` is 20 min on the slower host kind), and each speed-dependent
bound with the figure measured against it on this CPU (tests/margins.py)."""
from collections import Counter
from pathlib import Path

import pytest

from tests import margins

# Integration files that need other hosts: network namespaces, or ssh hosts set up by Ansible.
HOSTS_FILES = {"test_ssh.py", "test_netns.py"}
# Integration files that check every app's answers (rows, envelopes, faults, hostile input) without a sweep.
ANSWERS_FILES = {"test_html_apps.py", "test_soap.py", "test_soap_echoes.py", "test_schemas.py",
                 "test_hostile_input.py", "test_baselines.py", "test_soap_baselines.py", "test_commands.py",
                 "test_writes.py"}

SECONDS_PER_FILE = Counter()


def tiers(path):
    """The markers of the tests in the file at `path` (under tests/)."""
    folder, name = path.parent.name, path.name
    if folder in ("unit", "faults"):
        return [folder]
    if name in HOSTS_FILES:
        return ["hosts"]
    return ["stack", "answers"] if name in ANSWERS_FILES else ["stack"]


def pytest_collection_modifyitems(items):
    for item in items:
        for marker in tiers(Path(item.fspath)):
            item.add_marker(getattr(pytest.mark, marker))


def pytest_runtest_logreport(report):
    # Setup and teardown count too: a module's servers start in its first test's setup.
    SECONDS_PER_FILE[report.nodeid.split("::")[0]] += report.duration


def pytest_terminal_summary(terminalreporter):
    write = terminalreporter.write_line
    if SECONDS_PER_FILE:
        terminalreporter.section("seconds per test file")
        quick = [seconds for seconds in SECONDS_PER_FILE.values() if seconds < 1]
        for path, seconds in SECONDS_PER_FILE.most_common(len(SECONDS_PER_FILE) - len(quick)):
            write(f"{seconds:8.1f}  {path}")
        if quick:
            write(f"{sum(quick):8.1f}  the {len(quick)} other files, under 1 s each")
    if margins.MEASURED:
        terminalreporter.section(f"speed-dependent bounds, the tightest of each, on {margins.cpu_model()}")
        for line in margins.summary(margins.MEASURED):
            write(line)
