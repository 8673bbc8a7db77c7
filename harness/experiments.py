"""An experiment as a file: `python -m harness experiment FILE` (`make experiment FILE=`).

A declaration (JSON, in `experiments/` or anywhere) names a verb and the values of that verb's options,
by the options' own names (`python -m harness VERB --help` lists them):

    {"about": "what it measures and why",
     "verb": "concurrency-sweep",
     "options": {"set": "soap", "workloads": ["quote", "echo-10"], "conn": "keepalive", "levels": [100],
                 "driver": "ab"}}

Every field is checked against the verb's options before anything runs, and a wrong one is named. A
list is written comma-separated, `true` turns a flag on, `false` or null leaves the option out. Options
given after the file override the declaration's (`--run ID`)."""
import json
from pathlib import Path

from harness.results.chosen import Refused

FIELDS = {"about", "verb", "options"}


def option_names(parser):
    """{option name as a declaration writes it (underscores or dashes): its flag} for a verb's parser."""
    names = {}
    for action in parser._actions:  # argparse keeps no public list of a parser's options
        flags = [flag for flag in action.option_strings if flag.startswith("--")]
        if flags and action.dest != "help":
            for name in {action.dest, flags[0][2:], flags[0][2:].replace("-", "_")}:
                names[name] = (flags[0], action)
    return names


def argv_of(declaration, parser, source):
    """The verb's command line for a declaration's options; Refused naming the first field the verb
    does not take or a value it cannot be (`source` names the file in the message)."""
    names = option_names(parser)
    argv = []
    for field, value in declaration.get("options", {}).items():
        if field not in names:
            known = sorted({flag[2:] for flag, _ in names.values()})
            raise Refused(f"{source}: options.{field}: {declaration['verb']} has no such option; "
                          f"its options: {', '.join(known)}", code=2)
        flag, action = names[field]
        takes_value = action.nargs != 0
        if value is None or value is False:
            continue
        if value is True:
            if takes_value:
                raise Refused(f"{source}: options.{field}: {flag} takes a value, not true", code=2)
            argv.append(flag)
            continue
        if not takes_value:
            raise Refused(f"{source}: options.{field}: {flag} is a switch: true or false, not {value!r}", code=2)
        if isinstance(value, dict):
            raise Refused(f"{source}: options.{field}: a value or a list, not an object", code=2)
        argv += [flag, ",".join(map(str, value)) if isinstance(value, list) else str(value)]
    return argv


def read(path, verbs):
    """The declaration in the file at `path`, its top-level fields checked; Refused naming what is wrong."""
    try:
        declaration = json.loads(Path(path).read_text())
    except OSError as error:
        raise Refused(f"{path}: cannot read it ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise Refused(f"{path}: not JSON: {error}") from None
    if not isinstance(declaration, dict):
        raise Refused(f"{path}: an experiment is a JSON object with {', '.join(sorted(FIELDS))}", code=2)
    unknown = sorted(set(declaration) - FIELDS)
    if unknown:
        raise Refused(f"{path}: {', '.join(unknown)}: no such field; an experiment has "
                      f"{', '.join(sorted(FIELDS))}", code=2)
    if declaration.get("verb") not in verbs:
        raise Refused(f"{path}: verb: {declaration.get('verb')!r} is none of {', '.join(verbs)}", code=2)
    if not isinstance(declaration.get("options", {}), dict):
        raise Refused(f"{path}: options: an object of the verb's options", code=2)
    return declaration
