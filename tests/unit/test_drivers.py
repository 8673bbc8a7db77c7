"""The load drivers (harness/drivers): each binding's command line for what it is asked, and its output
read on recorded outputs as the figures every driver of its kind gives."""
import json
from pathlib import Path

import pytest

from harness.drivers import CLOSED_LOOP, DRIVERS, Window, ab, checked_build, closed_loop, httperf, oha, wrk
from harness.drivers.wrk import duration_ms
from harness.results.figures import JUDGED, STEP_FIGURES, WINDOW_FIGURES
from stack import registry, settings

FIXTURES = settings.ROOT / "tests" / "fixtures"


def wrk_report(name):
    return wrk.figures((FIXTURES / "wrk" / name).read_text())


def ab_report(name):
    return ab.figures((FIXTURES / "ab" / name).read_text())


def test_kept_alive_connections_open_at_the_rate_over_their_calls_and_carry_them():
    get = httperf.command(registry.request("php", "single"), 250, 1500, 2, calls=100)
    assert [get[get.index(flag) + 1] for flag in ("--rate", "--num-conns", "--num-calls")] == ["2.5", "15", "100"]
    soap = registry.request("soap", "single", engine="innodb")
    post = httperf.command(soap, 250, 1500, 2, "session.txt", calls=100)
    assert post[post.index("--rate") + 1] == "2.5" and post[post.index("--wsesslog") + 1] == "15,0,session.txt"
    session = httperf.session_file_text(soap, calls=100)
    assert session == httperf.session_file_text(soap) * 100 and len(session.splitlines()) == 100
    with pytest.raises(ValueError, match="do not fill connections"):
        httperf.command(soap, 250, 1501, 2, "session.txt", calls=100)
    assert "--disable-keepalive" in oha.command("oha", soap, 50, 250, 2, 900, "r.sqlite", "body.txt")
    assert "--disable-keepalive" not in oha.command("oha", soap, 50, 250, 2, 900, "r.sqlite", "body.txt",
                                                         keepalive=True)


def test_get_and_soap_requests_become_httperf_commands():
    get = httperf.command(registry.request("php", "single"), 250, 1500, 2)
    assert get[:3] == ["httperf", "--server", "127.0.0.1"] and "--hog" not in get
    assert get[get.index("--num-conns") + 1] == "1500" and "/single.php?id=100&engine=myisam" in get
    soap = registry.request("soap", "large", engine="innodb")
    post = httperf.command(soap, 5, 30, 10, "session.txt")
    assert "--wsesslog" in post and post[post.index("--wsesslog") + 1] == "30,0,session.txt"
    assert post[post.index("--add-header") + 1] == 'Content-Type: text/xml; charset=utf-8\\nSOAPAction: ""\\n'
    # The study's envelopes fit httperf's own 4 KB send buffer; echo-10000's 1.3 MB gets 2 MB.
    assert post[-2:] == ["--send-buffer", "4096"]
    echo = httperf.command(registry.request("soap", "echo-10000"), 5, 30, 10, "session.txt")
    assert echo[-2:] == ["--send-buffer", str(2 ** 21)] and 2 ** 20 < len(registry.request("soap", "echo-10000").body) < 2 ** 21
    session = httperf.session_file_text(soap)
    assert session.startswith("/soap/services/PlayerService method=POST contents='<?xml")
    assert "<lab:engine>innodb</lab:engine>" in session


def test_a_body_with_a_single_quote_cannot_become_a_session():
    with pytest.raises(ValueError, match="single-quoted"):
        httperf.session_file_text(registry.Request("POST", 1, "/", body="<a>'</a>"))


def test_a_body_httperf_would_read_as_an_escape_or_a_second_line_cannot_become_a_session():
    for body in ("<a>\\n</a>", "<a>\n</a>"):
        with pytest.raises(ValueError, match="no backslash or line break"):
            httperf.session_file_text(registry.Request("POST", 1, "/", body=body))


