"""The httperf binding (harness/drivers): an open-loop step's command line (a new connection per request,
or `calls` kept-alive requests per connection) and httperf 0.9's summary parsed into named figures.
Pure, tested on recorded outputs."""
import re
from pathlib import Path

NAME = "httperf"
LOOP = "open"

NUMBER = r"([-+]?\d+(?:\.\d+)?)"

# (regex, names of the numbers it captures) - one entry per summary line httperf prints.
LINES = [
    (rf"Maximum connect burst length: {NUMBER}", ["max_connect_burst"]),
    (rf"Total: connections {NUMBER} requests {NUMBER} replies {NUMBER} test-duration {NUMBER} s",
     ["connections", "requests", "replies", "test_duration_s"]),
    (rf"Connection rate: {NUMBER} conn/s \({NUMBER} ms/conn, <={NUMBER} concurrent connections\)",
     ["connection_rate", "ms_per_connection", "max_concurrent_connections"]),
    (rf"Connection time \[ms\]: min {NUMBER} avg {NUMBER} max {NUMBER} median {NUMBER} stddev {NUMBER}",
     ["conn_time_min_ms", "conn_time_avg_ms", "conn_time_max_ms", "conn_time_median_ms",
      "conn_time_stddev_ms"]),
    (rf"Connection time \[ms\]: connect {NUMBER}", ["connect_time_ms"]),
    (rf"Request rate: {NUMBER} req/s", ["request_rate"]),
    (rf"Request size \[B\]: {NUMBER}", ["request_size_b"]),
    (rf"Reply rate \[replies/s\]: min {NUMBER} avg {NUMBER} max {NUMBER} stddev {NUMBER} \({NUMBER} samples\)",
     ["reply_rate_min", "reply_rate_avg", "reply_rate_max", "reply_rate_stddev", "reply_rate_samples"]),
    (rf"Reply time \[ms\]: response {NUMBER} transfer {NUMBER}", ["response_time_ms", "transfer_time_ms"]),
    (rf"Reply size \[B\]: header {NUMBER} content {NUMBER} footer {NUMBER} \(total {NUMBER}\)",
     ["reply_header_b", "reply_content_b", "reply_footer_b", "reply_total_b"]),
    (rf"Reply status: 1xx={NUMBER} 2xx={NUMBER} 3xx={NUMBER} 4xx={NUMBER} 5xx={NUMBER}",
     ["status_1xx", "status_2xx", "status_3xx", "status_4xx", "status_5xx"]),
    (rf"CPU time \[s\]: user {NUMBER} system {NUMBER} \(user {NUMBER}% system {NUMBER}% total {NUMBER}%\)",
     ["client_cpu_user_s", "client_cpu_system_s", "client_cpu_user_pct", "client_cpu_system_pct",
      "client_cpu_total_pct"]),
    (rf"Net I/O: {NUMBER} KB/s", ["net_io_kb_s"]),
    # The harness's own line above httperf's output: what httperf's process cost the kernel
    # (harness/measure/load.py's usage_line).
    (rf"# rusage: minflt {NUMBER} nvcsw {NUMBER} nivcsw {NUMBER}", ["client_minflt", "client_vcsw", "client_ivcsw"]),
    (rf"Errors: total {NUMBER} client-timo {NUMBER} socket-timo {NUMBER} connrefused {NUMBER} connreset {NUMBER}",
     ["errors_total", "client_timo", "socket_timo", "connrefused", "connreset"]),
    (rf"Errors: fd-unavail {NUMBER} addrunavail {NUMBER} ftab-full {NUMBER} other {NUMBER}",
     ["fd_unavail", "addrunavail", "ftab_full", "errors_other"]),
    (rf"Session rate \[sess/s\]: min {NUMBER} avg {NUMBER} max {NUMBER} stddev {NUMBER} \({NUMBER}/{NUMBER}\)",
     ["session_rate_min", "session_rate_avg", "session_rate_max", "session_rate_stddev",
      "sessions_completed", "sessions_total"]),
]
REQUIRED = ["connections", "requests", "replies", "test_duration_s", "request_rate", "errors_total"]
FIGURES = [name for _, names in LINES for name in names] + ["offered_rate", "reply_rate"]


class IncompleteOutput(ValueError):
    """httperf printed no (or only part of a) summary: it was killed, hung or failed to start."""


def offered_rate(text):
    """The --rate httperf echoes on its command line (its own normalised form)."""
    match = re.search(r"--rate=([\d.]+)", text)
    return float(match.group(1)) if match else None


