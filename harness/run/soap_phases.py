"""`make soap-phases [APPS=] [SIZES=] [KINDS=] [COUNT=] [RUN=]`: where a SOAP request's time goes in
each engine, against payload size, as the Infosys paper measured it: un-marshalling, business logic
and marshalling, timed by each engine's own hooks (harness/measure/soap_phases.py), one request at a
time.

For every SOAP app, every kind of KINDS and every N of SIZES: by default rows-N (the first N rows by
id, from InnoDB) and echo-N (N structs sent and returned, no database); employees-N is Infosys's own
message. Each (app, workload) is warmed by WARMUP_S seconds of the same request (or, with
--warmup-calls, by that many calls: the paper's three), then COUNT requests are sent one after
another (a new connection each, as the sweep's), and the engine's records of them are summarised:
each phase's median, 10th and 90th percentiles, and the round trip the client measured (the lab's
raw envelope, or with --client zeep a stock client's call, its marshalling included). Each call's
own figures are kept too (soap-phases-calls.tsv), with the TCP segments its connection sent and
received, and those of them that carried data (Lublin's packets, from the client socket's TCP_INFO;
soap-phases.json gives the client link's MTU), from which the paper's averages are drawn.

Each (app, workload, N), its warm-up included, is watched like a sweep step: one that other work
disturbed is redone (at most max_redos times), and one still disturbed is flagged (its rows'
`disturbed`, a paper's point's flags). The servers run with SOAP_PHASES=on for it: those that did
not are restarted with it, and restarted without it at the end, so that no sweep figure carries the
hooks (servers already started with SOAP_PHASES=on stay as they were).

Into results/RUN/ (RUN: a sweep's run, whose summary.md and report.pdf then show them, or a name of
its own): soap-phases.tsv, one row per (app, workload, N), and soap-phases.json with the host and
the registry as it was (a paper's page names the apps by it)."""
import http.client
import json
import socket
import statistics
import time
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone

from harness.hosts import inventory, servers
from harness.hosts.watch import Watched
from harness.measure import network, processes, stock_client
from harness.measure.canary import CanaryMonitor
from harness.measure.soap_phases import MEMORY, PHASES, PhaseLog, samples, summary
from harness.report import html
from harness.report.render import phases_page
from harness.report.soap_phases import COLUMNS, summary_lines
from harness.report.view import PALETTE
from harness.results.kinds import SOAP_PHASES
from harness.results.chosen import Refused, add_results_argument
from harness.results.manifest import FORMAT_VERSION
from harness.results.store import tsv_text
from harness.run.context import RunContext
from stack import layout, lifecycle, registry, settings, targets, topology, workload_names

DEFAULT_SIZES = (1, 10, 100, 1000, 5000)  # Infosys: 1,000-5,000 records
WARMUP_S = 5.0
JVM_WARMUP_S = 60.0
COUNT = 20
RECORD_WAIT_S = 2.0
RAW, STOCK = "raw", "zeep"  # who makes the calls (--client)


def soap_apps():
    """The SOAP engines' apps, in registry order."""
    return [name for name in registry.apps() if registry.app(name)["kind"] == "soap"]


DEFAULT_KINDS = ("rows", "echo")
SEGMENTS = [field.name for field in fields(network.Segments)]
CALL_COLUMNS = ["app", "workload", "n", "call", *PHASES, "round_trip_us", "disturbed", *MEMORY, *SEGMENTS]


def workloads(sizes, kinds=DEFAULT_KINDS):
    return [(f"{kind}-{count}", kind, count) for kind in kinds for count in sizes]


def wire(request):
    """Pure: the request as one HTTP/1.1 message, to go in one write (as a SOAP client sends its
    envelope), its connection closed after the reply."""
    body = request.body.encode() if request.body else b""
    headers = {"Host": f"{request.host}:{request.port}", **request.headers, "Connection": "close",
               **({"Content-Length": str(len(body))} if body else {})}
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    return f"{request.method} {request.path} HTTP/1.1\r\n{head}\r\n".encode() + body