def test_sessions_debian_httperf_would_cut_go_to_the_large_body_build(monkeypatch, tmp_path):
    """Debian's httperf reads a session line into 10,000-byte buffers: echo-76's still fits, echo-77's
    does not (its path, /soap/services/PlayerService, included)."""
    fits, cut = registry.request("soap", "echo-76"), registry.request("soap", "echo-77")
    assert len(httperf.session_file_text(fits).encode()) <= httperf.STOCK_SESSION_LINE_LIMIT < len(httperf.session_file_text(cut).encode())
    built = tmp_path / "httperf"
    monkeypatch.setattr(httperf, "LARGE_BODY_HTTPERF", built)
    with pytest.raises(FileNotFoundError, match="make build"):
        httperf.binary(cut, "auto")
    built.write_text("")
    assert httperf.binary(fits, "auto") == "httperf"
    assert httperf.binary(registry.request("php", "large"), "always") == "httperf"  # a GET has no session
    assert httperf.binary(cut, "auto") == httperf.binary(fits, "always") == str(built)
    assert httperf.command(cut, 5, 10, 2, "session.txt")[0] == str(built)


def test_the_large_body_knob_takes_auto_or_always():
    with pytest.raises(ValueError, match="auto or always, not 'sometimes'"):
        checked_build("httperf", "sometimes")
    assert checked_build("httperf", "always") == "always"
    with pytest.raises(ValueError, match="no load driver 'siege'"):
        checked_build("siege", "auto")


def test_wrk_durations_are_read_in_milliseconds():
    assert duration_ms("812.00us") == pytest.approx(0.812)
    assert duration_ms("33.64ms") == 33.64
    assert duration_ms("2.01s") == 2010
    assert duration_ms("1.50m") == 90_000
    with pytest.raises(ValueError):
        duration_ms("fast")


def test_a_recorded_report_with_latency_gives_its_rate_count_and_percentiles():
    php = wrk_report("php-close-c2-latency.txt")
    assert php["replies_per_s"] == 428.22 and php["requests"] == 430 and php["seconds"] == 1.0
    assert (php["p50_ms"], php["p90_ms"], php["p99_ms"]) == (4.73, 7.89, 33.64)
    assert php["non2xx"] == 0 and php["error_count"] == 0
    pooled = wrk_report("pooled-keepalive-c4-latency.txt")
    assert pooled["replies_per_s"] == 773.7 and pooled["p99_ms"] == 13.67


def test_latencies_of_seconds_are_read_though_wrk_pads_their_unit():
    axis = wrk_report("axis-employees-3000-seconds-latency.txt")  # Axis 1.4, 3,000 Employees, 10 connections
    assert axis["replies_per_s"] == 6.07 and axis["requests"] == 364 and axis["seconds"] == 60.0
    assert (axis["p50_ms"], axis["p75_ms"], axis["p90_ms"], axis["p99_ms"]) == (1150.0, 2260.0, 5080.0, 8420.0)


def test_a_report_without_latency_has_no_percentiles_and_counts_non_2xx():
    missing = wrk_report("apache-404-no-latency.txt")
    assert missing["non2xx"] == missing["requests"] == 5694
    assert "p99_ms" not in missing


def test_wrk_that_could_not_connect_printed_no_report():
    with pytest.raises(ValueError):
        wrk_report("refused-connect-errors.txt")


def test_ab_kept_alive_on_apache_counts_every_request_over_a_kept_connection():
    php = ab_report("php-single-k-c100.txt")
    assert (php["requests"], php["seconds"], php["keepalive_requests"]) == (6331, 3.0, 6331)
    assert php["replies_per_s"] == pytest.approx(6331 / 3.0, abs=0.01)  # ab printed 2110.00 over its rounded time
    assert (php["p50_ms"], php["p90_ms"], php["p99_ms"]) == (6, 8, 12)  # whole milliseconds
    assert php["error_count"] == php["non2xx"] == 0 and php["errors"] == dict.fromkeys(ab.ERROR_KINDS, 0)


def test_ab_shows_a_server_that_closes_kept_connections_under_http_1_0():
    """Axis2 streams its answer without a length: to ab's HTTP/1.0 Tomcat answers `Connection: close`."""
    axis2 = ab_report("soap-axis2-echo10-k-c100-closed-by-tomcat.txt")
    assert (axis2["requests"], axis2["keepalive_requests"], axis2["replies_per_s"]) == (1814, 0, 604.47)
    assert axis2["p99_ms"] == 795


