"""Several load clients for one step (CLIENTS=N): how they share the offered rate, how their outputs
are kept in one raw file, and how their figures and histograms become the step's. Pure.

Counts and rates add up; the times are weighted by the replies they came from; percentiles are never
averaged: they are read from the clients' lifetime histograms merged bin by bin. A figure that
cannot be combined from the clients' summaries (the min, max and spread of httperf's 5 s reply-rate
samples) is left out rather than guessed."""
import math
from collections import Counter

from harness.results.figures import percentiles

# The marker line before each client's output in a step's raw file (only with more than one).
MARKER = "### client {number} of {clients}"

SUMMED = ["connections", "requests", "replies", "connection_rate", "max_concurrent_connections",
          "request_rate", "reply_rate_avg", "reply_rate", "status_1xx", "status_2xx", "status_3xx",
          "status_4xx", "status_5xx", "client_cpu_user_s", "client_cpu_system_s", "net_io_kb_s",
          "errors_total", "client_timo", "socket_timo", "connrefused", "connreset", "fd_unavail",
          "addrunavail", "ftab_full", "errors_other", "session_rate_avg", "sessions_completed",
          "sessions_total", "offered_rate", "client_minflt", "client_vcsw", "client_ivcsw", "updates_owed"]
LARGEST = ["max_connect_burst", "test_duration_s", "conn_time_max_ms", "client_cpu_user_pct",
           "client_cpu_system_pct", "client_cpu_total_pct", "updates_most_per_request"]
SMALLEST = ["conn_time_min_ms", "reply_rate_samples"]
# Averages over connections (weighted by each client's connections) or over replies.
PER_CONNECTION = ["conn_time_avg_ms", "connect_time_ms"]
PER_REPLY = ["response_time_ms", "transfer_time_ms", "request_size_b", "reply_header_b",
             "reply_content_b", "reply_footer_b", "reply_total_b"]


def shares(rate, num_conns, clients):
    """[(rate, connections)] per client: the offered rate split evenly, the connections as evenly
    as whole numbers allow (the first clients take the remainder), so that every client's schedule
    spans the same window."""
    if clients < 1:
        raise ValueError("there must be at least one client")
    base, extra = divmod(num_conns, clients)
    return [(rate / clients, base + (1 if number < extra else 0)) for number in range(clients)]


def joined_output(outputs):
    """One raw file's text: a single client's output as it is; several, each under its marker."""
    if len(outputs) == 1:
        return outputs[0]
    return "".join(f"{MARKER.format(number=number, clients=len(outputs))}\n{output.rstrip()}\n"
                   for number, output in enumerate(outputs, start=1))


def split_output(text):
    """The clients' outputs from a raw file written by `joined_output`."""
    first = MARKER.split("{")[0]
    if not text.startswith(first):
        return [text]
    parts, current = [], None
    for line in text.splitlines(keepends=True):
        if line.startswith(first):
            current = []
            parts.append(current)
        else:
            current.append(line)
    return ["".join(part) for part in parts]


def merged_histogram(histograms):
    """[(bin's upper edge, connections)] of several clients' lifetime histograms, bin by bin."""
    counts = Counter()
    for bins in histograms:
        for edge, count in bins:
            counts[edge] += count
    return sorted(counts.items())


def weighted(values_and_weights):
    total = sum(weight for _, weight in values_and_weights)
    if not total:
        return values_and_weights[0][0]
    return sum(value * weight for value, weight in values_and_weights) / total


def pooled_stddev(groups):
    """The standard deviation of the union of groups given as (count, mean, stddev)."""
    total = sum(count for count, _, _ in groups)
    if not total:
        return 0.0
    mean = sum(count * average for count, average, _ in groups) / total
    return math.sqrt(sum(count * (spread ** 2 + (average - mean) ** 2) for count, average, spread in groups) / total)


def merged(figures_list, histogram):
    """The step's figures from its clients' (each parsed from one httperf output): counts and rates
    summed, extremes kept, times weighted, the median from the merged histogram."""
    if len(figures_list) == 1:
        return dict(figures_list[0])
    combined = {}
    for name in SUMMED:
        if all(name in figures for figures in figures_list):
            combined[name] = sum(figures[name] for figures in figures_list)
    for name, pick in [*((name, max) for name in LARGEST), *((name, min) for name in SMALLEST)]:
        if all(name in figures for figures in figures_list):
            combined[name] = pick(figures[name] for figures in figures_list)
    for names, weight in ((PER_CONNECTION, "connections"), (PER_REPLY, "replies")):
        for name in names:
            if all(name in figures for figures in figures_list):
                combined[name] = weighted([(figures[name], figures[weight]) for figures in figures_list])
    if all("conn_time_stddev_ms" in figures for figures in figures_list):
        combined["conn_time_stddev_ms"] = pooled_stddev(
            [(figures["replies"], figures["conn_time_avg_ms"], figures["conn_time_stddev_ms"])
             for figures in figures_list])
    if combined.get("connection_rate"):
        combined["ms_per_connection"] = 1000 / combined["connection_rate"]
    median = percentiles(histogram, 0, math.inf, quantiles=(0.5,)).get(0.5)
    if median is not None:
        combined["conn_time_median_ms"] = median
    return combined