def send(request):
    """One request on a connection of its own: (its round trip in microseconds, the reply read whole;
    the TCP segments its connection sent and received by then, network.Segments)."""
    started = time.perf_counter()
    with socket.create_connection((request.host, request.port), timeout=120) as connection:
        connection.sendall(wire(request))
        reply = http.client.HTTPResponse(connection, method=request.method)
        reply.begin()
        reply.read()
        round_trip_us = (time.perf_counter() - started) * 1e6
        segments = network.connection_segments(connection)
        reply.close()
    if reply.status != 200:
        raise RuntimeError(f"{request.url} answered {reply.status}")
    return round_trip_us, segments


def recorded(log, web_application, count):
    """The samples of the `count` requests sent since the reader began: an engine records a request once
    its reply has left, so the last record may follow the reply by a moment."""
    deadline = time.monotonic() + RECORD_WAIT_S
    while len(samples(log.since(), web_application)) < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return samples(log.since(), web_application)


@dataclass(frozen=True)
class Warmup:
    """Before a workload's timed calls: `seconds` of the same request, or exactly `calls` of them."""
    seconds: float = WARMUP_S
    calls: int | None = None

    def more(self, sent, deadline):
        return sent < self.calls if self.calls is not None else time.monotonic() < deadline


def caller(app, workload, client):
    """One call of an app's workload, returning (its round trip in microseconds, its connection's
    segments): the raw envelope sent as bytes, or the stock client's call
    (harness/measure/stock_client.py), whose connection is the client library's and not counted."""
    request = registry.request(app, workload, engine="innodb")
    if client == RAW:
        return lambda: send(request)
    kind, count = workload_names.parse_workload(workload)[0], workload_names.item_count(workload)
    stock = stock_client.caller(request, registry.app(app)["wsdl"], kind, count)
    return lambda: (stock(), None)


def measure(app, workload, count, warmup, client=RAW):
    """(the summary of `count` timed requests of one app's workload, after warming it up, and each
    call's figures), every call made by `client`."""
    call = caller(app, workload, client)
    server = lifecycle.lab_servers()[registry.server_of(app)]
    web_application = layout.context_of(registry.app(app))
    warming, deadline, sent = PhaseLog(server.soap_phases_log), time.monotonic() + warmup.seconds, 0
    while warmup.more(sent, deadline):
        call()
        sent += 1
    recorded(warming, web_application, sent)  # the warm-up's records in, before the timed ones begin
    log = PhaseLog(server.soap_phases_log)
    round_trips, segments = zip(*(call() for _ in range(count)))
    found = recorded(log, web_application, count)
    figures = summary(found)
    if figures.get("samples") != count:
        raise RuntimeError(f"{app} {workload}: {figures.get('samples', 0)} phase records for {count} requests "
                           f"in {server.soap_phases_log}")
    # One call at a time: the engine's records are in the order of the calls.
    calls = [{**{phase: getattr(sample, phase) for phase in (*PHASES, *MEMORY)}, "call": number, "round_trip_us": round(trip, 1),
              **(asdict(its_segments) if its_segments else {})}
             for number, (sample, trip, its_segments) in enumerate(zip(found, round_trips, segments), start=1)]
    return {**figures, "round_trip_us": round(statistics.median(round_trips), 1)}, calls


def switch_phases(names, on, pinning):
    """Restart those of the servers that did not start with SOAP_PHASES on (or off): the ones restarted."""
    value = "on" if on else "off"
    restarted = [name for name in names if (lifecycle.lab_servers()[name].started_with() or {}).get("SOAP_PHASES") != value]
    with settings.chosen(SOAP_PHASES=value):
        for name in restarted:
            servers.server(name).restart(pinning.cpus_of(name))
    return restarted


