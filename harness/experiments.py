"""An experiment as a file: `python -m harness experiment FILE` (`make experiment FILE=`).

A declaration (JSON, in `experiments/` or anywhere) names a verb and the values of that verb's options,
by the options' own names (`python -m harness VERB --help` lists them):

    {"about": "what it measures and why",
     "verb": "concurrency-sweep",
     "options": {"set": "soap", "workloads": ["quote", "echo-10"], "conn": "keepalive", "levels": [100],
                 "driver": "ab"}}

Every field is checked against the verb's options before anything runs, and a wrong one is named. A
list is written comma-separated, `true` turns a flag on, `false` or null leaves the option out. Options
given after the file override the declaration's (`--run ID`).

Read and checked, a declaration is an `Experiment`: its verb and its options as the verb's parser types
them (`args`), what it is for, where it came from, and the registry it runs under (the file's, built once
per command, or a test's own value). The command line (`python -m harness VERB`, a make target), a file
and a paper's figure all become one, and `harness/cli.py`'s `run` runs it.

Make's knobs are a declaration too: the Makefile hands a verb every `KEY=value` given on its command line,
and `make_knobs` reads the ones the verb has an option for (APPS= is --apps, NO_WARMUP=1 --no-warmup,
RESULTS_DIR= the option whose metavar says so); the others belong to the stack or to other targets."""
import argparse
import difflib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from harness.results.chosen import Refused
from harness.run.option_types import SWITCH_WORDS

FIELDS = {"about", "verb", "options"}


@dataclass(frozen=True)
class Experiment:
    """What runs: a verb, its options as its parser typed and checked them, what it is for, whence it
    came, and the registry of apps, servers and workloads they were checked against and it runs under."""
    verb: str
    args: argparse.Namespace
    about: str = ""
    source: str = ""
    registry: dict | None = None


def value(declaration, parser, source, argv_after=(), registry=None):
    """The Experiment of a declaration (its verb's `parser`), with `argv_after` (options given after it)
    over its options; Refused naming a field the verb does not take, the parser's own error (SystemExit,
    one line) for a value it cannot type."""
    args = parser.parse_args(argv_of(declaration, parser, source) + list(argv_after))
    return Experiment(declaration["verb"], args, declaration.get("about", ""), source, registry)


def option_names(parser):
    """{option name as a declaration writes it (underscores or dashes, or its metavar in lower case): its
    flag} for a verb's parser."""
    names = {}
    for action in parser._actions:  # argparse keeps no public list of a parser's options
        flags = [flag for flag in action.option_strings if flag.startswith("--")]
        if flags and action.dest != "help":
            aliases = {action.dest, flags[0][2:], flags[0][2:].replace("-", "_")}
            if isinstance(action.metavar, str):
                aliases.add(action.metavar.lower())
            for name in aliases:
                names[name] = (flags[0], action)
    return names


KNOB_WORD = re.compile(r"([A-Z][A-Z0-9_]*)=(.*)", re.DOTALL)


def make_knobs(words, parser):
    """Make's knobs among a verb's command-line words: (the declaration options they set, the other
    words, notes). A KEY=value word whose KEY in lower case names one of the verb's options sets it; an
    empty value leaves it out (as an unset knob); a switch takes 1 or 0 (true or false, yes or no, on or
    off), else Refused. A KEY the verb has no option for is the stack's or another target's, and left
    alone; a note names the option it looks like a slip for (ENGINE= for ENGINES=)."""
    names = option_names(parser)
    options, rest, notes = {}, [], []
    for word in words:
        knob = KNOB_WORD.fullmatch(word)
        if not knob:
            rest.append(word)
            continue
        key, value = knob.groups()
        if key.lower() not in names:
            alike = difflib.get_close_matches(key.lower(), names, n=1, cutoff=0.8)
            if alike:
                notes.append(f"{key}= is not one of its knobs, and left alone: {alike[0].upper()}=?")
            continue
        flag, action = names[key.lower()]
        if action.nargs != 0:
            options[key.lower()] = value or None
        elif value.lower() in SWITCH_WORDS or not value:
            options[key.lower()] = SWITCH_WORDS.get(value.lower(), False)
        else:
            raise Refused(f"{key}={value}: {flag} is a switch: 1 or 0", code=2)
    return options, rest, notes


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
