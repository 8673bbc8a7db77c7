"""What ran out first in a cell: on the recorded run full6, where every cell's servers' CPU was busy
at saturation, and on that run's steps with one measured figure changed to each other cause. full6
recorded only its servers' ports, so its cells are judged by a later run's registry (titles,
database, pools), and by full6's own as it is, which names no database and no pool."""
import dataclasses

from harness.judge.bottleneck import (ACCEPT_QUEUE, CLIENT, CPU, DATABASE, DISK, LINK, POOL, ROW_LOCK, TABLE_LOCK,
                                     UNEXPLAINED, bottleneck)
from harness.results import store
from harness.results.manifest import Manifest
from harness.results.records import CLIENT_BOUND, NO_PASS, PLAN_LIMIT, CellKey
from stack.settings import ROOT

RUN = store.load_run(ROOT / "tests" / "fixtures" / "results" / "full6")
CELL = CellKey("pooled-servlet", "myisam", "single")
SUMMARY = next(row for row in RUN.saturation if row.key == CELL)
LATER = Manifest.read(ROOT / "tests" / "fixtures" / "reproduce-study2006-epyc" / "round-1" / "fig-6.1-20-myisam"
                      / "manifest.json")


def declared(manifest=RUN.manifest, server_cpus="1", registry=LATER.data["registry"]):
    """full6's manifest, its servers on `server_cpus`, with `registry` as the servers it declared."""
    return Manifest({**manifest.data, "pinning": {**manifest.pinning, "server_cpus": server_cpus},
                     "registry": registry})


FULL6 = declared()


def idle_servers(steps, **figures):
    """The cell's steps as if the servers had used a third of their CPU, plus the given figures."""
    changed = []
    for step in steps:
        scaled = {name: value / 3 if name.endswith("_cpu_s") else value for name, value in step.figures.items()}
        changed.append(dataclasses.replace(step, figures={**scaled, **figures}))
    return changed


def test_every_recorded_cell_ran_out_of_server_cpu_with_the_busy_share_named():
    for summary in RUN.saturation:
        name, why = bottleneck(summary, RUN.steps[summary.visit], FULL6)
        assert name == CPU, (summary.key, why)
    name, why = bottleneck(SUMMARY, RUN.steps[SUMMARY.visit], FULL6)
    assert why.startswith("servers' CPU 94 % busy at 4746 req/s offered (Tomcat 3.8 s, mariadbd 1.9 s")


def test_the_same_cpu_seconds_on_two_server_cores_are_not_a_cpu_bottleneck():
    # full6 predates the network and pool columns: nothing else can explain it.
    name, why = bottleneck(SUMMARY, RUN.steps[SUMMARY.visit], declared(server_cpus="0,1"))
    assert name == UNEXPLAINED
    assert "at most 49 % busy" in why  # the failing step above saturation: 98 % of one core


def test_the_database_when_mariadbd_used_most_of_a_busy_cpu():
    steps = [dataclasses.replace(step, figures={**step.figures, "mariadb_cpu_s": 4.0, "tomcat_cpu_s": 1.7})
             for step in RUN.steps[SUMMARY.visit]]
    name, why = bottleneck(SUMMARY, steps, FULL6)
    assert name == DATABASE and "(mariadbd 4.0 s, Tomcat 1.7 s)" in why


def test_requests_waiting_for_the_pool_explain_an_idle_cpu():
    name, why = bottleneck(SUMMARY, idle_servers(RUN.steps[SUMMARY.visit], pool_waiting_max=12.0), FULL6)
    # The pooled servlet's pool, as its server's declaration names it.
    assert name == POOL and why.startswith("up to 12 requests waited for HikariCP's connections (POOL_SIZE) at "
                                           "4746 req/s offered")