def warm_jvm(app, planned, seconds):
    """A JIT server's app driven for `seconds` through its workloads in turn before any is timed: the
    JVM restarted with the phases' hooks starts cold, and the Infosys paper's three warm-up calls would
    time mostly its interpreter (the paper's procedure turns this off: --jvm-warmup 0)."""
    requests = [registry.request(app, workload, engine="innodb") for workload, _, _ in planned]
    deadline, turn = time.monotonic() + seconds, 0
    while time.monotonic() < deadline:
        send(requests[turn % len(requests)])
        turn += 1


def run_all(apps, planned, count, warmup, jvm_warmup_s, say, watched, client=RAW):
    """(a summary row per app and workload, a row per timed call): each workload's calls `watched`
    (hosts/watch.py Watched: redone while other work disturbed them)."""
    rows, calls, started, total = [], [], time.monotonic(), len(apps) * len(planned)
    for app in apps:
        if registry.jit(app) and jvm_warmup_s:
            warm_jvm(app, planned, jvm_warmup_s)
            say(f"soap-phases: {app}: its JVM warmed for {jvm_warmup_s:g} s")
        for workload, kind, size in planned:
            redone = watched.redone
            (figures, its_calls), shared, _ = watched(lambda: measure(app, workload, count, warmup, client))
            rows.append({"app": app, "workload": kind, "n": size, **figures, "redone": watched.redone - redone,
                         "disturbed": shared or ""})
            calls += [{"app": app, "workload": kind, "n": size, **call, "disturbed": shared or ""} for call in its_calls]
            elapsed = time.monotonic() - started
            say(f"soap-phases [{len(rows)}/{total}, ETA ~{elapsed / len(rows) * (total - len(rows)):.0f} s] {app} "
                f"{workload}: un-marshal {figures['unmarshal_us']:,.0f} us, logic {figures['logic_us']:,.0f}, "
                f"marshal {figures['marshal_us']:,.0f}; round trip {figures['round_trip_us']:,.0f} us"
                + (f" (redone {rows[-1]['redone']}x)" if rows[-1]["redone"] else "")
                + (f"; DISTURBED: {shared}" if shared else ""))
    return rows, calls


def add_arguments(parser):
    parser.add_argument("--run", default=datetime.now().strftime("phases-%Y%m%d-%H%M%S"))
    add_results_argument(parser)
    parser.add_argument("--apps", default=",".join(soap_apps()))
    parser.add_argument("--sizes", default=",".join(map(str, DEFAULT_SIZES)))
    parser.add_argument("--kinds", default=",".join(DEFAULT_KINDS),
                        help=f"workload kinds, each at every size (of {', '.join(workload_names.size_kinds())})")
    parser.add_argument("--count", type=int, default=COUNT)
    parser.add_argument("--warmup", type=float, default=WARMUP_S, help="seconds of warm-up per workload")
    parser.add_argument("--warmup-calls", type=int, default=None,
                        help="warm each workload up by this many calls instead of --warmup's seconds (Infosys: 3)")
    parser.add_argument("--jvm-warmup", type=float, default=JVM_WARMUP_S,
                        help="seconds of warm-up of each JVM app over all its workloads first")
    parser.add_argument("--client", choices=(RAW, STOCK), default=RAW,
                        help="who makes the calls: raw, the lab's envelope sent as bytes; zeep, a stock client "
                             f"marshalling Python values through the engine's WSDL (kinds {', '.join(stock_client.kinds())})")


