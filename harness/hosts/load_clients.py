"""A step's clients, here and on the load client hosts (CLIENT_HOSTS), all started at once. A load
client host runs its clients through its agent (agent.py's `load`), as the agent's own children, so
that the host's step watch counts them as the lab's work and judges only what else ran there.

A host whose channel fails during the step is lost for that step: its clients' outputs say so
(LOST), and the step is disturbed, settled and redone (harness/run/step.py)."""
from concurrent.futures import ThreadPoolExecutor

from harness.hosts.channel import AT_ONCE_S, agent
from harness.measure import load
from stack.server import LabError

# How a lost client's output says why it has no summary.
LOST = "# lost during the step: "


def run_clients(launches, client_cpus, wall_limit_s):
    """[(output, killed)], one per launch, in order. A launch is (None, (argv, input file or None))
    for a client here, or (host, [httperf's argv, its session file's name there or None, the
    session's text]) for one on a load client host."""
    groups = {}
    for index, (host, launch) in enumerate(launches):
        groups.setdefault(host, []).append((index, launch))
    results = [None] * len(launches)

    def run(host, members):
        runs = [launch for _, launch in members]
        outputs = load.run_httperfs(runs, wall_limit_s) if host is None else on_host(host, runs, client_cpus,
                                                                                      wall_limit_s)
        for (index, _), output in zip(members, outputs):
            results[index] = output

    with ThreadPoolExecutor(max_workers=len(groups)) as pool:
        for future in [pool.submit(run, host, members) for host, members in groups.items()]:
            future.result()
    return results


def on_host(host, runs, client_cpus, wall_limit_s):
    """One load client host's clients of a step: [(output, killed)], each output headed with the
    host; when the host was lost, outputs that say why (and no summary)."""
    where = f"# on the {host.name} host ({host.destination})\n"
    try:
        outputs = agent(host.name).call("load", runs, client_cpus, wall_limit_s, timeout_s=wall_limit_s + AT_ONCE_S)
    except LabError as error:
        # The why on one line (what a step's reason quotes), then the rest of what the channel said.
        why, _, rest = str(error).partition("\n")
        return [(f"{where}{LOST}{why.removesuffix(':')}\n{rest}", False)] * len(runs)
    return [(where + output, killed) for output, killed in outputs]


def lost_hosts(outputs):
    """Pure: why clients were lost during a step ("" when none was), from their outputs."""
    found = []
    for output in outputs:
        for line in output.splitlines():
            if line.startswith(LOST) and line[len(LOST):] not in found:
                found.append(line[len(LOST):])
    return "; ".join(f"a load client host was lost during the step: {why}" for why in found)
