"""What a verb's command line chose (harness/cli.py): a run, some of its cells, or a refusal."""
from pathlib import Path

from harness.results.rounds import cell_figures
from harness.results.store import RESULTS, latest_run, load_run


class Refused(Exception):
    """A command line the verb will not run: said as it is, with exit code `code`."""

    def __init__(self, message, code=1):
        super().__init__(message)
        self.code = code


def add_run_arguments(parser, what="the run id under results/ (default: the latest run)"):
    """--run and --results, as every verb that reads a run takes them."""
    parser.add_argument("--run", help=what)
    add_results_argument(parser)


def add_results_argument(parser):
    """--results, make's RESULTS_DIR=: the folder of runs."""
    parser.add_argument("--results", type=Path, default=RESULTS, metavar="RESULTS_DIR",
                        help="the results folder (default: results/)")


def chosen_run(args):
    """The run --run names under --results, or the latest there; ResultsError when there is none."""
    return load_run(args.results / args.run if args.run else latest_run(args.results))


def chosen_cells(run, names):
    """The cell names in `names` (app/engine/workload, comma-separated), in their order, or None (every
    cell of `run`) when it is empty; Refused naming the cells the run does not have."""
    if not names:
        return None
    chosen = list(dict.fromkeys(filter(None, names.split(","))))
    unknown = sorted(set(chosen) - {str(key) for key in cell_figures(run)})
    if unknown:
        raise Refused(f"no cell {', '.join(unknown)} in run {run.directory.name}")
    return chosen
