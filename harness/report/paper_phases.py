"""A soap-phases figure's points (`make reproduce PAPER=infosys|lublin`): each recorded call's value of
the figure's measure (a phase's time, its items a second, its bytes, its packets), averaged per
round as the papers averaged their calls. Pure."""
import statistics

from harness.measure.soap_phases import MEMORY
from harness.report.paper_declaration import BYTES_OF, PACKET_MEASURES, RATE_OF
from harness.report.soap_phases import number as read_number


def phase_value(measure, row):
    """One call's figure: a phase's time in ms, the items it handled a second (None if its clock read
    0), or the MB it took (None from an engine that did not count them)."""
    if measure in RATE_OF:
        spent_us = float(row[RATE_OF[measure]])
        return int(row["n"]) * 1e6 / spent_us if spent_us > 0 else None
    if measure in BYTES_OF:
        counted = row.get(BYTES_OF[measure])
        return float(counted) / 1e6 if counted not in (None, "") else None
    if measure in PACKET_MEASURES:
        return packet_value(measure, row)
    return float(row[measure]) / 1000


def packet_value(measure, row):
    """A call's packets (the TCP segments its connection sent and received), those of them that
    carried data, their rate over its round trip, or the MB its engine counted over all phases per
    1,000 packets; None for a call recorded before segments were counted, or without its engine's bytes."""
    if row.get("sent") in (None, ""):
        return None
    packets = float(row["sent"]) + float(row["received"])
    if measure == "packets":
        return packets
    if measure == "data_packets":
        return float(row["data_sent"]) + float(row["data_received"])
    if measure == "packets_per_s":
        return packets * 1e6 / float(row["round_trip_us"])
    counted = [read_number(row.get(phase)) for phase in MEMORY]
    return None if None in counted else sum(counted) / 1e6 / packets * 1000


def phase_points(figure, rounds_calls):
    """{(app, kind): [(N, point)]} of a soap-phases figure (of its kind alone when it names one) from
    [(round, soap-phases-calls.tsv's rows)]: per round the mean of its recorded calls (the Infosys paper
    averaged its three, Lublin ten), over the rounds the median of those means, the interval the
    rounds' range, or from one round its calls'. A point whose calls other work disturbed, still after
    their redos, is flagged "disturbed"."""
    calls, disturbed = {}, set()
    for number, rows in rounds_calls:
        for row in rows:
            value = phase_value(figure["measure"], row)
            if value is not None and figure.get("kind", row["workload"]) == row["workload"]:
                key = (row["app"], row["workload"], int(row["n"]))
                calls.setdefault(key, {}).setdefault(number, []).append(value)
                if row.get("disturbed"):
                    disturbed.add(key)
    points = {}
    for (app, kind, n), by_round in calls.items():
        means = {number: statistics.fmean(values) for number, values in by_round.items()}
        spread = list(means.values()) if len(means) > 1 else next(iter(by_round.values()))
        points.setdefault((app, kind), []).append((n, {
            "value": statistics.median(means.values()), "low": min(spread), "high": max(spread), "rounds": len(means),
            "by_round": means, "flags": ["disturbed"] if (app, kind, n) in disturbed else [],
            "keepalive_share": None}))
    return {key: sorted(series, key=lambda pair: pair[0]) for key, series in points.items()}