def test_a_pool_is_named_by_its_servers_declaration_and_a_server_without_one_by_default():
    assert LATER.pool_what("soap-gsoap") == "gSOAP's database connections (POOL_SIZE)"
    assert LATER.pool_what("php-fpm") == "PHP-FPM's workers (PHP_FPM_WORKERS)"
    assert LATER.pool_what("soap-php-lighttpd") == "Lighttpd's PHP-FPM workers (LIGHTTPD_PHP_WORKERS)"
    assert LATER.pool_what("php") == "a connection"


def test_a_run_is_judged_by_the_servers_it_declared_not_by_todays():
    # full6 as recorded: no server titles, no database server, no pools; the report judges such a run by
    # today's declarations instead (report/tables.py).
    assert LATER.declares_servers and not RUN.manifest.declares_servers
    as_recorded = declared(registry=RUN.manifest.data["registry"])
    steps = [dataclasses.replace(step, figures={**step.figures, "mariadb_cpu_s": 4.0, "tomcat_cpu_s": 1.7})
             for step in RUN.steps[SUMMARY.visit]]
    name, why = bottleneck(SUMMARY, steps, as_recorded)
    assert name == CPU and "(mariadb 4.0 s, tomcat 1.7 s)" in why
    name, why = bottleneck(SUMMARY, idle_servers(RUN.steps[SUMMARY.visit], pool_waiting_max=12.0), as_recorded)
    assert name == POOL and why.startswith("up to 12 requests waited for a connection at")


def test_refused_connections_and_full_listen_queues_explain_an_idle_cpu():
    name, _ = bottleneck(SUMMARY, idle_servers(RUN.steps[SUMMARY.visit], db_refused_max_connections=40.0), FULL6)
    assert name == DATABASE
    name, why = bottleneck(SUMMARY, idle_servers(RUN.steps[SUMMARY.visit], tcp_listen_overflows=900.0), FULL6)
    assert name == ACCEPT_QUEUE and "900 connections dropped" in why


def test_an_idle_cpu_with_nothing_exhausted_is_unexplained():
    name, why = bottleneck(SUMMARY, idle_servers(RUN.steps[SUMMARY.visit], tcp_listen_overflows=0.0), FULL6)
    assert name == UNEXPLAINED and "at most 33 %" in why


def test_client_bound_cells_name_the_client_and_unmeasured_ones_nothing():
    assert bottleneck(dataclasses.replace(SUMMARY, status=CLIENT_BOUND), RUN.steps[SUMMARY.visit], FULL6)[0] == CLIENT
    assert bottleneck(dataclasses.replace(SUMMARY, status=NO_PASS), RUN.steps[SUMMARY.visit], FULL6) == ("", "")


def test_the_saturation_step_is_found_by_its_rate_as_saturation_tsv_rounds_it():
    # A reply rate httperf did not sample (replies over the duration) has more than two decimals.
    steps = [dataclasses.replace(step, figures={**step.figures, "reply_rate": SUMMARY.saturation_rps + 0.0031})
             if step.offered_rate == SUMMARY.saturation_offered else step for step in RUN.steps[SUMMARY.visit]]
    name, why = bottleneck(dataclasses.replace(SUMMARY, status=PLAN_LIMIT, overload_offered=None), steps, FULL6)
    assert name == CPU and "at 4746 req/s offered" in why


def test_a_full_collection_in_a_telling_step_is_named_beside_the_bottleneck():
    steps = [dataclasses.replace(step, figures={**step.figures, "tomcat_gc_full_n": 1.0, "tomcat_gc_full_s": 1.27,
                                                "tomcat_gc_young_n": 40.0, "tomcat_gc_young_s": 0.9})
             for step in RUN.steps[SUMMARY.visit]]
    name, why = bottleneck(SUMMARY, steps, FULL6)
    assert name == CPU and why.startswith("servers' CPU 94 % busy at 4746 req/s offered")
    assert "; Tomcat stopped 1.27 s for 1 full collection(s) at 4746 req/s offered (its timeout" in why
    assert "young" not in why
    quiet = [dataclasses.replace(step, figures={**step.figures, "tomcat_gc_full_n": 0.0, "tomcat_gc_full_s": 0.0})
             for step in RUN.steps[SUMMARY.visit]]
    assert "collection" not in bottleneck(SUMMARY, quiet, FULL6)[1]