def execute(args, browse=True):
    """Run the phases; with `browse`, a run of its own also gets its table, plot and page (a paper's
    figure draws its own)."""
    apps = [app for app in args.apps.split(",") if app]
    unknown = [app for app in apps if app not in soap_apps()]
    if unknown or not apps:
        raise Refused(f"{', '.join(unknown) or 'no app'} is no SOAP app; the SOAP apps: {', '.join(soap_apps())}", code=2)
    if args.count < 1:
        raise Refused("COUNT must be at least 1", code=2)
    sizes = [int(size) for size in args.sizes.split(",") if size]
    kinds = [kind for kind in args.kinds.split(",") if kind]
    wrong = [kind for kind in kinds if kind not in workload_names.size_kinds()]
    if wrong or not kinds:
        raise Refused(f"{', '.join(wrong) or 'no kind'}: the kinds are {', '.join(workload_names.size_kinds())}", code=2)
    too_large = [f"{kind}-{size}" for kind in kinds for size in sizes if not 1 <= size <= workload_names.largest_count(kind)]
    if too_large:
        raise Refused(f"{', '.join(too_large)}: past the contract's cap, or below 1", code=2)
    if args.client == STOCK and set(kinds) - set(stock_client.kinds()):
        raise Refused(f"CLIENT={STOCK} sends the echoes {', '.join(stock_client.kinds())}, not "
                      f"{', '.join(sorted(set(kinds) - set(stock_client.kinds())))}", code=2)
    if args.warmup_calls is not None and args.warmup_calls < 0:
        raise Refused("WARMUP_CALLS must be 0 or more", code=2)
    planned = workloads(sizes, kinds)
    warmup = Warmup(args.warmup, args.warmup_calls)
    context = RunContext.of(apps)  # the step monitors' CPUs, topology and disturbance limits, as a sweep's
    pinning = context.pinning
    names = list(dict.fromkeys(registry.server_of(app) for app in apps))
    down = [name for name in names if not lifecycle.lab_servers()[name].pid()]
    if down:
        raise Refused(f"{', '.join(down)} not running; `make up` first")
    topology.enter(topology.current().namespace("client"))
    processes.pin_harness(pinning.client_cpus)
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    speed = CanaryMonitor(processes.cpu_list(pinning.server_cpus))  # the servers' CPUs' speed, before and after
    speed.start()
    switched = switch_phases(names, True, pinning)
    try:
        with settings.chosen(SOAP_PHASES="on"):
            rows, calls = run_all(apps, planned, args.count, warmup, args.jvm_warmup, lambda text: print(text, flush=True),
                                  Watched(context), args.client)
    finally:
        switch_phases(switched, False, pinning)  # those started with the phases on stay on
    canary = speed.finish()
    folder = args.results / args.run
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "soap-phases.tsv").write_text(tsv_text(COLUMNS, rows))
    (folder / "soap-phases-calls.tsv").write_text(tsv_text(CALL_COLUMNS, calls))
    (folder / "soap-phases.json").write_text(json.dumps({
        "kind": SOAP_PHASES, "format_version": FORMAT_VERSION, "host": inventory.host(), "started": started, "count": args.count, "warmup_s": args.warmup,
        "warmup_calls": args.warmup_calls, "jvm_warmup_s": args.jvm_warmup, "apps": apps, "sizes": sizes,
        "kinds": kinds, "client": args.client, "canary": canary,
        "client_link_mtu": network.client_link_mtu(topology.current()), "registry": targets.registry(),
        "disturbance": {"max_redos": context.disturbance.max_redos, **asdict(context.disturbance.limits)}},
        indent=2) + "\n")
    if not browse:
        print(f"soap-phases: {len(rows)} rows in {folder / 'soap-phases.tsv'}, each call in soap-phases-calls.tsv")
    elif (folder / "manifest.json").exists():
        print(f"soap-phases: {len(rows)} rows in {folder / 'soap-phases.tsv'}; `make plots RUN={args.run}` adds "
              "them to the run's summary and report")
    else:
        def title(app):
            return registry.app(app).get("title", app)
        (folder / "soap-phases.md").write_text("\n".join(summary_lines(rows, title)))
        colours = {app: PALETTE[place % len(PALETTE)] for place, app in enumerate(registry.apps())}
        (folder / "data").mkdir(exist_ok=True)
        phases_page(rows, title, colours.get, folder, folder / "data")
        front = html.write_documents_report(folder, f"SOAP phases: run {args.run}", figures=[folder / "soap-phases.pdf"])
        html.write_index(args.results)
        print(f"soap-phases: {len(rows)} rows in {folder / 'soap-phases.tsv'}, the table in soap-phases.md, "
              f"the plot in soap-phases.pdf; browse: {front}")
