"""A thousand hostile envelopes more (tests/hostile_cases.py) after a server has settled: what they
leave in its memory is bounded, and its engines answer on. In the stack tier, not the answers tier
(`make test-fast`): it drives each server with thousands of requests, about 40 s in all."""
import itertools
from pathlib import Path

import pytest

from harness.run.verify import judge_echo
from stack import registry
from tests.hostile_cases import ECHO_CASES

from .test_soap_echoes import ANSWERED_ANYWAY, SOAP_APPS, envelope, post

WARMUP_THOUSANDS, SETTLED_MB = 8, 25


def rss_mb(stack, server_name):
    """The summed resident memory of a web server's processes (Apache: the parent and its workers)
    and of the web-host servers it needs (Lighttpd: the PHP-FPM pool that runs its PHP)."""
    names = [server_name, *(name for name in registry.server(server_name).get("needs", ())
                            if registry.server(name)["host"] == "web")]
    total_kb = 0
    for pid in (pid for name in names for pid in stack[name].processes()):
        status = Path(f"/proc/{pid}/status").read_text()
        total_kb += int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))
    return total_kb / 1024


@pytest.mark.parametrize("server_name", sorted({registry.server_of(app) for app in SOAP_APPS}))
def test_a_thousand_hostile_envelopes_grow_a_server_by_at_most_50_mb(stack, server_name):
    apps = [app for app in SOAP_APPS if registry.server_of(app) == server_name]
    answered = {name for _, name in ANSWERED_ANYWAY}
    small = [envelope(operation, content) for name, operation, content, _ in ECHO_CASES
             if len(content) < 2 ** 20 and name not in answered]

    def thousand_hostile_envelopes():
        for app, body in zip(itertools.cycle(apps), itertools.islice(itertools.cycle(small), 1000)):
            assert post(app, body)[0] == 500
    # First the server settles (two thousands in a row add at most SETTLED_MB): a JVM's RSS grows as
    # its heap is first touched (Xms is Xmx; a fresh Tomcat here grew 303, 135, 63, 69 and 10 MB over
    # five thousands, AMD EPYC), caches and pools fill. Then what one more thousand adds is what
    # hostile input keeps.
    warmup = []
    while len(warmup) < WARMUP_THOUSANDS and not (len(warmup) >= 2 and max(warmup[-2:]) <= SETTLED_MB):
        before = rss_mb(stack, server_name)
        thousand_hostile_envelopes()
        warmup.append(rss_mb(stack, server_name) - before)
    before = rss_mb(stack, server_name)
    thousand_hostile_envelopes()
    grown = rss_mb(stack, server_name) - before
    assert grown <= 50, (f"{server_name} grew {grown:.0f} MB over 1,000 hostile envelopes, after warm-up "
                         f"thousands that added {[round(mb) for mb in warmup]} MB")
    assert all(judge_echo("echo-3", *post(app, registry.request(app, "echo-3").body.encode()))[0] for app in apps)