def test_a_shaped_link_full_of_replies_is_the_bottleneck_before_the_cpu():
    # Run net-100mbit: the 2.35 MB page through 100 Mbit links at 5.0 req/s, the servers' CPU 12-19 % busy.
    link_run = store.load_run(ROOT / "tests" / "fixtures" / "results" / "net-100mbit")
    link = link_run.manifest.link_bits_per_s
    assert link == 100e6
    for summary in link_run.saturation:
        name, why = bottleneck(summary, link_run.steps[summary.visit], link_run.manifest)
        if summary.key.app == "soap":
            # 1.4 replies/s of 4.58 MB is half the link: that cell's figure was httperf's one 5 s
            # sample reading low (harness/drivers/httperf.py reply_rate), not the link.
            assert name == UNEXPLAINED, why
        else:
            assert name == LINK and why.startswith("the replies carried 94 % of the 100 Mbit/s link"), why
    # Unshaped, nothing names the link.
    php = next(row for row in link_run.saturation if row.key.app == "php")
    unshaped = Manifest({**link_run.manifest.data, "topology": {"mode": "loopback"}})
    assert bottleneck(php, link_run.steps[php.visit], unshaped)[0] == UNEXPLAINED


UPDATES = store.load_run(ROOT / "reference-runs" / "update-study-xeon-20261202")


def update_cell(app, engine):
    summary = next(row for row in UPDATES.saturation if row.key == CellKey(app, engine, "update"))
    return summary, UPDATES.steps[summary.visit]


def test_a_writes_busy_cpu_is_still_the_cpu_and_its_waits_name_what_runs_out_once_the_cpu_is_idle():
    # The kept first update run (every request on id 100, Intel Xeon): the servers' CPU was busy at
    # saturation in each cell, so that is what it names.
    for app, engine in (("servlet", "innodb"), ("pooled-servlet", "innodb"), ("php", "myisam")):
        summary, steps = update_cell(app, engine)
        assert bottleneck(summary, steps, UPDATES.manifest)[0] in (CPU, DATABASE), (app, engine)
    # The same steps with their CPU a third as busy: one row's lock queued the servlet's updates on
    # InnoDB (2,868 waits for 3,460 replies at 692 req/s), ...
    summary, steps = update_cell("servlet", "innodb")
    name, why = bottleneck(summary, idle_servers(steps), UPDATES.manifest)
    assert name == ROW_LOCK and why.startswith("0.83 row lock waits per reply, 269.1 ms each, at 692 req/s offered"), why
    # ... the pooled servlet's commits waited for InnoDB's fsyncs with few lock waits, ...
    summary, steps = update_cell("pooled-servlet", "innodb")
    name, why = bottleneck(summary, idle_servers(steps), UPDATES.manifest)
    assert name == DISK and " InnoDB fsyncs per reply, the disk busy 0% of the step, at " in why, why
    # A disk busy with I/O for most of the step is the disk's, however few fsyncs a reply took.
    name, why = bottleneck(summary, idle_servers(steps, db_fsyncs=0, db_disk_busy_share=0.93), UPDATES.manifest)
    assert name == DISK and why.startswith("0.00 InnoDB fsyncs per reply, the disk busy 93% of the step, at "), why
    # ... and PHP's MyISAM updates waited for the table's lock, which InnoDB never takes.
    summary, steps = update_cell("php", "myisam")
    name, why = bottleneck(summary, idle_servers(steps), UPDATES.manifest)
    assert name == TABLE_LOCK and " table lock waits per reply at " in why, why
