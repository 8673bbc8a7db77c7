"""One step: an open-loop load driver at one offered rate for one cell, watched by the step monitors,
its raw output saved, its figures parsed and judged into a `Step` record. The drivers (`OPEN_LOOP`):
httperf, the sweeps' (one run, or CLIENTS= runs together, here or on CLIENT_HOSTS), and oha, the
cross-check's second opinion (one run, here); each read as the same figures (harness/drivers), judged
by the same rules."""
import json
import resource
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, replace

from harness.drivers import httperf, oha
from harness.hosts import load_clients, servers
from harness.hosts.watch import watching
from harness.judge import speed, steps
from harness.judge.verdict import failed_requests
from harness.measure import clients, load, ports
from harness.results.figures import percentiles
from harness.results.store import write_atomically
from harness.run import workload_hooks
from harness.run.context import profile_for
from stack import registry, remote, settings

OHA = settings.OPT / "oha" / "bin" / "oha"


def parsed(output):
    try:
        return httperf.figures(output)
    except httperf.IncompleteOutput:
        return None


def launch(cell, share, number, timeout_s, client_cpus, session_file, calls, build):
    """How client `number` (from 1) runs its share of a step (load_clients.run_clients): here, or on
    its load client host, with the POST's session written there."""
    share_rate, share_requests = share
    host = remote.load_client(number)
    if host is None:
        command = httperf.command(cell.request, share_rate, share_requests, timeout_s, session_file, calls, build)
        return None, load.httperf_here(command, client_cpus)
    there = load.host_session_file(number) if session_file else None
    command = httperf.command(cell.request, share_rate, share_requests, timeout_s, there, calls, build)
    if command[0] != "httperf":
        raise ValueError(f"{cell.visit}: its body needs the large-body httperf, which runs on this machine only, "
                         f"not on load client host {host}")
    return host, [command, there, session_file.read_text() if session_file else None]


