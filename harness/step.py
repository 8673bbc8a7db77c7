"""One step: httperf at one offered rate for one cell, watched by the step monitors, its raw output
saved, its figures parsed and judged into a `Step` record."""
from harness import load, monitors, ports
from harness.httperf_output import IncompleteOutput, lifetime_histogram, parse, percentiles, reply_time_ms
from harness.options import profile_for
from harness.results.records import DISTURBED, Step
from harness.results.store import write_atomically
from harness.verdict import issue_rate, judge


def run_load(cell, rate, num_conns, timeout_s, options, raw):
    """One httperf run for the cell, its raw output kept under `raw`: (output, killed, figures or
    None when it printed no summary)."""
    command = load.httperf_command(cell.request, rate, num_conns, timeout_s, cell.session_file())
    output, killed = load.run_httperf(command, load.wall_limit(num_conns, rate, timeout_s), options.client_cpus)
    write_atomically(cell.directory / raw, output)
    try:
        return output, killed, parse(output)
    except IncompleteOutput:
        return output, killed, None


def gate_check(cell, rate, options, number):
    """A short low-rate httperf run after a step that did not pass: its reply time in ms (None when
    it had none). Its raw output is kept beside the steps' (raw/gate-...), outside steps.tsv."""
    num_conns = max(options.min_requests_per_step, round(rate))
    _, _, figures = run_load(cell, rate, num_conns, profile_for(cell.key.workload).timeout_s, options,
                             f"raw/gate-{number:02d}-rate-{rate:g}.txt")
    return reply_time_ms(figures) if figures else None


def take_step(cell, rate, options, role="", duration_s=None):
    number = len(cell.steps) + 1
    timeout_s = load.step_timeout(rate, profile_for(cell.key.workload).timeout_s, options.fd_budget)
    num_conns = max(options.min_requests_per_step, round(rate * (duration_s or options.duration_s)))
    port_wait = ports.wait_for_ports(num_conns)
    raw = f"raw/step-{number:02d}-rate-{rate:g}.txt"
    with monitors.Watch(options) as watch:
        output, killed, figures = run_load(cell, rate, num_conns, timeout_s, options, raw)
    verdict, reason = judge(figures, rate, timeout_s, num_conns, killed, options.thresholds)
    if figures:
        failed = figures["errors_total"] + max(0.0, num_conns - figures["connections"])
        spread = percentiles(lifetime_histogram(output), failed, timeout_s * 1000)
        figures.update({f"p{round(quantile * 100)}_ms": value for quantile, value in spread.items()})
    shared = watch.disturbed()
    if shared and figures is not None:
        verdict, reason = DISTURBED, f"{shared}; not judged (would have been: {verdict}, {reason})"
    step = Step(step=number, round=cell.state.round, role=role, offered_rate=rate, timeout_s=timeout_s,
                num_conns=num_conns, verdict=verdict, reason=reason, killed=killed, wall_s=round(watch.wall_s, 2),
                port_wait_s=port_wait, raw=raw,
                issue_rate=round(issue_rate(figures, timeout_s), 2) if figures else None,
                figures={**(figures or {}), **watch.figures})
    cell.record(step)
    return step
