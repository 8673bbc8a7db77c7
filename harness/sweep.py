"""The saturation sweep: for every cell (app x engine x workload) run httperf at planned offered
rates, judge each step, and locate the highest rate the server sustains.

    python3 httperf-scripts/sweep.py [--apps php,soap] [--engines ...] [--workloads ...]
        [--mode adaptive|linear] [--duration S] [--precision P] [--run ID] [--quick]

Results go to results/<run-id>/ (see README). Re-running with the same --run resumes: finished
steps and cells are kept, not redone.
"""
import sys

from harness import hosts
from harness.options import from_argv
from harness.runner import Runner
from stack import lab, topology


def main(argv):
    options, run_id, results_dir = from_argv(argv, __doc__.split("\n\n")[0])
    # The sweep drives the load from the client host: httperf, the probes and the checks.
    topology.enter(topology.current().namespace("client"))
    try:
        database = hosts.server("mariadb")
        if not database.answers():
            print("sweep: MariaDB does not answer: start the servers with `make up` (`make saturation-sweep` "
                  "starts them itself)", file=sys.stderr)
            return 1
        problems = lab.verify(database)
        if problems:
            print("sweep: the data is not imported: " + "; ".join(problems) + " (run `make import`)", file=sys.stderr)
            return 1
        Runner(options, run_id, results_dir).run()
    except KeyboardInterrupt:
        print(f"\nsweep interrupted: finished steps are saved; resume with RUN={run_id}", file=sys.stderr)
        return 130
    finally:
        hosts.stop_agents()
    return 0
