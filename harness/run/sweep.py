"""The saturation sweep: for every cell (app x engine x workload) run httperf at planned offered
rates, judge each step, and locate the highest rate the server sustains.

    python3 -m harness sweep [--apps php,soap] [--engines ...] [--workloads ...]
        [--mode adaptive|linear] [--duration S] [--precision P] [--run ID] [--quick]

Results go to results/<run-id>/ (see README). Re-running with the same --run resumes: finished
steps and cells are kept, not redone.
"""
import sys

from harness.run import options
from harness.run.runner import Runner
from harness.run.session import NotReady, from_the_client
from stack.server import LabError


def add_arguments(parser):
    options.add_arguments(parser)


def execute(args):
    return run_sweep(*options.from_args(args))


def run_sweep(context, run_id, results_dir):
    """Run (or resume) a sweep from the client's side of the topology: its exit code, with what
    stopped it said in words."""
    try:
        with from_the_client(context.topology):
            Runner(context, run_id, results_dir).run()
    except NotReady as problem:
        print(f"sweep: {problem}", file=sys.stderr)
        return 1
    except LabError as problem:
        print(f"sweep stopped: {problem}\nfinished steps are saved; resume with RUN={run_id}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\nsweep interrupted: finished steps are saved; resume with RUN={run_id}", file=sys.stderr)
        return 130
    return 0
