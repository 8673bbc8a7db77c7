"""One open-loop step, planned and judged: the pure halves of the one stepper (harness/run/step.py
`take_step`, which runs the load and the watch between them). What a step is asked follows from the
plan, the workload's profile and the driver; what it measured, from the driver's figures, the
watch's and what disturbed it, becomes its `Step` record by the same rules for every driver.
Replayed on a recorded step (its raw output and its row's watched figures), `judged` gives the row
again (tests/unit/test_steps.py)."""
from dataclasses import dataclass

from harness.judge.database_work import extra_work, missing_work, owed_work, write_problem
from harness.judge.verdict import issue_rate, judge
from harness.results.records import CLIENT_LIMITED, DISTURBED, PASS, Step


@dataclass(frozen=True)
class StepPlan:
    """What one step is asked: its number in the cell, its offered rate, its requests (connections of
    `calls` requests each), the timeout it runs with and the workload's own (longer when the
    descriptor budget shortened it), and where its raw output goes."""
    number: int
    rate: float
    requests: int
    calls: int
    timeout_s: float
    longest_s: float
    raw: str


def step_timeout(rate, longest, fd_budget):
    """The timeout of a step: the workload's own, shortened so rate x timeout stays within the
    descriptor budget (at most fd_budget requests can be waiting at once)."""
    return round(max(0.1, min(float(longest), fd_budget / rate)), 2)


def planned(number, rate, plan, profile, sessions, suffix, duration_s=None, raw=None):
    """The StepPlan of step `number` at `rate` under the run's `plan` for a workload of `profile`: by a
    driver that sends kept-alive `sessions` of calls (httperf) or counts requests alone (oha), its raw
    output a file with `suffix` under raw/ unless `raw` names one."""
    longest = plan.timeout_for(profile)
    requests, calls = plan.step_load(rate, duration_s) if sessions else (plan.requests(rate, duration_s), 1)
    return StepPlan(number, rate, requests, calls, step_timeout(rate, longest, plan.fd_budget), longest,
                    raw or f"raw/step-{number:02d}-rate-{rate:g}.{suffix}")


@dataclass(frozen=True)
class Observed:
    """What the edge saw of a step: its client runs [(share's rate, its requests, output, killed,
    figures or None)], the step's figures (None when a client printed no summary), the watch's figures
    and wall time, why it may not be the server's (a lost load client host, other work on the lab's
    CPUs, a slower machine: a reason each, or None), the canary's speed figures, the wait for ports."""
    runs: list
    figures: dict | None
    watched: dict
    wall_s: float
    lost: str | None = None
    shared: str | None = None
    slower: str | None = None
    speed: dict | None = None
    port_wait_s: float = 0.0


@dataclass(frozen=True)
class Rules:
    """What a step is judged by beyond the verdict's thresholds: whether the plan set the timeout
    (the study's), the work the cell's workload declares (database_work), the database server's name
    (its CPU a reply, for extra work), and the servers' memory limit as set (for an OOM kill)."""
    thresholds: object
    plan_timeout: bool = False
    declared_work: dict | None = None
    database: str = "mariadb"
    memory_limit: str = "none"


def client_bound(runs, timeout_s, thresholds, calls=1):
    """The first of several clients that could not keep its own share (the step then measured a
    client, whatever the others saw): its reason, or None."""
    if len(runs) == 1:
        return None
    for number, (share_rate, share_requests, _, killed, figures) in enumerate(runs, start=1):
        verdict, reason = judge(figures, share_rate, timeout_s, share_requests, killed, thresholds, calls)
        if verdict == CLIENT_LIMITED:
            return f"client {number} of {len(runs)}: {reason}"
    return None


def judged(plan, seen, rules, round_, role=""):
    """The Step record of a step planned as `plan` that the edge saw as `seen`."""
    figures, killed = seen.figures, any(killed for _, _, _, killed, _ in seen.runs)
    verdict, reason = judge(figures, plan.rate, plan.timeout_s, plan.requests, killed, rules.thresholds, plan.calls)
    lagging = client_bound(seen.runs, plan.timeout_s, rules.thresholds, plan.calls) if figures else None
    if lagging:
        verdict, reason = CLIENT_LIMITED, lagging
    if seen.watched.get("servers_oom_kills"):
        reason += (f"; the kernel's OOM killer killed {seen.watched['servers_oom_kills']} process(es) in the "
                   f"servers' cgroup (SERVERS_MEMORY_MB={rules.memory_limit})")
    if rules.plan_timeout and plan.timeout_s < plan.longest_s:  # the study's 60 s, where the budget allows
        reason += f"; timeout {plan.timeout_s:g} s, not {plan.longest_s:g}: rate x timeout kept within fd_budget"
    # A lost load client host leaves no summary to judge: the step is redone, like a disturbed one.
    if seen.lost or ((seen.shared or seen.slower) and figures is not None):
        why = "; ".join(filter(None, (seen.lost, seen.shared, seen.slower)))
        verdict, reason = DISTURBED, f"{why}; not judged (would have been: {verdict}, {reason})"
    measured = {**(figures or {}), **seen.watched, **(seen.speed or {})}
    margin = rules.thresholds.max_missing_work_ratio
    work_missing = figures and (missing_work(measured, owed_work(rules.declared_work, measured, plan.requests), margin)
                                or write_problem(measured, rules.declared_work, plan.requests))
    extra = verdict == PASS and extra_work(measured, rules.declared_work, margin, measured.get(f"{rules.database}_cpu_s"))
    if extra:
        reason += f"; {extra}"
    return Step(step=plan.number, round=round_, role=role, offered_rate=plan.rate, timeout_s=plan.timeout_s,
                num_conns=plan.requests, verdict=verdict, reason=reason, killed=killed, wall_s=round(seen.wall_s, 2),
                port_wait_s=seen.port_wait_s, raw=plan.raw,
                issue_rate=round(issue_rate(figures, plan.timeout_s, plan.calls), 2) if figures else None,
                work_missing=work_missing or "", figures=measured)
