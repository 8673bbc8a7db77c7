"""The large-body driver on the live stack: Debian's httperf cuts a session line past its 10,000-byte
buffers into requests the server refuses; the lab's build (httperf-scripts/build-httperf.sh) sends
the same envelope whole, and every reply is a 2xx."""
import subprocess

import pytest

from harness.drivers import httperf
from stack import registry

REQUESTS = 4


def driven(binary, request, session):
    """httperf's figures for REQUESTS sessions of `request`, sent by `binary`."""
    command = httperf.command(request, 4, REQUESTS, 10, session)
    completed = subprocess.run([binary, *command[1:]], capture_output=True, text=True, timeout=60)
    return httperf.figures(completed.stdout)


@pytest.mark.parametrize("app", ["soap-gsoap", "soap-php"])
def test_debian_httperf_cuts_an_echo_of_a_thousand_structs_and_the_lab_build_sends_it_whole(stack, tmp_path, app):
    request = registry.request(app, "echo-1000")
    session = tmp_path / "session.txt"
    session.write_text(httperf.session_file_text(request))
    assert httperf.binary(request) == str(httperf.LARGE_BODY_HTTPERF)
    whole = driven(str(httperf.LARGE_BODY_HTTPERF), request, session)
    assert (whole["replies"], whole["status_2xx"], whole["errors_total"]) == (REQUESTS, REQUESTS, 0)
    assert whole["request_size_b"] > len(request.body.encode())  # the body and its headers
    cut = driven("httperf", request, session)
    # Debian's reads the session's line in 9,999-byte pieces and sends each as a request of its own
    # (14 per session here, a connection each): not one is the envelope, not one is answered 2xx.
    assert cut["connections"] > REQUESTS * 2 and cut["status_2xx"] == 0
