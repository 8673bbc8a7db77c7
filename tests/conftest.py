"""What every test run reports at its end: the seconds each test file cost (the budget of `make test`
is 20 min on the slower host kind), and each speed-dependent bound with the figure measured against
it on this CPU (tests/margins.py)."""
from collections import Counter

from tests import margins

SECONDS_PER_FILE = Counter()


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
