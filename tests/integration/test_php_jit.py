"""PHP-FPM's OPcache JIT (PHP_JIT, stack/php_servers.py): a pool started with PHP_JIT=tracing has its
workers map the JIT's executable buffer and answers as without it; started with off, none is mapped.
Debian's PHP 8.2 is built with the JIT, which this also proves."""
import os
import urllib.request

import pytest

from stack import lifecycle, registry, settings
from stack.procfs import parent_of

JIT_BUFFER_MB = 64


def executable_shared_mb(pid):
    """The sizes in MiB of the process's executable shared mappings of /dev/zero: OPcache's JIT buffer."""
    sizes = []
    for line in open(f"/proc/{pid}/maps"):
        fields = line.split()
        if fields[1] == "r-xs" and line.rstrip().endswith("/dev/zero (deleted)"):
            start, end = (int(bound, 16) for bound in fields[0].split("-"))
            sizes.append((end - start) / 2**20)
    return sizes


def workers_of(master):
    return [int(name) for name in os.listdir("/proc") if name.isdigit() and parent_of(int(name)) == master]


def page(app):
    with urllib.request.urlopen(registry.request(app, "single", engine="innodb").url, timeout=10) as answer:
        return answer.read()


@pytest.fixture
def php_fpm(stack):
    """The php-fpm pool, restarted with PHP_JIT given, and as it was at the end of the test."""
    def restarted(jit):
        with settings.chosen(PHP_JIT=jit):
            lifecycle.restart("php-fpm", settings.knob("SERVER_CPUS"))
        return stack["php-fpm"]
    yield restarted
    lifecycle.restart("php-fpm", settings.knob("SERVER_CPUS"))


def test_the_tracing_jit_maps_its_buffer_in_every_worker_and_the_page_is_the_same(php_fpm):
    without = page("php-fpm")
    pool = php_fpm("tracing")
    workers = workers_of(pool.pid())
    assert len(workers) == settings.int_knob("PHP_FPM_WORKERS")
    assert all(executable_shared_mb(worker) == [JIT_BUFFER_MB] for worker in workers)
    assert pool.started_with()["PHP_JIT"] == "tracing", "the knob the run's manifest records"
    assert page("php-fpm") == without
    pool = php_fpm("off")
    assert not any(executable_shared_mb(worker) for worker in workers_of(pool.pid()))


def test_the_jit_variant_runs_its_own_pool_with_the_jit_beside_the_one_without(stack):
    assert settings.knob("PHP_JIT") == "off"
    jit, plain = stack["php-fpm-jit"], stack["php-fpm"]
    workers = workers_of(jit.pid())
    assert len(workers) == settings.int_knob("PHP_FPM_WORKERS")
    assert all(executable_shared_mb(worker) == [JIT_BUFFER_MB] for worker in workers)
    assert not any(executable_shared_mb(worker) for worker in workers_of(plain.pid()))
    assert jit.started_with()["PHP_JIT"] == "tracing"
    assert page("php-fpm-jit") == page("php-fpm")
