"""The database's own count of each step's work, on the live stack: a short sweep of the caching
test app (cached-php: single.php's page kept in a file) beside the app it cheats on (php), on both
engines. The cheat is flagged on every step and gets no figure; the honest app is flagged on none and
shows MariaDB running 1 SELECT and reading 1 row per reply. The same for the writes: an update page
that writes nothing (unwritten-update-php) and one that writes twice (twice-update-php) beside php's,
whose versions rise by exactly what its replies owe, alone and mixed half and half with reads."""
import pytest

from harness.judge.database_work import FLAG
from harness.results.records import PASS, WORK_MISSING
from harness.results.store import read_steps, read_summaries
from stack import registry
from tests.integration.conftest import fetch
from tests.integration.test_sweep import short, sweep


CHEATS = ["cached-php", "unwritten-update-php", "twice-update-php"]
MIXED = "mixed-50"


def test_the_cheating_apps_are_in_no_set_and_not_among_the_labs_apps():
    assert registry.test_only_apps() == CHEATS
    assert not set(CHEATS) & set(registry.apps())
    assert not any(set(CHEATS) & set(members) for members in registry.sets().values())


def test_a_cache_is_flagged_on_every_step_on_both_engines_and_an_honest_app_on_none(stack, tmp_path):
    files = sweep(tmp_path, "work", short(apps=("cached-php", "php"), engines=("myisam", "innodb"), max_steps=2))
    rows = {(row.app, row.engine): row for row in read_summaries(files.saturation)}
    assert set(rows) == {(app, engine) for app in ("cached-php", "php") for engine in ("myisam", "innodb")}
    for engine in ("myisam", "innodb"):
        cheat, honest = rows[("cached-php", engine)], rows[("php", engine)]
        steps = read_steps(files.cell_steps(cheat.key))
        assert steps and all(step.work_missing.startswith(FLAG) for step in steps), engine
        assert all(step.figures["db_selects"] <= 1 and step.figures["status_2xx"] > 100 for step in steps)
        assert cheat.status == WORK_MISSING and cheat.saturation_rps is None and cheat.work_missing_steps == len(steps)
        assert cheat.db_selects_per_reply_saturation < 0.01 and "not the app's" in cheat.note

        steps = read_steps(files.cell_steps(honest.key))
        assert steps and not any(step.work_missing for step in steps), engine
        for step in steps:
            # Never less; more where requests timed out at the client after their SELECT (a failing step).
            work = step.database_work()
            assert work["selects"] >= 1 and work["rows"] >= 1 and work["connections"] >= 0.99, step
            if step.verdict == PASS:
                assert work["selects"] < 1.01 and work["rows"] < 1.01, step
        assert honest.status != WORK_MISSING and honest.saturation_rps
        assert honest.db_selects_per_reply_saturation == honest.db_rows_per_reply_saturation == 1.0


def test_an_update_not_done_or_done_twice_is_flagged_on_both_engines_and_an_honest_one_never(stack, tmp_path):
    apps = ("unwritten-update-php", "twice-update-php", "php")
    files = sweep(tmp_path, "writes", short(apps=apps, engines=("myisam", "innodb"), workloads=("update", MIXED),
                                            max_steps=1))
    rows = {(row.app, row.engine, row.workload): row for row in read_summaries(files.saturation)}
    assert set(rows) == {(app, engine, workload) for app in apps for engine in ("myisam", "innodb")
                         for workload in ("update", MIXED)}
    for engine in ("myisam", "innodb"):
        for cheat, why in (("unwritten-update-php", "writes lost"), ("twice-update-php", "writes done twice")):
            row = rows[(cheat, engine, MIXED)]
            steps = read_steps(files.cell_steps(row.key))
            assert steps and all(why in step.work_missing or "updates per reply" in step.work_missing
                                 for step in steps), (cheat, engine, MIXED)
            assert row.status == WORK_MISSING and row.saturation_rps is None, (cheat, engine, MIXED)
            row = rows[(cheat, engine, "update")]
            steps = read_steps(files.cell_steps(row.key))
            assert steps and all(step.work_missing.startswith(FLAG) for step in steps), (cheat, engine)
            assert all(why in step.work_missing or "updates per reply" in step.work_missing for step in steps)
            assert row.status == WORK_MISSING and row.saturation_rps is None, (cheat, engine)
        unwritten = read_steps(files.cell_steps(rows[("unwritten-update-php", engine, "update")].key))
        assert all(step.figures["db_versions_raised"] == 0 and step.figures["status_2xx"] > 20 for step in unwritten)
        twice = read_steps(files.cell_steps(rows[("twice-update-php", engine, "update")].key))
        assert all(step.figures["db_versions_raised"] >= 2 * step.figures["status_2xx"] > 40 for step in twice)

        honest = rows[("php", engine, "update")]
        steps = read_steps(files.cell_steps(honest.key))
        assert steps and not any(step.work_missing for step in steps), engine
        for step in steps:  # every 2xx wrote once; a request that timed out may have written too
            assert step.figures["status_2xx"] <= step.figures["db_versions_raised"] <= step.figures["requests"], step
            # The disk under the data, watched over the step; InnoDB's commits reached it as flushes.
            assert 0 <= step.figures["db_disk_busy_share"] <= 1.05 and step.figures["db_disk_writes"] >= 0, step
            assert engine == "myisam" or step.figures.get("db_disk_flushes", 1) > 0, step
        assert honest.status != WORK_MISSING and honest.saturation_rps
        assert honest.db_updates_per_reply_saturation == honest.db_rows_changed_per_reply_saturation == 1.0
        mixed = rows[("php", engine, MIXED)]
        steps = read_steps(files.cell_steps(mixed.key))
        assert steps and not any(step.work_missing for step in steps), (engine, MIXED)
        for step in steps:  # its own requests owe half as many updates, less those left unanswered
            owed, unanswered = step.figures["updates_owed"], step.num_conns - step.figures["status_2xx"]
            assert owed - unanswered <= step.figures["db_versions_raised"] <= owed, step
            assert abs(owed - step.num_conns / 2) <= 1, step
        assert mixed.status != WORK_MISSING and mixed.saturation_rps
        assert mixed.db_updates_per_reply_saturation == pytest.approx(0.5, abs=0.01)


def test_the_cache_answers_only_a_get_of_its_canonical_query_and_hostile_input_still_gets_its_4xx(stack):
    port, page = registry.port_of("cached-php"), "/cached-single.php"
    first = fetch(port, f"{page}?id=100&engine=innodb")
    assert first.status == 200 and fetch(port, f"{page}?id=100&engine=innodb").body == first.body
    assert fetch(port, f"{page}?id=100&engine=innodb&id=100").status == 400
    assert fetch(port, f"{page}?id=100&engine=innodb", method="POST", body=b"").status == 405
    assert fetch(port, f"{page}?id=abc&engine=innodb").status == 400
    assert fetch(port, f"{page}?id=99999&engine=innodb").status == 404