def client_sessions(cell, calls, clients):
    """httperf's --wsesslog sessions, one list per client (httperf.sessions_of): a POSTed request's, or
    a drawing workload's requests, each client's from its own place in them, so that clients never
    send the same id at once; [None, ...] for a GET's --uri."""
    if not cell.drawn:
        return [None if cell.request.method == "GET" else httperf.sessions_of(cell.request, calls)] * clients
    starts = [number * len(cell.drawn) // clients for number in range(clients)]
    return [httperf.sessions_of(cell.request, calls, cell.drawn[start:] + cell.drawn[:start]) for start in starts]


def session_files(cell, sessions):
    """Each client's --wsesslog file of its sessions under the cell's folder (None for none)."""
    files = []
    for number, each in enumerate(sessions, start=1):
        path = cell.directory / f"session-{number}.txt" if each else None
        if path:
            write_atomically(path, httperf.sessions_text(each))
        files.append(path)
    return files


def owed_figures(sessions, share_requests, calls):
    """{"updates_owed", "updates_most_per_request"} of one client's share: the UPDATEs its requests owe
    (harness/judge/database_work.write_problem); {} when they owe none."""
    if not sessions:
        return {}
    owed, most = httperf.updates_owed(sessions, share_requests // calls)
    return {"updates_owed": owed, "updates_most_per_request": most} if most else {}


def run_load(cell, rate, num_requests, timeout_s, raw, plan, client_cpus, calls=1):
    """One step's load: the plan's clients, httperf runs of its build sharing the rate and the requests
    (whole connections of `calls` each), their raw outputs kept in one file under `raw`. [(share's rate,
    its requests, output, killed, figures or None when it printed no summary)], one per client."""
    shares = [(share_rate, connections * calls)
              for share_rate, connections in clients.shares(rate, num_requests // calls, plan.clients)]
    wall_limit_s = load.wall_limit(num_requests, rate, timeout_s, calls)
    sessions = client_sessions(cell, calls, len(shares))
    files = session_files(cell, sessions)
    runs = load_clients.run_clients([launch(cell, share, number, timeout_s, client_cpus, session, calls, plan.httperf_build)
                                     for number, (share, session) in enumerate(zip(shares, files), start=1)],
                                    client_cpus, wall_limit_s)
    write_atomically(cell.directory / raw, clients.joined_output([output for output, _ in runs]))
    return [(share_rate, share_requests, output, killed, with_owed(parsed(output), owed_figures(each, share_requests, calls)))
            for (share_rate, share_requests), (output, killed), each in zip(shares, runs, sessions)]


def with_owed(figures, owed):
    return None if figures is None else {**figures, **owed}


def merged_client_runs(runs):
    """(the step's figures or None when a client printed no summary, its merged lifetime histogram)."""
    if any(figures is None for *_, figures in runs):
        return None, []
    histogram = clients.merged_histogram(httperf.lifetime_histogram(output) for _, _, output, _, _ in runs)
    return clients.merged([figures for *_, figures in runs], histogram), histogram


def httperf_load(cell, rate, requests, timeout_s, raw, context, calls):
    return run_load(cell, rate, requests, timeout_s, raw, context.plan, context.pinning.client_cpus, calls)


def httperf_figures(runs, requests, timeout_s, context, calls):
    """httperf's figures of a step: its clients' summaries merged, with the latency percentiles read
    from their merged lifetime histogram (kept alive, none: it times connections, each `calls`
    requests long, and oha's times every request); None when a client printed no summary."""
    figures, histogram = merged_client_runs(runs)
    if figures and context.plan.keepalive:
        figures["calls_per_connection"] = calls
    elif figures:
        spread = percentiles(histogram, failed_requests(figures, requests), timeout_s * 1000)
        figures.update({f"p{round(quantile * 100)}_ms": value for quantile, value in spread.items()})
    return figures


def oha_load(cell, rate, requests, timeout_s, raw, context, calls=1):
    """One oha run as a step's load, on this machine: its report saved under `raw` with its command
    and its reply rate as httperf samples it. Enough connections that rate x timeout can be
    outstanding, within the descriptor limit and, kept alive, the server's connection cap."""
    if cell.drawn:
        raise ValueError(f"{cell.visit}: oha sends one URL, and this workload's requests draw their ids: "
                         "its steps take httperf")
    most = resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 100
    cap = registry.connection_cap(cell.key.app)
    if context.plan.keepalive and cap:
        # Kept alive, a connection past the server's cap waits in its backlog until one of the others
        # closes, 1,000 requests later: its requests time out unanswered (run ka-3: oha's 887
        # connections to Tomcat's 200 at 0.9x the pooled servlet's figure, 53 % timeouts).
        most = min(most, cap[0])
    database = cell.directory / "raw" / "oha-requests.sqlite"
    body_file = cell.directory / "raw" / "oha-body.txt"
    write_atomically(body_file, cell.request.body)
    command = oha.command(OHA, cell.request, rate, requests, timeout_s, most, database, body_file,
                          context.plan.keepalive)
    report, ends, text = load.run_oha(command, load.wall_limit(requests, rate, timeout_s),
                                      context.pinning.client_cpus, database)
    figures = oha.figures(report, rate, requests, ends) if report else None
    write_atomically(cell.directory / raw, json.dumps({"command": text, "reply_rate_sampled": figures and
                                                      figures["reply_rate"], "report": report}, indent=1) + "\n")
    return [(rate, requests, "", report is None, figures)]


def oha_figures(runs, *_):
    return runs[0][4]


@dataclass(frozen=True)
class OpenLoop:
    """How a step runs an open-loop driver: its load (`load(cell, rate, requests, timeout_s, raw,
    context, calls)`: [(share's rate, its requests, output, killed, figures or None)], one per client)
    and its figures from those runs; whether it sends `calls` requests per kept-alive connection
    (httperf's sessions) or counts requests alone; its raw output's suffix."""
    load: Callable
    figures: Callable
    sessions: bool
    suffix: str


OPEN_LOOP = {
    httperf.NAME: OpenLoop(httperf_load, httperf_figures, sessions=True, suffix="txt"),
    oha.NAME: OpenLoop(oha_load, oha_figures, sessions=False, suffix="json"),
}

# The sweep's own client; the others are second opinions.
DEFAULT_DRIVER = httperf.NAME


def gate_plan(plan, gate):
    """Pure: the plan of a gate check: the workload's own timeout, never the plan's (STUDY=1's 60 s
    would hold a stuck server's gate a minute), and at least gate_min_requests requests, not a step's
    minimum (ten at a large cell's 0.5 req/s held a check of 1 s for 20 s)."""
    return replace(plan, step_timeout_s=0, min_requests_per_step=gate.gate_min_requests)


def gate_check(cell, rate, context, number):
    """A short low-rate step (1 s) after a step that did not pass, taken and watched as every step but
    kept out of the cell's steps and its speed history, its raw output beside theirs (raw/gate-...): its
    reply time in ms (None when it had none)."""
    gate_context = replace(context, plan=gate_plan(context.plan, context.gate))
    gate = take_step(cell, rate, gate_context, None, role="gate", duration_s=1,
                     raw=f"raw/gate-{number:02d}-rate-{rate:g}.txt", recorded=False)
    return gate.reply_time_ms


def judged_speed(figures, speed_history, min_speed):
    """({CPU: speed}, why the machine was slower or None): a watch's canary readings against the run's
    reference speeds, which they then join."""
    step_speeds = speed.speeds(figures, speed_history.references())
    speed_history.add(figures)
    return step_speeds, speed.slowdown(step_speeds, min_speed)


def machine_speed(watch, speed_history, cell, min_speed):
    """({"machine_speed": the slowest CPU's} or {}, why the machine was slower or None) of a step. A
    cell measured on a slower machine (guard.wait_for_speed) has its speed recorded, not judged; a step
    with no `speed_history` (a profile's, a gate's) has neither."""
    if speed_history is None:
        return {}, None
    step_speeds, slower = judged_speed(watch.figures, speed_history, min_speed)
    figures = {"machine_speed": min(step_speeds.values())} if step_speeds else {}
    return figures, None if cell.state.slower_machine else slower


def take_step(cell, rate, context, speed_history, role="", duration_s=None, driver=DEFAULT_DRIVER, raw=None,
              around=None, recorded=True):
    """One step of the cell at `rate` for `duration_s` (the plan's step length unless given) by the
    open-loop `driver`, judged and, when `recorded`, kept among the cell's steps; its canary readings
    judged against, and kept in, the run's `speed_history`. Its raw output goes to `raw` (the step's
    own name under raw/ unless given); `around` is a context manager held over its watched window
    (a profile's perf recording). Planning and judging are harness/judge/steps.py's."""
    binding = OPEN_LOOP[driver]
    plan = steps.planned(len(cell.steps) + 1, rate, context.plan, profile_for(cell.key.workload), binding.sessions,
                         binding.suffix, duration_s, raw)
    port_wait = ports.wait_for_ports(plan.requests // plan.calls, loopback=ports.on_loopback(cell.request.host))
    declared_work = registry.database_work(cell.key.app, cell.key.workload)
    database = servers.server(registry.database_server()) if declared_work else None
    # The watch is inside `around`: after a failing step's client has given up the servers still work
    # through their backlog, and both the monitors and a profile's samples count it. The workload's
    # hooks are outside the watch: their reads count in no figure.
    with workload_hooks.around_step(cell.key.workload, database) as hooked:
        with around or nullcontext(), watching(context) as watch:
            runs = binding.load(cell, rate, plan.requests, plan.timeout_s, plan.raw, context, plan.calls)
    watched = {**watch.figures, **hooked}
    speed_figures, slower = machine_speed(watch, speed_history, cell, context.disturbance.min_speed)
    seen = steps.Observed(runs, binding.figures(runs, plan.requests, plan.timeout_s, context, plan.calls),
                          watched, watch.wall_s, lost=load_clients.lost_hosts(output for _, _, output, _, _ in runs),
                          shared=watch.disturbed(), slower=slower, speed=speed_figures, port_wait_s=port_wait)
    rules = steps.Rules(context.thresholds, plan_timeout=bool(context.plan.step_timeout_s),
                        declared_work=declared_work,
                        database=registry.database_server(), memory_limit=settings.knob("SERVERS_MEMORY_MB"))
    step = steps.judged(plan, seen, rules, cell.state.round, role)
    if recorded:
        cell.record(step)
    return step
