"""A server's record of its pool, the pooled servlet's (PoolWaitLog.java) and gSOAP's
(player_service.c): per second in use, the most request threads that waited for a connection and
the most connections in use. Pure: text in, a step's columns out; the monitor in
harness/measure/monitors.py reads the file."""


def pool_columns(text, started, finished):
    """{"pool_waiting_max", "pool_active_max"} over the seconds within [started, finished] (epoch
    seconds); empty when the pool was idle throughout (a step of another app)."""
    waiting, active, seen = 0, 0, False
    for line in text.splitlines():
        parts = line.split("\t")
        if len(parts) != 3 or not all(part.isdigit() for part in parts):
            continue
        second, most_waiting, most_active = map(int, parts)
        if int(started) <= second <= finished:
            seen = True
            waiting, active = max(waiting, most_waiting), max(active, most_active)
    return {"pool_waiting_max": waiting, "pool_active_max": active} if seen else {}
