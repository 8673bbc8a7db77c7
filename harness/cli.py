"""`python -m harness VERB [options]`: the lab's one command line. The Makefile's targets call it.

Each verb is a module with `add_arguments(parser)` and `execute(args)`, which returns its exit code (0 when
it returns nothing). Besides its options a verb takes make's knobs as `KEY=value` words (APPS=php is
--apps php), put after its options, so a knob wins over a target's own default (harness/experiments.py).
What stops a verb is said once, here, as `VERB: what`: a run that cannot be read, a stack that is not
ready, a server that failed, or a command line the verb refuses. A verb's module is imported only when it
is asked for."""
import argparse
import importlib
import sys

from harness import experiments
from harness.results.chosen import Refused
from harness.results.store import ResultsError
from harness.run.options import OneLineErrors
from harness.run.session import NotReady
from stack import targets
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
    """A verb's words as its command line: its options, then the options make's knobs among them set."""
    options, rest, notes = experiments.make_knobs(words, parser)
    for note in notes:
        print(f"{verb}: {note}", file=sys.stderr)
    return rest + experiments.argv_of({"verb": verb, "options": options}, parser, "make")


def experiment(declaration, source, words=()):
    """The Experiment of a declaration ({"verb", "options", "about"}), with `words` (options and make's
    knobs given after it) over its options."""
    verb = declaration["verb"]
    _, parser = verb_parser(verb)
    return experiments.value(declaration, parser, source, with_knobs(verb, parser, words), targets.registry())


def from_file(options):
    """`experiment FILE [overrides]`: the file's Experiment, the options given after it over its own."""
    if not options or options[0].startswith("-"):
        raise Refused("name the experiment's file: python -m harness experiment FILE [options]", code=2)
    path, overrides = options[0], options[1:]
    chosen = experiment(experiments.read(path, [verb for verb in VERBS if verb != "experiment"]), path, overrides)
    defaults = verb_parser(chosen.verb)[1]
    given = {name: value for name, value in vars(chosen.args).items() if value != defaults.get_default(name)}
    print(f"experiment {path}: {chosen.verb} " + " ".join(f"{name}={value}" for name, value in given.items()), flush=True)
    return chosen


def run(chosen, browse=True):
    """Run an Experiment under its registry: its exit code. `browse=False` (a paper's figure, whose run
    draws its own pages) keeps a verb that draws its own from drawing them."""
    module = importlib.import_module(VERBS[chosen.verb][0])
    with targets.given(chosen.registry):
        return module.execute(chosen.args, **({} if browse else {"browse": False})) or 0


def main(argv):
    chosen = verbs_parser().parse_args(argv)
    verb = chosen.verb
    try:
        if verb == "experiment":
            verb = (what := from_file(chosen.options)).verb
        else:
            what = experiment({"verb": verb}, f"python -m harness {verb}", chosen.options)
        return run(what)
    except Refused as refused:
        print(f"{verb}: {refused}", file=sys.stderr)
        return refused.code
    except (ResultsError, NotReady, LabError) as problem:
        print(f"{verb}: {problem}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{verb}: interrupted", file=sys.stderr)
        return 130
