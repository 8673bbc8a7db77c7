"""The disk under MariaDB's data over a step, from the kernel's own count (/proc/diskstats,
Documentation/admin-guide/iostats.rst): how long it was busy, and the writes and flushes it
completed (an fsync that reaches the disk is a flush). Parsing is pure; the monitor (in
harness/measure/monitors.py) reads the file at the edge."""

# The fields after major, minor and name, in the kernel's order; a kernel before 4.18 stops after
# the eleventh, one before 5.5 after the fifteenth (no flushes).
FIELDS = ("reads", "reads_merged", "sectors_read", "read_ms", "writes", "writes_merged", "sectors_written",
          "write_ms", "in_flight", "busy_ms", "weighted_ms", "discards", "discards_merged", "sectors_discarded",
          "discard_ms", "flushes", "flush_ms")
# The kernel counts sectors of 512 bytes whatever the disk's own.
SECTOR_BYTES = 512


def parse(text):
    """{(major, minor): {field: count}} of every device a /proc/diskstats reading lists."""
    devices = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 14:
            continue
        devices[(int(parts[0]), int(parts[1]))] = dict(zip(FIELDS, map(int, parts[3:])))
    return devices


def step_figures(before, after, wall_s):
    """The disk's figures over a step from its readings before and after (parse's entries of one
    device): the share of the step it was busy with I/O, the writes and flushes it completed and the
    KiB written; {} without both readings."""
    if not before or not after or wall_s <= 0:
        return {}
    grown = {field: after[field] - before[field] for field in after if field in before}
    figures = {"db_disk_busy_share": round(grown["busy_ms"] / (1000 * wall_s), 4),
               "db_disk_writes": grown["writes"],
               "db_disk_write_kb": grown["sectors_written"] * SECTOR_BYTES // 1024}
    if "flushes" in grown:
        figures["db_disk_flushes"] = grown["flushes"]
    return figures
