"""Experiments as files (harness/experiments.py): every declaration in experiments/ is a command line its
verb accepts, and a wrong field is named before anything runs."""
import json

import pytest

from harness import cli, experiments
from harness.results.chosen import Refused
from stack.settings import ROOT

DECLARED = sorted((ROOT / "experiments").glob("*.json"))
VERBS = [verb for verb in cli.VERBS if verb != "experiment"]


@pytest.mark.parametrize("path", DECLARED, ids=lambda path: path.name)
def test_every_declared_experiment_is_a_command_line_its_verb_accepts(path):
    declaration = experiments.read(path, VERBS)
    assert declaration["about"]
    _, parser = cli.verb_parser(declaration["verb"])
    parser.parse_args(experiments.argv_of(declaration, parser, path))  # exits (SystemExit) when refused


def test_the_icws08_load_is_ab_with_100_kept_alive_connections_on_every_soap_engine():
    declaration = experiments.read(ROOT / "experiments" / "icws08-load.json", VERBS)
    _, parser = cli.verb_parser("concurrency-sweep")
    args = parser.parse_args(experiments.argv_of(declaration, parser, "icws08-load.json"))
    assert (args.driver, args.conn, args.levels, args.app_set) == ("ab", "keepalive", ("100",), "soap")
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
    assert f"python -m harness compare --results {tmp_path / 'none'} a b" in said.out
    assert said.err.startswith("compare: ") and "holds no manifest.json" in said.err
    assert cli.main(["experiment", str(tmp_path / "missing.json")]) == 1
    assert "missing.json: cannot read it (No such file or directory)" in capsys.readouterr().err
