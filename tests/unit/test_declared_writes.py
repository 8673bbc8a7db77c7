"""A write workload is one declaration: what it sends, how its answer is checked, the work it owes, the
grants it needs and what runs before a run and between its steps (harness/run/workload_hooks.py). A
fake one, "bump" (a row's version raised twice, the tables' versions reset before each step), is one
entry in a registry value of the test's own and its path for PHP, with nothing patched; it is planned,
stepped around the hooks it declares, judged from the tally driver's recorded outputs and reported as
the declared read workload of test_declared_only.py is."""
import copy

import pytest

from harness.judge.steps import Observed, Rules, judged, planned
from harness.report import writes
from harness.report.tables import study_figures, summary_markdown, summary_rows
from harness.results.records import FAIL, LOCATED, PASS, CellKey
from harness.results.saturation import summarize
from harness.run import verify, workload_hooks
from harness.run.context import RunContext
from stack import lab, registry, targets, workload_names
from stack.settings import ROOT
from tests.unit.test_declared_only import PAIR_PROFILE, RECORDED, TALLY, recorded_run, reported

BUMP = {"title": "one row's version raised twice", "short_title": "two bumps", "writes": True,
        "grants": {"UPDATE": ["ver"]}, "check": "versioned", "between_steps": ["reset_versions"],
        "around_steps": ["versions"], "selects": {"column": "id", "operator": "=", "parameter": "id"},
        "work": {"selects": 1, "rows": 3, "updates": 2, "rows_changed": 2}}
KEY = CellKey("php", "myisam", "bump")


def registry_with(**workloads):
    value = copy.deepcopy(targets.registry())
    value["workloads"].update(workloads)
    value["apps"]["php"]["workloads"]["bump"] = {"method": "POST", "path": "/bump.php?id={id}&engine={engine}"}
    return value


class Tables:
    """The database server's named calls that the hooks make, over the sum of the tables' versions,
    which a step's replies raise by `raised_per_reply` each."""

    def __init__(self, versions, raised_per_reply=2):
        self.sum, self.raised_per_reply, self.calls = versions, raised_per_reply, []

    def reset_versions(self):
        self.calls.append("reset_versions")
        self.sum = 0

    def versions(self):
        self.calls.append("versions")
        return self.sum

    def replied(self, replies):
        self.sum += self.raised_per_reply * replies


def stepped(context, tables):
    """The bump cell's steps, each held in its declared hooks and judged from tally's recorded output."""
    taken = []
    for number, (rate, (output, replies)) in enumerate(RECORDED.items(), start=1):
        plan = planned(number, rate, context.plan, PAIR_PROFILE, sessions=False, suffix="txt")
        figures = TALLY.figures(output)
        with workload_hooks.around_step(KEY.workload, tables) as hooked:
            tables.replied(replies)
        watched = {"db_selects": replies, "db_rows_read": 3 * replies, "db_updates": 2 * replies,
                   "db_rows_changed": 2 * replies, "db_connections": replies, **hooked}
        seen = Observed([(rate, plan.requests, output, False, figures)], figures, watched, wall_s=3.0)
        taken.append(judged(plan, seen, Rules(context.thresholds, declared_work=registry.database_work(KEY.app, KEY.workload)), 1))
    return taken


def test_a_declared_write_workload_is_planned_stepped_around_its_hooks_judged_and_reported(tmp_path):
    run, manifest, context = recorded_run(tmp_path / "bump-run")
    with targets.given(registry_with(bump=BUMP)):
        assert workload_names.writes(KEY.workload) and KEY.workload in workload_names.write_workloads()
        assert KEY in RunContext.of(("php",), workloads=("single", "bump")).selection.cells
        assert registry.database_work(KEY.app, KEY.workload)["updates"] == 2
        tables = Tables(versions=32_000)
        steps = stepped(context, tables)
        # Each step: the reset, then SUM(ver) read until two readings agree, before and after it.
        assert tables.calls == ["reset_versions", "versions", "versions", "versions", "versions"] * 3
        assert [step.figures["db_versions_raised"] for step in steps] == [3000, 6000, 6600]
        assert [(step.verdict, step.work_missing) for step in steps] == [(PASS, ""), (PASS, ""), (FAIL, "")]
        row = summarize(KEY, steps, restarts=0)
        assert (row.status, row.saturation_offered, row.work_missing_steps) == (LOCATED, 1000, 0)
        view = reported(run, manifest, KEY, steps, row)
        markdown = summary_markdown(view, summary_rows(view, study_figures()))
        waited = writes.write_lines(view)
    section = markdown.partition("## one row's version raised twice, MyISAM")[2].split("\n## ")[0]
    assert "| PHP (Apache + mod_php) | 1,000.0 |" in section
    assert waited[0] == "## What the writes waited for" and any(line.startswith("| php/myisam/bump | 1 |") for line in waited)


