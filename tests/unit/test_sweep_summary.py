"""The saturation row a cell's steps imply, and the httperf command each request becomes."""
import measure
import sweep
from stack import registry


def step(rate, verdict, reply, response=5.0):
    return {"offered_rate": str(rate), "verdict": verdict, "reply_rate": str(reply),
            "response_time_ms": str(response), "transfer_time_ms": "0.5",
            "apache_cpu_s": "1.5", "mariadb_cpu_s": "0.5"}


def test_saturation_is_the_best_passing_reply_rate_and_overload_the_lowest_failure_above():
    steps = [step(100, "pass", 99.8, 2.0), step(200, "pass", 199.5, 3.0), step(400, "fail", 250.0),
             step(283, "fail", 260.0), step(238, "pass", 237.1, 9.0), step(260, "fail", 255.0)]
    row = sweep.summarize("php", "myisam", "single", steps, restarts=1)
    assert row["status"] == "located"
    assert row["saturation_rps"] == 237.1 and row["saturation_offered"] == 238
    assert row["overload_offered"] == 260
    assert (row["reply_ms_low"], row["reply_ms_saturation"]) == (2.5, 9.5)
    assert row["server_cpu_s_saturation"] == 2.0 and row["restarts"] == 1


def test_a_client_bound_ceiling_is_a_lower_bound_never_a_saturation_point():
    row = sweep.summarize("php", "myisam", "single",
                          [step(2000, "pass", 1999.0), step(3000, "invalid", 0)], restarts=0)
    assert row["status"] == "client-bound" and "overload_offered" not in row
    assert row["note"].startswith(">= 1999.0 req/s, client-bound")


def test_no_passing_step_reports_no_saturation():
    row = sweep.summarize("soap", "innodb", "large", [step(2, "fail", 0.5)], restarts=0)
    assert row["status"] == "no-pass" and "saturation_rps" not in row


def test_step_timeout_keeps_rate_times_timeout_within_the_descriptor_budget():
    assert measure.step_timeout(10, 10) == 10
    assert measure.step_timeout(3000, 2) * 3000 <= measure.FD_BUDGET


def test_get_and_soap_requests_become_httperf_commands():
    get = measure.httperf_command(registry.request("php", "single"), 250, 1500, 2)
    assert get[0] == "httperf" and "--hog" not in get and "--num-conns" in get and "/single.php?id=100&engine=myisam" in get
    soap = registry.request("soap", "large", engine="innodb")
    post = measure.httperf_command(soap, 5, 30, 10, "session.txt")
    assert "--wsesslog" in post and post[post.index("--wsesslog") + 1] == "30,0,session.txt"
    assert post[-1] == 'Content-Type: text/xml; charset=utf-8\\nSOAPAction: ""\\n'
    session = measure.session_file_text(soap)
    assert session.startswith("/soap/services/PlayerService method=POST contents='<?xml")
    assert "<lab:engine>innodb</lab:engine>" in session


def test_without_time_wait_reuse_a_step_waits_until_its_connections_fit_in_the_free_ports():
    assert measure.ports_free_for(9000, time_wait=10000, port_range=28232, reuse=0)
    assert not measure.ports_free_for(9000, time_wait=20000, port_range=28232, reuse=0)
    assert measure.time_wait_sockets() >= 0 and measure.local_port_range() > 1000


def test_with_time_wait_reuse_on_loopback_a_step_never_waits_for_ports():
    assert measure.ports_free_for(9000, time_wait=50000, port_range=28232, reuse=2)
    assert measure.tw_reuse() in (0, 1, 2)


def test_the_eta_counts_the_current_cell_and_the_cells_left_at_their_measured_length():
    assert sweep.estimate_eta(cells_left=3, cell_walls=[], steps_in_cell=2, step_walls=[10, 10]) == 6 * 10 + 3 * 80
    assert sweep.estimate_eta(cells_left=2, cell_walls=[50, 70], steps_in_cell=9, step_walls=[7]) == 2 * 60
    assert sweep.estimate_eta(cells_left=5, cell_walls=[], steps_in_cell=0, step_walls=[]) == 0
