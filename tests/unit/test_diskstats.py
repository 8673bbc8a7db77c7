"""The disk under MariaDB's data over a step, from two recorded readings of /proc/diskstats (AMD EPYC
VM, kernel 6.18, virtio disk vda) around 200 fdatasyncs of a 4 KiB block in var/, which took 52 ms."""
from harness.measure import diskstats
from tests.unit.test_httperf_driver import FIXTURES

PROC = FIXTURES.parent / "proc"
BEFORE = diskstats.parse((PROC / "diskstats-before-200-fsyncs.txt").read_text())
AFTER = diskstats.parse((PROC / "diskstats-after-200-fsyncs.txt").read_text())
VDA = (254, 0)


def test_every_listed_device_is_read_by_its_numbers_with_the_kernels_fields():
    assert VDA in BEFORE and (7, 0) in BEFORE and (253, 0) in BEFORE
    assert BEFORE[VDA]["writes"] == 1798975 and BEFORE[VDA]["busy_ms"] == 330352 and BEFORE[VDA]["flushes"] == 749125
    assert set(BEFORE[VDA]) == set(diskstats.FIELDS)


def test_a_steps_fsyncs_are_the_disks_flushes_and_its_busy_share_its_io_time_over_the_wall():
    figures = diskstats.step_figures(BEFORE[VDA], AFTER[VDA], 0.052)
    # Each fdatasync reached the disk as one flush; the kernel counted 36 ms of I/O in 52.
    assert figures == {"db_disk_busy_share": 0.6923, "db_disk_writes": 414, "db_disk_write_kb": 856,
                       "db_disk_flushes": 200}


def test_an_older_kernels_line_without_flushes_and_a_missing_reading_give_what_they_can():
    old = "   8       0 sda 10 0 80 5 20 0 160 9 0 12 14\n"
    newer = "   8       0 sda 10 0 80 5 30 0 240 9 0 112 14\n"
    assert diskstats.step_figures(diskstats.parse(old)[(8, 0)], diskstats.parse(newer)[(8, 0)], 1.0) == {
        "db_disk_busy_share": 0.1, "db_disk_writes": 10, "db_disk_write_kb": 40}
    assert diskstats.step_figures(None, AFTER[VDA], 1.0) == {} == diskstats.step_figures(BEFORE[VDA], None, 1.0)
