"""Experiments as files and make's knobs (harness/experiments.py): every declaration in experiments/ becomes an
Experiment value its verb accepts, and a wrong field is named before anything runs."""
import copy
import json
import re
import shlex
import subprocess

import pytest

from harness import cli, experiments
from harness.results.chosen import Refused
from stack import targets
from stack.settings import ROOT

DECLARED = sorted((ROOT / "experiments").glob("*.json"))
VERBS = [verb for verb in cli.VERBS if verb != "experiment"]


@pytest.mark.parametrize("path", DECLARED, ids=lambda path: path.name)
def test_every_declared_experiment_is_a_value_its_verb_accepts(path):
    declared = cli.experiment(experiments.read(path, VERBS), str(path))  # exits (SystemExit) when refused
    assert declared.about and declared.source == str(path) and declared.verb in VERBS


def test_the_icws08_load_is_ab_with_100_kept_alive_connections_on_every_soap_engine():
    declared = cli.experiment(experiments.read(ROOT / "experiments" / "icws08-load.json", VERBS), "icws08-load.json",
                              ["LEVELS=100,200"])
    assert declared.verb == "concurrency-sweep" and declared.about.startswith("ICWS'08's load")
    args = declared.args
    assert (args.driver, args.conn, args.app_set) == ("ab", "keepalive", "soap")
    assert args.levels == ("100", "200"), "a knob given after the file over its options"
    assert args.workloads == ("quote", "echo-1", "echo-10", "echo-100")


def test_a_list_is_comma_separated_true_is_a_flag_and_false_or_null_leaves_an_option_out():
    _, parser = cli.verb_parser("sweep")
    declaration = {"verb": "sweep", "options": {"apps": ["php", "soap"], "quick": True, "study": False,
                                                "max_other_pct": 10, "size-sweep": None}}
    assert experiments.argv_of(declaration, parser, "x.json") == ["--apps", "php,soap", "--quick",
                                                                  "--max-other-pct", "10"]


@pytest.mark.parametrize("options, message", [
    ({"aps": "php"}, "x.json: options.aps: sweep has no such option; its options: "),
    ({"quick": "yes"}, "x.json: options.quick: --quick is a switch: true or false, not 'yes'"),
    ({"apps": True}, "x.json: options.apps: --apps takes a value, not true"),
    ({"apps": {"php": 1}}, "x.json: options.apps: a value or a list, not an object"),
])
def test_a_wrong_option_is_named_with_what_the_verb_takes(options, message):
    _, parser = cli.verb_parser("sweep")
    with pytest.raises(Refused, match="^" + message.replace("(", r"\(").replace(")", r"\)")) as refused:
        experiments.argv_of({"verb": "sweep", "options": options}, parser, "x.json")
    assert refused.value.code == 2


@pytest.mark.parametrize("text, message", [
    ("[1]", "an experiment is a JSON object with about, options, verb"),
    ('{"verb": "sweep", "knobs": {}}', "knobs: no such field; an experiment has about, options, verb"),
    ('{"verb": "deploy"}', "verb: 'deploy' is none of sweep, "),
    ('{"verb": "sweep", "options": [1]}', "options: an object of the verb's options"),
    ("{", "not JSON: "),
])
def test_a_wrong_file_is_refused_naming_the_field(tmp_path, text, message):
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(Refused, match=message.replace("(", r"\(")):
        experiments.read(path, VERBS)


def test_the_command_line_runs_a_declared_experiment_with_overrides_after_it(tmp_path, capsys):
    declaration = tmp_path / "compare.json"
    declaration.write_text(json.dumps({"about": "two runs", "verb": "compare",
                                       "options": {"results": str(tmp_path / "none")}}))
    assert cli.main(["experiment", str(declaration), "a", "b"]) == 1
    said = capsys.readouterr()
    assert f"experiment {declaration}: compare run=a run2=b results={tmp_path / 'none'}" in said.out
    assert said.err.startswith("compare: ") and "holds no run: no manifest.json" in said.err
    assert cli.main(["experiment", str(tmp_path / "missing.json")]) == 1
    assert "missing.json: cannot read it (No such file or directory)" in capsys.readouterr().err


def test_makes_knobs_are_the_verbs_options_by_name_and_the_others_are_left_alone():
    _, parser = cli.verb_parser("sweep")
    words = ["--seed", "3", "APPS=php servlet", "NO_WARMUP=1", "QUICK=0", "DURATION=", "RESULTS_DIR=/tmp/runs",
             "STEP_TIMEOUT=5", "TOPOLOGY=netns", "ENGINE=innodb"]
    options, rest, notes = experiments.make_knobs(words, parser)
    assert options == {"apps": "php servlet", "no_warmup": True, "quick": False, "duration": None,
                       "results_dir": "/tmp/runs", "step_timeout": "5"}
    assert rest == ["--seed", "3"]
    assert notes == ["ENGINE= is not one of its knobs, and left alone: ENGINES=?"]
    args = parser.parse_args(cli.with_knobs("sweep", parser, words))
    assert (args.apps, args.no_warmup, args.quick, args.duration_s, args.step_timeout_s, args.seed) == \
        (("php", "servlet"), True, False, None, 5.0, 3)
    assert str(args.results) == "/tmp/runs"


