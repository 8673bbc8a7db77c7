"""The sweep's --help: its options' helps are plain text, many taken from sweep.json, some with a %."""
import pytest

from harness.run import options


def test_the_sweeps_help_prints_every_option_with_its_percent_signs(capsys):
    with pytest.raises(SystemExit) as exit:
        options.from_argv(["--help"], "the sweep")
    printed = capsys.readouterr().out
    assert exit.value.code == 0
    assert "10 %, not 5 %" in printed and "more than this % of any lab CPU" in printed
