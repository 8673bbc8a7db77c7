"""The start-up and the end the sweep and the cross-check share, at the edge: the load comes from
the client host, the database answers and holds the data, and the agents on other hosts are stopped
at the end, however it ends."""
from contextlib import contextmanager

from harness.hosts import servers, channel
from stack import lab, registry, topology


class NotReady(Exception):
    """The servers are not there to measure: the message says what to run."""


def readiness_problem(database):
    """What keeps a run from starting, or None: MariaDB not answering, or its tables not holding the data."""
    if not database.answers():
        return "MariaDB does not answer: start the servers with `make up` (`make saturation-sweep` starts them itself)"
    problems = lab.data_problems(database.checksums)
    if problems:
        return "the data is not imported: " + "; ".join(problems) + " (run `make import`)"
    return None


@contextmanager
def from_the_client(hosts):
    """Enter the client host of `hosts` (the run's stack.topology.Topology) and check the database;
    on the way out, whatever happened, stop the hosts' agents. NotReady when the servers are not
    there to measure."""
    topology.enter(hosts.namespace("client"))
    try:
        problem = readiness_problem(servers.server(registry.database_server()))
        if problem:
            raise NotReady(problem)
        yield
    finally:
        channel.stop_agents()