def test_a_switch_knob_takes_1_or_0_and_nothing_else():
    _, parser = cli.verb_parser("sweep")
    with pytest.raises(Refused, match=r"^QUICK=maybe: --quick is a switch: 1 or 0$") as refused:
        experiments.make_knobs(["QUICK=maybe"], parser)
    assert refused.value.code == 2


def test_a_knob_kept_on_by_default_is_turned_off_by_0_and_refuses_other_words():
    _, parser = cli.verb_parser("sweep")
    assert parser.parse_args(cli.with_knobs("sweep", parser, ["PRICE_LIST=0"])).price_list is False
    assert parser.parse_args(cli.with_knobs("sweep", parser, ["PRICE_LIST=on"])).price_list is True
    assert parser.parse_args([]).price_list is None, "unset: sweep.json's default (on) applies"
    with pytest.raises(SystemExit):
        parser.parse_args(["--price-list", "maybe"])


def test_a_knob_wins_over_the_targets_own_default_written_before_it():
    _, parser = cli.verb_parser("spread-sources")
    args = parser.parse_args(cli.with_knobs("spread-sources", parser, ["--rotations", "1", "ROTATIONS=2", "CELLS=a,b"]))
    assert (args.rotations, args.cells) == (2, "a,b")


def harness_targets():
    """(target, its help, the verb its recipe hands make's knobs to, the knobs its recipe reads itself)."""
    targets = []
    for block in re.split(r"\n(?=[a-z-]+:)", (ROOT / "Makefile").read_text()):
        head, _, recipe = block.partition("\n")
        call = re.search(r"-m harness ([a-z-]+) (.*)\$\(KNOBS\)", recipe)
        if call:
            targets.append((head.split(":")[0], head.partition("## ")[2], call[1], set(re.findall(r"\$\(([A-Z0-9_]+)\)", recipe))))
    return targets


def test_every_knob_a_targets_help_names_is_taken_by_its_verb():
    targets = harness_targets()
    assert {target for target, *_ in targets} >= {"sweep", "concurrency-sweep", "reproduce", "soap-phases", "plots"}
    for target, about, verb, own in targets:
        if verb == "experiment":  # its knobs are the declared verb's
            continue
        names = experiments.option_names(cli.verb_parser(verb)[1])
        said = set(re.findall(r"\b([A-Z][A-Z0-9_]*)=", about)) - own - {"SOAP_PHASES"}  # the servers' switch it sets
        assert {key for key in said if key.lower() not in names} == set(), target


def test_make_hands_the_knobs_on_its_command_line_to_the_verb_quoted():
    printed = subprocess.run(["make", "-n", "--no-print-directory", "sweep", "APPS=php servlet", "REFERENCE=it's",
                              "NO_WARMUP=1"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    command = shlex.split(printed.strip().splitlines()[-1])
    assert command[1:4] == ["-m", "harness", "sweep"]
    _, parser = cli.verb_parser("sweep")
    args = parser.parse_args(cli.with_knobs("sweep", parser, command[4:]))
    assert (args.apps, args.reference_run, args.no_warmup) == (("php", "servlet"), "it's", True)


def test_an_experiment_runs_under_the_registry_it_was_made_with():
    without_soap = copy.deepcopy(targets.registry())
    without_soap["apps"] = {name: app for name, app in without_soap["apps"].items() if app["kind"] != "soap"}
    with targets.given(without_soap):
        declared = cli.experiment({"verb": "soap-phases", "options": {"apps": "soap", "count": 0}}, "test")
    assert declared.registry is without_soap
    with pytest.raises(Refused, match="^soap is no SOAP app; the SOAP apps: $"):
        cli.run(declared)  # checked before any server is touched
    file_made = cli.experiment({"verb": "soap-phases", "options": {"apps": "soap", "count": 0}}, "test")
    with pytest.raises(Refused, match="^COUNT must be at least 1$"):
        cli.run(file_made)  # the file's registry has the app: the next check refuses


def test_the_write_share_curve_takes_every_share_on_both_engines_with_the_engines_by_turns():
    declared = cli.experiment(experiments.read(ROOT / "experiments" / "write-share.json", VERBS), "write-share.json")
    args = declared.args
    assert declared.verb == "sweep" and args.turn_pairs == "engines" and args.turn_cycles == 8
    assert args.workloads == ("mixed-0", "mixed-1", "mixed-10", "mixed-50", "mixed-100")
    assert set(args.engines) == {"myisam", "innodb"} and "rust-no-acquire-ping" not in args.apps
