"""`python -m harness VERB [options]`: the lab's one command line. The Makefile's targets call it.

Each verb is a module with `add_arguments(parser)` and `execute(args)`, which returns its exit code (0 when
it returns nothing). Besides its options a verb takes make's knobs as `KEY=value` words (APPS=php is
--apps php), put after its options, so a knob wins over a target's own default (harness/experiments.py).
What stops a verb is said once, here, as `VERB: what`: a run that cannot be read, a stack that is not
ready, a server that failed, or a command line the verb refuses. A verb's module is imported only when it
is asked for."""
import argparse
import importlib
import shlex
import sys

from harness import experiments
from harness.results.chosen import Refused
from harness.results.store import ResultsError
from harness.run.options import OneLineErrors
from harness.run.session import NotReady
from stack.server import LabError

# verb: (its module, what it does). The verbs are the Makefile's targets that measure or report.
VERBS = {
    "sweep": ("harness.run.sweep", "the saturation sweep (make saturation-sweep, make sweep, make size-sweep)"),
    "concurrency-sweep": ("harness.run.concurrency", "throughput and latency against concurrency, closed loop"),
    "crosscheck": ("harness.run.crosscheck", "second opinions on a run's figures from wrk and oha"),
    "profile": ("harness.run.profile", "where the servers' CPU goes at a run's saturation points"),
    "spread-sources": ("harness.run.spread", "where a cell's spread lives; with --interleave, two cells alternated"),
    "soap-phases": ("harness.run.soap_phases", "the SOAP engines' un-marshal, logic and marshal times against N"),
    "driver-agreement": ("harness.run.agreement", "Debian's httperf against the lab's large-body build"),
    "plots": ("harness.report.render", "a run's summary and report"),
    "compare": ("harness.report.compare", "two runs side by side"),
    "reproduce": ("harness.run.reproduce", "a paper's figures under its own load, beside its values (experiments/papers/)"),
    "experiment": (None, "the verb and options an experiment's file declares (harness/experiments.py)"),
}


def verbs_parser():
    parser = argparse.ArgumentParser(prog="python -m harness", description=__doc__.splitlines()[0],
                                     epilog="verbs:\n" + "\n".join(f"  {verb:18} {about}" for verb, (_, about) in VERBS.items()),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("verb", choices=list(VERBS), metavar="VERB", help="one of the verbs below")
    parser.add_argument("options", nargs=argparse.REMAINDER, help="the verb's options (python -m harness VERB --help)")
    return parser


def verb_parser(verb):
    """(the verb's module, its options' parser)."""
    name, about = VERBS[verb]
    module = importlib.import_module(name)
    parser = OneLineErrors(prog=f"python -m harness {verb}", description=about)
    module.add_arguments(parser)
    return module, parser


def with_knobs(verb, parser, words):
    """The verb's command line for its words: its options, then the options make's knobs among them set."""
    options, rest, notes = experiments.make_knobs(words, parser)
    for note in notes:
        print(f"{verb}: {note}", file=sys.stderr)
    return rest + experiments.argv_of({"verb": verb, "options": options}, parser, "make")


def declared(options):
    """(verb, its module, its parser, its command line) of `experiment FILE [overrides]`: the file's
    declaration, then the options given after it."""
    if not options or options[0].startswith("-"):
        raise Refused("name the experiment's file: python -m harness experiment FILE [options]", code=2)
    path, overrides = options[0], options[1:]
    declaration = experiments.read(path, [verb for verb in VERBS if verb != "experiment"])
    module, parser = verb_parser(declaration["verb"])
    argv = experiments.argv_of(declaration, parser, path) + with_knobs(declaration["verb"], parser, overrides)
    print(f"experiment {path}: python -m harness {declaration['verb']} {shlex.join(argv)}", flush=True)
    return declaration["verb"], module, parser, argv


def main(argv):
    chosen = verbs_parser().parse_args(argv)
    verb = chosen.verb
    try:
        if verb == "experiment":
            verb, module, parser, options = declared(chosen.options)
        else:
            module, parser = verb_parser(verb)
            options = with_knobs(verb, parser, chosen.options)
        return module.execute(parser.parse_args(options)) or 0
    except Refused as refused:
        print(f"{verb}: {refused}", file=sys.stderr)
        return refused.code
    except (ResultsError, NotReady, LabError) as problem:
        print(f"{verb}: {problem}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{verb}: interrupted", file=sys.stderr)
        return 130
