"""A new workload and a new open-loop driver, each declared and nothing more, run through the plan, the
stepper's pure halves on the driver's recorded outputs, and the run's summary: the lists of
docs/architecture.md ("What a change touches") for a workload and a driver, proved.

The workload, two rows by id, is one entry in a registry value of the test's own (given for the block,
nothing patched) and its path for PHP; the driver, "tally", is a binding in the drivers' one
interface: a name, its loop, and its output read as a step's figures in the lab's words."""
import copy
import json
import shutil
from types import SimpleNamespace

from harness.judge.steps import Observed, Rules, judged, planned
from harness.report.tables import study_figures, summary_markdown, summary_rows
from harness.report.view import View
from harness.results.figures import JUDGED
from harness.results.records import FAIL, LOCATED, PASS, CellKey
from harness.results.saturation import summarize
from harness.results.store import RunFiles, load_run, read_summaries, write_steps, write_summaries
from harness.run.context import Profile, RunContext
from stack import registry, targets
from stack.settings import ROOT

PAIR = {"title": "two rows by id", "short_title": "two rows",
        "selects": {"column": "id", "operator": "<=", "parameter": "id"}, "work": {"selects": 1, "rows": 2}}
PAIR_PROFILE = Profile(start=100, timeout_s=2, linear_step=100, linear_max=5000, probe_connections=16,
                       warmup_window_s=2)


def tally_figures(text):
    """The tally driver's report, one "name value" a line, as the lab's figures."""
    counted = dict(line.split() for line in text.splitlines() if line.strip())
    figures = {name: float(value) for name, value in counted.items()}
    return {**figures, "status_2xx": figures["replies"], "status_4xx": 0.0, "status_5xx": 0.0, "client_timo": 0.0,
            "request_rate": figures["connections"] / figures["test_duration_s"],
            "reply_rate": figures["replies"] / figures["test_duration_s"]}


TALLY = SimpleNamespace(NAME="tally", LOOP="open", figures=tally_figures)
# What tally printed at each offered rate, and what MariaDB counted meanwhile: 3 s steps, the last overloaded.
RECORDED = {500: ("connections 1500\nreplies 1500\nerrors_total 0\ntest_duration_s 3.0\n", 1500),
            1000: ("connections 3000\nreplies 3000\nerrors_total 0\ntest_duration_s 3.0\n", 3000),
            1500: ("connections 4500\nreplies 3300\nerrors_total 1200\ntest_duration_s 3.0\n", 3300)}


def registry_with_pair():
    value = copy.deepcopy(targets.registry())
    value["workloads"]["pair"] = PAIR
    value["apps"]["php"]["workloads"]["pair"] = {"method": "GET", "path": "/pair.php?id={id}&engine={engine}"}
    return value


def stepped(context, key):
    """The pair cell's steps, planned for tally and judged from its recorded outputs."""
    taken = []
    for number, (rate, (output, selects)) in enumerate(RECORDED.items(), start=1):
        plan = planned(number, rate, context.plan, PAIR_PROFILE, sessions=False, suffix="txt")
        figures = TALLY.figures(output)
        watched = {"db_selects": selects, "db_rows_read": 2 * selects, "db_connections": selects}
        seen = Observed([(rate, plan.requests, output, False, figures)], figures, watched, wall_s=3.0)
        taken.append(judged(plan, seen, Rules(context.thresholds, declared_work=registry.database_work(key.app, key.workload)), 1))
    return taken


def recorded_run(directory):
    """A copy of the recorded work-quick run in `directory`: (its folder, its manifest, its context)."""
    shutil.copytree(ROOT / "tests" / "fixtures" / "results" / "work-quick", directory)
    manifest = json.loads((directory / "manifest.json").read_text())
    return directory, manifest, RunContext.recorded(manifest["options"])


def reported(run, manifest, key, steps, row):
    """The View of the recorded run with a new cell's steps and summary row added to it, its manifest
    naming the cell's workload and holding the registry in force."""
    files = RunFiles(run)
    write_steps(files.cell_steps(key), steps)
    write_summaries(files.saturation, read_summaries(files.saturation) + [row])
    manifest["options"]["workloads"].append(key.workload)
    manifest["registry"] = targets.registry()
    (run / "manifest.json").write_text(json.dumps(manifest))
    return View(load_run(run))


def test_a_declared_workload_and_driver_are_planned_stepped_judged_and_reported(tmp_path):
    run, manifest, context = recorded_run(tmp_path / "pair-run")
    key = CellKey("php", "myisam", "pair")
    with targets.given(registry_with_pair()):
        assert registry.database_work(key.app, key.workload) == {"selects": 1, "rows": 2, "updates": 0, "rows_changed": 0,
                                                                 **registry.app("php")["commands"]}
        steps = stepped(context, key)
        assert set(JUDGED) <= set(TALLY.figures(RECORDED[500][0]))
        assert [(step.num_conns, step.verdict) for step in steps] == [(1500, PASS), (3000, PASS), (4500, FAIL)]
        assert [step.raw for step in steps] == ["raw/step-01-rate-500.txt", "raw/step-02-rate-1000.txt",
                                                "raw/step-03-rate-1500.txt"]
        row = summarize(key, steps, restarts=0)
        assert (row.status, row.saturation_offered, row.work_missing_steps) == (LOCATED, 1000, 0)
        view = reported(run, manifest, key, steps, row)
        markdown = summary_markdown(view, summary_rows(view, study_figures()))
    # Its section, titled from its declaration: PHP's figure and the database's work a reply, as declared.
    section = markdown.partition("## two rows by id, MyISAM")[2].split("\n## ")[0]
    assert "| PHP (Apache + mod_php) | 1,000.0 |" in section and "| 1.00 / 2.00 / 1.00 |" in section


def test_the_declared_work_of_a_new_workload_holds_its_steps_to_it():
    context = RunContext.of(("php",), duration_s=3)  # tally's recorded steps were 3 s long
    output = RECORDED[500][0]
    plan = planned(1, 500, context.plan, PAIR_PROFILE, sessions=False, suffix="txt")
    figures = TALLY.figures(output)
    one_row_each = {"db_selects": 1500, "db_rows_read": 1500, "db_connections": 1500}
    with targets.given(registry_with_pair()):
        rules = Rules(context.thresholds, declared_work=registry.database_work("php", "pair"))
        step = judged(plan, Observed([(500, plan.requests, output, False, figures)], figures, one_row_each, 3.0), rules, 1)
    assert step.verdict == PASS and step.work_missing.startswith("database work missing")
