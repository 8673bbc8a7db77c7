"""The sweep's --help: its options' helps are plain text, many taken from sweep.json, some with a %."""
from dataclasses import fields

import pytest

from harness.run import options
from harness.run.context import GROUPS


def test_the_sweeps_help_prints_every_option_with_its_percent_signs(capsys):
    with pytest.raises(SystemExit) as exit:
        options.from_argv(["--help"], "the sweep")
    printed = capsys.readouterr().out
    assert exit.value.code == 0
    assert "10 %, not 5 %" in printed and "more than this % of any lab CPU" in printed


def test_each_field_option_sets_its_own_context_field_and_says_what_sweep_json_says():
    known = {item.name for group in GROUPS.values() for item in fields(group)}
    assert {field for _, field, _ in options.field_options()} <= known
    args = options.parser("the sweep").parse_args(["--step-timeout", "5", "--conn", "keepalive", "--rates", "1,2",
                                                   "--reference", "study-a", "--max-other-pct", "30"])
    assert options.field_values(args) == {"step_timeout_s": 5.0, "connection": "keepalive", "rates": (1.0, 2.0),
                                          "reference_run": "study-a", "max_other_pct": 30.0}
    help_text = options.parser("the sweep").format_help()
    assert "as the ssh test's namespaces do" in " ".join(help_text.split())  # sweep.json's about, whole