def reply_rate(figures):
    """Replies per second. Without client timeouts: over the span in which the replies arrived, the
    replies after the first over the test's duration less the shortest connection (about when the
    first reply came). Kept alive, the shortest connection carried all its calls: it is also the least
    the last connection lasted after the schedule's end, so the span is never shorter than the one the
    requests were offered over (a server that keeps up reads its offered rate, and no slower one more).
    With timeouts the test ends on a timeout, not a reply, so httperf's own
    average over its 5 s samples is kept (replies over the duration when it took none: a run under
    5 s prints "(0 samples)" with zeros).

    Why not always httperf's average: a 5 s step holds one sample, which counts only the replies
    that came within its first 5 s. With slow replies that reads low although the server kept up:
    SOAP's 16,000-row reply (445 ms each) at 1.5 req/s gave 10 replies in 6.44 s, every one in
    442-456 ms, and httperf's one sample said 1.4, a failing step (run net-100mbit); this gives 1.50."""
    replies, duration = figures["replies"], figures["test_duration_s"]
    span = duration - figures.get("conn_time_min_ms", 0.0) / 1000
    if not figures.get("client_timo") and replies >= 2 and span > 0:
        return (replies - 1) / span
    if figures.get("reply_rate_samples", 0) >= 1:
        return figures["reply_rate_avg"]
    return replies / duration if duration > 0 else 0.0


def figures(text):
    """Every figure of one httperf summary, as floats keyed by the names in FIGURES (the lab's words,
    harness/results/figures.py); reply_rate is `reply_rate`'s."""
    figures = {}
    for pattern, names in LINES:
        match = re.search(pattern, text)
        if match:
            figures.update(zip(names, map(float, match.groups())))
    missing = [name for name in REQUIRED if name not in figures]
    if missing:
        raise IncompleteOutput(f"httperf summary incomplete, missing {', '.join(missing)}")
    figures["offered_rate"] = offered_rate(text)
    figures["reply_rate"] = reply_rate(figures)
    return figures


HISTOGRAM_LINE = re.compile(r"^\s+(\d+(?:\.\d+)?)\s+(\d+)$")


def lifetime_histogram(text):
    """[(bin's upper edge in ms, connections)] from the connection-lifetime histogram that httperf
    prints with --verbose --verbose: 1 ms bins, connect to close of each completed connection
    (with one call per connection, a request's whole time). [] when it printed none."""
    lines = text.splitlines()
    try:
        start = next(index for index, line in enumerate(lines) if line.startswith("Connection lifetime histogram"))
    except StopIteration:
        return []
    bins = []
    for line in lines[start + 1:]:
        if line.strip() == ":":  # httperf elides a run of empty bins as one ":" line
            continue
        match = HISTOGRAM_LINE.match(line)
        if not match:
            break
        bins.append((float(match.group(1)) + 0.5, int(match.group(2))))
    return bins


# Debian's httperf reads each --wsesslog line with fgets into 10,000-byte buffers, which keep at
# most 9,999 bytes: a longer session line (a POST body past ~9.9 KB: echo-N from N = 77) would be
# read in pieces and its body sent cut. Such sessions go to the lab's large-body build
# (httperf-scripts/build-httperf.sh), the same httperf with those buffers sized to the file.
STOCK_SESSION_LINE_LIMIT = 9999
DEFAULT_SEND_BUFFER = 4096
LARGE_BODY_HTTPERF = Path(__file__).resolve().parents[2] / "target" / "httperf" / "httperf"
# How the manifest reads each build's version (harness/hosts/inventory.py).
VERSIONS = {"httperf": ["httperf", "--version"], "httperf_large_bodies": [str(LARGE_BODY_HTTPERF), "--version"]}


# The builds a step may ask for (the plan's httperf_build, from the knob LARGE_BODY_HTTPERF).
BUILDS = ("auto", "always")


def checked_build(build):
    """`build` when it names one of BUILDS; ValueError otherwise."""
    if build not in BUILDS:
        raise ValueError(f"LARGE_BODY_HTTPERF is {' or '.join(BUILDS)}, not {build!r}")
    return build


def binary(request, build="auto"):
    """Debian's httperf for every request it can send whole; the lab's large-body build otherwise, or
    for every POST when `build` is "always"."""
    if request.method == "GET" or (checked_build(build) == "auto" and len(session_line(request).encode())
                                   <= STOCK_SESSION_LINE_LIMIT):
        return "httperf"
    if not LARGE_BODY_HTTPERF.exists():
        raise FileNotFoundError(f"a {len(request.body.encode()):,}-byte body needs the large-body httperf, "
                                f"{LARGE_BODY_HTTPERF}: run make build")
    return str(LARGE_BODY_HTTPERF)