def test_ab_counts_non_2xx_answers_apart_and_its_failures_by_kind_out_of_the_answered():
    missing = ab_report("php-404-kept-alive.txt")
    assert (missing["non2xx"], missing["requests"], missing["error_count"]) == (400, 400, 0)
    varying = ab_report("varying-length-without-l.txt")  # without -l, a length unlike the first is a failure
    assert (varying["error_count"], varying["errors"]["length"], varying["requests"]) == (20, 20, 10)
    closed = ab_report("soap-php-quote-c10.txt")
    assert (closed["requests"], closed["keepalive_requests"], closed["p99_ms"]) == (2000, 0, 7)


@pytest.mark.parametrize("name", ["refused.txt", "no-answer-timeout.txt"])
def test_ab_that_could_not_finish_printed_no_report(name):
    with pytest.raises(ValueError, match="no ab report"):
        ab_report(name)


@pytest.mark.parametrize("report", [("wrk", "php-close-c2-latency.txt"), ("wrk", "apache-404-no-latency.txt"),
                                    ("ab", "php-single-k-c100.txt"), ("ab", "php-404-kept-alive.txt")])
def test_every_closed_loop_driver_gives_the_same_figures(report):
    driver, name = report
    figures = closed_loop(driver).figures((FIXTURES / driver / name).read_text())
    assert set(WINDOW_FIGURES) <= set(figures)
    assert figures["error_count"] == sum(figures["errors"].values())


def test_a_closed_loop_driver_is_named_and_an_unknown_one_is_refused_with_the_others():
    assert set(CLOSED_LOOP) == {"wrk", "ab"} and closed_loop("ab") is ab
    with pytest.raises(ValueError, match="no closed-loop driver 'jmeter': one of wrk, ab"):
        closed_loop("jmeter")


def test_a_window_becomes_each_drivers_command_with_its_body_as_an_input_file(tmp_path):
    echo = registry.request("soap-php", "echo-10")
    kept = Window(echo, 5, 100, keepalive=True, latency=True, timeout_s=2.5)
    argv, inputs = ab.invocation(kept, tmp_path)
    assert argv[argv.index("-c") + 1] == "100" and argv[argv.index("-t") + 1] == "5" and "-k" in argv
    assert argv[argv.index("-s") + 1] == "3" and argv[argv.index("-n") + 1] == str(5 * ab.MOST_REPLIES_PER_S)
    assert inputs == {Path(tmp_path) / "ab-body.txt": echo.body} and argv[argv.index("-p") + 1] == str(tmp_path / "ab-body.txt")
    assert argv[argv.index("-T") + 1] == "text/xml; charset=utf-8" and "SOAPAction: \"\"" in argv and argv[-1] == echo.url
    argv, inputs = wrk.invocation(kept, tmp_path)
    assert argv[:4] == ["wrk", "-t1", "-c100", "-d5s"] and "--latency" in argv and "--timeout=2.5s" in argv
    assert "Connection: close" not in argv and echo.body in inputs[Path(tmp_path) / "wrk-post.lua"]
    get = Window(registry.request("php", "single"), 2, 4)
    argv, inputs = ab.invocation(get, tmp_path)
    assert "-k" not in argv and "-p" not in argv and inputs == {}
    argv, inputs = wrk.invocation(get, tmp_path)
    assert argv[argv.index("-H") + 1] == "Connection: close" and inputs == {}
    with pytest.raises(ValueError, match="GET or POST"):
        ab.invocation(Window(registry.Request("PUT", 1, "/"), 1, 1), tmp_path)


def updates_of(*ids, engine="myisam"):
    return tuple(registry.request("php", "update", id=each, engine=engine) for each in ids)


def test_a_drawing_workloads_requests_make_one_httperf_session_per_connection_taken_in_turn():
    update = registry.request("php", "update")
    drawn = updates_of(1, 2, 3)
    text = httperf.session_file_text(update, drawn=drawn)
    assert text == "\n".join(f"/update.php?id={number}&engine=myisam method=POST contents=''\n" for number in (1, 2, 3))
    kept = httperf.session_file_text(update, calls=2, drawn=updates_of(1, 2, 3, 4))
    assert [session.count("method=POST") for session in kept.split("\n\n")] == [2, 2]
    assert kept.split("\n\n")[1].startswith("/update.php?id=3&")
    # Fewer requests than calls: one session, the requests in turn.
    one = httperf.session_file_text(update, calls=5, drawn=drawn[:2])
    assert "\n\n" not in one and [line.split("=")[1][0] for line in one.splitlines()] == list("12121")


