"""The host's price list in the results (harness/measure/prices.py reads it): prices.tsv, one row per
round, host, CPU and price, and what a round's list reads per role (the servers' CPUs, the
client's). Pure."""
import statistics

COLUMNS = ["round", "at", "host", "role", "cpu", "price", "median", "low", "high"]
SERVERS, CLIENT = "servers", "client"


def price_rows(round_, at, readings):
    """prices.tsv's rows of one reading: `readings` [(host, role, cpu, {price: {"median", "low",
    "high"}})], a price left out ("missing") skipped."""
    return [{"round": round_, "at": at, "host": host, "role": role, "cpu": cpu, "price": price, **summary}
            for host, role, cpu, found in readings for price, summary in found.items() if price != "missing"]


def missing_prices(readings):
    """Pure: "price on CPU n: why" for every price a reading could not take."""
    return [f"{price} on CPU {cpu}{f' of the {host} host' if host else ''}: {why}"
            for host, _, cpu, found in readings for price, why in found.get("missing", {}).items()]


def rounds_priced(rows):
    """The rounds prices.tsv's rows have a list for."""
    return {int(row["round"]) for row in rows}


def round_prices(rows, role=SERVERS):
    """{round: {price: the median over the role's CPUs (and hosts) of each CPU's median}} from
    prices.tsv's rows (as strings or numbers)."""
    gathered = {}
    for row in rows:
        if row["role"] == role:
            gathered.setdefault(int(row["round"]), {}).setdefault(row["price"], []).append(float(row["median"]))
    return {round_: {price: statistics.median(values) for price, values in found.items()}
            for round_, found in gathered.items()}


def run_prices(rows, role=SERVERS):
    """{price: the median over the run's rounds of each round's price} for one role."""
    by_round = round_prices(rows, role)
    names = list(dict.fromkeys(price for found in by_round.values() for price in found))
    return {price: statistics.median(found[price] for found in by_round.values() if price in found) for price in names}


def spread(rows, price, role=SERVERS):
    """(lowest, highest) of one price's round figures for one role, or None without two rounds."""
    values = [found[price] for found in round_prices(rows, role).values() if price in found]
    return (min(values), max(values)) if len(values) > 1 else None