def test_a_step_whose_replies_wrote_less_than_its_declaration_owes_is_flagged():
    context = RunContext.of(("php",), duration_s=3)  # tally's recorded steps were 3 s long
    with targets.given(registry_with(bump=BUMP)):
        steps = stepped(context, Tables(versions=0, raised_per_reply=1))
    assert steps[0].work_missing.startswith("database work missing: writes lost: the versions rose by 1500, "
                                            "the 1500 2xx replies owe at least 3000")


def test_what_runs_before_a_run_runs_once_however_many_workloads_declare_it():
    once = {**BUMP, "before_run": ["reset_versions"]}
    tables = Tables(versions=5)
    with targets.given(registry_with(bump=once, bump2=once)):
        assert workload_hooks.before_run(["single", "bump", "bump2"], tables) == ["reset_versions"]
    assert tables.calls == ["reset_versions"] and tables.sum == 0


def test_a_hook_no_phase_knows_is_refused_by_name():
    with targets.given(registry_with(bump={**BUMP, "around_steps": ["versions", "locks"]})):
        with pytest.raises(ValueError, match="workload bump declares around_steps 'locks', which is none of versions"):
            workload_hooks.hooks(KEY.workload, "around_steps")
    assert workload_hooks.problems({"bump": {"between_steps": ["versions"]}}) == [
        "workload bump declares between_steps 'versions', which is none of reset_versions"]


def test_the_contracts_workloads_declare_known_hooks_and_checks_and_need_ver_alone():
    declared = targets.registry()["workloads"]
    assert workload_hooks.problems(declared) == []
    assert {workload_names.answer_check(name) for name in [*workload_names.workloads(), "update", "updates-3", "mixed-10", "echo-3"]} == {
        "rows", "versioned", "drawn_ids", "echo"} <= set(verify.ANSWER_CHECKS)
    assert [name for name in declared if workload_hooks.declared_names(name, "around_steps") == ["versions"]] == \
        workload_names.write_workloads()
    assert lab.declared_grants(declared) == {"UPDATE": ["ver"]}
    assert "GRANT UPDATE (ver) ON lab.people_innodb TO 'lab_app'@'127.0.0.1';" in lab.grant_statements("pw", declared)


@pytest.mark.parametrize("grants", [{"UPDATE": ["nameLast"]}, {"DELETE": ["ver"]}, {"UPDATE": ["ver", "weight"]}])
def test_a_workload_may_not_be_granted_more_than_the_version_column(grants):
    with pytest.raises(ValueError, match="may be granted only UPDATE of ver, which no page shows"):
        lab.declared_grants({"bump": {**BUMP, "grants": grants}})


class Rows:
    """The database server's named read of the rows a workload selects: `held`, whatever is asked."""

    def __init__(self, held):
        self.held, self.asked = held, []

    def rows(self, engine, selects=None, limit=None):
        self.asked.append((engine, selects))
        return self.held


def test_a_declared_write_workloads_answer_is_checked_as_its_declaration_says():
    recorded = (ROOT / "tests" / "fixtures" / "answers" / "soap-update-id-100.xml").read_text()
    database = Rows(verify.soap_rows(recorded))
    with targets.given(registry_with(bump=BUMP)):
        check = verify.ANSWER_CHECKS[workload_names.answer_check(KEY.workload)]
        assert check("soap", 200, recorded, KEY.workload, database, "myisam") == (True, "1 rows equal to the database")
        unraised = recorded.replace("<ver>7</ver>", "<ver>0</ver>")
        assert check("soap", 200, unraised, KEY.workload, database, "myisam") == (
            False, "version '0' is not one an update raised")
    assert database.asked == [("myisam", ["id", "=", "100"])] * 2