def test_a_mixs_reads_are_gets_without_a_body_among_its_posts_and_owe_no_update():
    drawn = registry.drawn_requests("php", "mixed-25", "innodb", "a mix")
    sessions = httperf.sessions_of(registry.request("php", "mixed-25"), 1, drawn)
    lines = httperf.sessions_text(sessions).split("\n\n")
    assert [line.split(" ", 1)[1].strip() for line in lines[:4]] == ["method=GET"] * 3 + ["method=POST contents=''"]
    assert lines[0].startswith("/single.php?id=") and lines[3].startswith("/update.php?id=")
    # 1,000 sessions hold 250 writes: 2,500 connections owe 625, the 2,501st one more read.
    assert httperf.updates_owed(sessions, 2500) == (625, 1) == httperf.updates_owed(sessions, 2501)
    assert httperf.updates_owed(sessions, 4) == (1, 1) and httperf.updates_owed(sessions, 3) == (0, 1)
    reads = httperf.sessions_of(registry.request("php", "mixed-0"), 1, registry.drawn_requests("php", "mixed-0", "innodb", "x"))
    assert httperf.updates_owed(reads, 5000) == (0, 0)


def test_wrk_takes_a_drawing_workloads_requests_in_turn_and_ab_refuses_them(tmp_path):
    drawn = updates_of(7, 9, engine="innodb")
    window = Window(registry.request("php", "update", engine="innodb"), 2, 4, drawn=drawn)
    argv, inputs = wrk.invocation(window, tmp_path)
    script = inputs[Path(tmp_path) / "wrk-post.lua"]
    assert argv[argv.index("-s") + 1] == str(tmp_path / "wrk-post.lua") and 'wrk.method = "POST"' in script
    assert all(f'{{"POST", [==[{each.path}]==]}},' in script for each in drawn) and "request = function()" in script
    mixed = Window(registry.request("php", "single"), 2, 4, drawn=(registry.request("php", "single", id=1), drawn[0]))
    script = wrk.invocation(mixed, tmp_path)[1][Path(tmp_path) / "wrk-post.lua"]
    assert '{"GET", [==[/single.php?id=1&engine=myisam]==]},' in script and "requests[taken][1]" in script
    with pytest.raises(ValueError, match="ab sends one URL"):
        ab.invocation(window, tmp_path)


def test_oha_reads_a_posts_body_from_a_file_and_a_get_sends_none():
    echo = registry.request("soap-gsoap", "echo-1000")
    command = oha.command("oha", echo, 50, 250, 10, 900, "requests.sqlite", "body.txt")
    assert command[command.index("-D") + 1] == "body.txt" and "-d" not in command
    assert command[command.index("-c") + 1] == "500" and command[-1] == echo.url
    get = oha.command("oha", registry.request("php", "single"), 500, 2500, 2, 900, "requests.sqlite", "body.txt")
    assert "-D" not in get and get[get.index("-c") + 1] == "900"


def test_every_open_loop_driver_gives_the_figures_the_judge_reads_in_the_lab_s_words():
    recorded = json.loads((FIXTURES / "oha" / "php-myisam-single-1500.json").read_text())
    by_oha = oha.figures(recorded["report"], 1500, 7500, recorded["reply_ends"])
    by_httperf = httperf.figures((FIXTURES / "httperf" / "php-single-normal.txt").read_text())
    for figures in (by_oha, by_httperf):
        assert set(JUDGED) <= set(figures)
    # httperf's own figures are the lab's step columns, in their order: a step's row keeps its bytes.
    assert [name for name in STEP_FIGURES if name in httperf.FIGURES] == httperf.FIGURES
    assert {binding.LOOP for binding in DRIVERS.values()} == {"open", "closed"}
    assert sorted(CLOSED_LOOP) == sorted(name for name, binding in DRIVERS.items() if binding.LOOP == "closed")


def test_a_session_file_defines_at_most_the_thousand_sessions_httperf_takes():
    drawn = updates_of(*range(1, 16001))
    text = httperf.session_file_text(registry.request("php", "update"), drawn=drawn)
    assert text.count("method=POST") == httperf.MOST_SESSIONS == 1000
    assert text.rstrip().endswith("/update.php?id=1000&engine=myisam method=POST contents=''")