def command(request, rate, num_requests, timeout_s, session_file=None, calls=1, build="auto"):
    """One open-loop httperf run of `num_requests` at `rate` req/s: a new connection per request, as
    in the 2006 study; or with `calls` > 1, connections opened at rate / calls, each carrying `calls`
    requests one after another (a GET's --num-calls; a POST's session of `calls` requests, written
    by session_file_text), kept alive; by the httperf `build` names (binary).

    No --hog: with it httperf binds every local port itself, which the kernel cannot recycle from
    TIME_WAIT; at ~50,000 TIME_WAIT sockets a run hung and printed nothing (measured here). Left to
    connect(), the kernel reuses TIME_WAIT ports on loopback (net.ipv4.tcp_tw_reuse)."""
    if num_requests % calls:
        raise ValueError(f"{num_requests} requests do not fill connections of {calls} calls")
    connections = num_requests // calls
    command = [binary(request, build), "--server", request.host, "--port", str(request.port),
               "--rate", f"{rate / calls:g}", "--timeout", f"{timeout_s:g}",
               # Twice: httperf then prints each step's connection-lifetime histogram (1 ms bins).
               "--verbose", "--verbose"]
    if session_file is None:
        return command + ["--uri", request.path, "--num-conns", str(connections), "--num-calls", str(calls)]
    headers = "".join(f"{name}: {value}\\n" for name, value in request.headers.items())
    return command + ["--wsesslog", f"{connections},0,{session_file}", "--add-header", headers,
                      "--send-buffer", str(send_buffer(request))]


def send_buffer(request):
    """httperf's --send-buffer for a POST: room for the whole body, as a power of two, from httperf's
    own 4,096. httperf sets SO_SNDBUF, which turns off the kernel's autotuning: with its 4 KB, echo-10000's
    1.3 MB envelope went out in 4 KB pieces, and Axis2's reply time at 17 req/s read 262 ms, 24 ms
    with room for the body (measured here, 85 requests, twice each); wrk and oha leave it to the kernel."""
    return max(DEFAULT_SEND_BUFFER, 1 << (len(request.body.encode()) - 1).bit_length())


def session_line(request):
    """One request as a --wsesslog line: a POST with its body; a GET (a mix's read) with none."""
    if "'" in request.body:
        raise ValueError("httperf session bodies are single-quoted: the body cannot hold a quote")
    if "\\" in request.body or "\n" in request.body:
        # httperf reads a backslash as an escape, and a line break ends its line.
        raise ValueError("httperf session bodies are one line without escapes: no backslash or line break")
    if request.method == "GET" and not request.body:
        return f"{request.path} method=GET\n"
    return f"{request.path} method={request.method} contents='{request.body}'\n"


# The most sessions a --wsesslog file may define: Debian's httperf refuses more ("too many sessions
# (1001) specified", measured here).
MOST_SESSIONS = 1000


def sessions_of(request, calls=1, drawn=()):
    """A --wsesslog file's sessions, each `calls` requests, which httperf takes round-robin, one per
    connection: without `drawn`, one session of the request `calls` times; with a drawing workload's
    requests (stack.registry.drawn_requests), each in turn, one session per `calls` of them, at most
    MOST_SESSIONS: a longer step sends them again in the same order, so that an id comes back only a
    thousand connections later."""
    if not drawn:
        return [(request,) * calls]
    count = min(MOST_SESSIONS, max(1, len(drawn) // calls))
    taken = [drawn[place % len(drawn)] for place in range(count * calls)]
    return [tuple(taken[start:start + calls]) for start in range(0, len(taken), calls)]


def sessions_text(sessions):
    """The --wsesslog file of sessions (sessions_of's): every line a burst of its own, sent after the
    last one's reply on the session's connection, a blank line between sessions."""
    return "\n".join("".join(map(session_line, session)) for session in sessions)


def session_file_text(request, calls=1, drawn=()):
    """The --wsesslog file of sessions_of(request, calls, drawn)."""
    return sessions_text(sessions_of(request, calls, drawn))


def updates_owed(sessions, connections):
    """The UPDATEs that a run of `connections` over these sessions owes the database (each request's
    `updates`; httperf takes the sessions round-robin from the first), and the most that one of its
    requests owes: (owed, most)."""
    owed = [sum(each.updates for each in session) for session in sessions]
    rounds, rest = divmod(connections, len(owed))
    return rounds * sum(owed) + sum(owed[:rest]), max(each.updates for session in sessions for each in session)
