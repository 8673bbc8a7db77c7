"""One scan of /proc: inside it a process's command line, stat line and pidfile are read once and kept, so
a sample of every server's processes reads /proc once; outside it and in other threads, read now."""
import subprocess
import threading
import time

from stack.procfs import cmdline, is_zombie, one_scan, parent_of, proc_pids
from stack.server import read_pid


def test_a_scan_keeps_what_it_read_until_it_ends_and_only_for_its_own_thread():
    sleeper = subprocess.Popen(["sleep", "30"])
    seen_elsewhere = []
    try:
        deadline = time.monotonic() + 10
        while cmdline(sleeper.pid) != "sleep 30 " and time.monotonic() < deadline:  # until the child has exec'd
            time.sleep(0.01)
        with one_scan():
            assert sleeper.pid in proc_pids() and cmdline(sleeper.pid) == "sleep 30 "
            assert not is_zombie(sleeper.pid)
            sleeper.kill()
            sleeper.wait()
            with one_scan():  # nested: the outer scan's reads stand
                assert cmdline(sleeper.pid) == "sleep 30 " and sleeper.pid in proc_pids()
            thread = threading.Thread(target=lambda: seen_elsewhere.append(cmdline(sleeper.pid)))
            thread.start()
            thread.join()
        assert seen_elsewhere == [""]
        assert cmdline(sleeper.pid) == "" and sleeper.pid not in proc_pids() and parent_of(sleeper.pid) is None
    finally:
        if sleeper.poll() is None:
            sleeper.kill()
            sleeper.wait()


def test_a_pidfile_read_within_a_scan_stands_until_the_scan_ends(tmp_path):
    pidfile = tmp_path / "server.pid"
    pidfile.write_text("4242\n")
    with one_scan():
        assert read_pid(pidfile) == 4242
        pidfile.write_text("4343\n")
        assert read_pid(pidfile) == 4242
    assert read_pid(pidfile) == 4343
    pidfile.unlink()
    assert read_pid(pidfile) is None
