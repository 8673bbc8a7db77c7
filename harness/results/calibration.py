"""How far the speed canary predicts what a reply costs the servers: across a run's measurements,
cell by cell, the machine's slowness at saturation (1 / the saturation step's canary speed) against
the servers' CPU ms per reply there, each over its cell's median so that cells of different weight
pool. A canary worth gating on has a strong positive r: the slower it runs, the more a reply costs.
Pure: a run's rows in, points and Pearson's r out."""
import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Calibration:
    points: list  # (cell key, round, slowness, cost over its cell's median)
    r: float      # Pearson's correlation of slowness and relative cost; None with too few points
    cells: int


def calibration(rows):
    """The Calibration of a run's saturation rows (its first measurements, with speed and cost);
    a cell counts with two rounds or more."""
    by_cell = {}
    for row in rows:
        if row.replica == 1 and row.machine_speed_saturation and row.server_cpu_ms_per_reply_saturation:
            by_cell.setdefault(row.key, []).append(row)
    points = []
    for key, measured in by_cell.items():
        if len(measured) < 2:
            continue
        median = statistics.median(row.server_cpu_ms_per_reply_saturation for row in measured)
        points += [(key, row.round, 1 / row.machine_speed_saturation, row.server_cpu_ms_per_reply_saturation / median)
                   for row in measured]
    slowness, cost = [point[2] for point in points], [point[3] for point in points]
    varied = len(points) >= 3 and len(set(slowness)) > 1 and len(set(cost)) > 1
    return Calibration(points, statistics.correlation(slowness, cost) if varied else None,
                       len({point[0] for point in points}))
