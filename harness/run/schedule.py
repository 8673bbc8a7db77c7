"""The order a run visits its cells in, round by round. Pure: cells, rounds and a seed in, visits out.

Every round visits every cell once, in a fresh random order (Abedi & Brecht, ICPE'17: randomized
interleaved trials, not back-to-back repeats). The apps of one engine x workload block run next to
each other, in random order, so that the ratios between apps are taken minutes apart within a round.
The A/A control cell is measured a second time in every round, at a random block boundary after its
first measurement: how far
its two figures differ is the noise floor against which app differences are judged.
"""
import random

from harness.results.records import Visit


def blocks_of(cells):
    """The cells grouped by engine x workload, in their first appearance's order."""
    blocks = {}
    for key in cells:
        blocks.setdefault((key.engine, key.workload), []).append(key)
    return list(blocks.values())


def round_order(cells, round_, seed, control=None):
    """One round's visits: blocks shuffled, apps shuffled inside each, the control's repeat inserted
    between two blocks after its first measurement's (or at the end). The same seed and round always
    give the same order."""
    chooser = random.Random(f"{seed}:{round_}")
    blocks = [list(block) for block in blocks_of(cells)]
    chooser.shuffle(blocks)
    for block in blocks:
        chooser.shuffle(block)
    visits = [[Visit(key, round_) for key in block] for block in blocks]
    if control is not None and control in cells:
        after = next(index for index, block in enumerate(blocks) if control in block) + 1
        visits.insert(chooser.randint(after, len(visits)), [Visit(control, round_, replica=2)])
    return [visit for block in visits for visit in block]


def schedule(cells, rounds, seed, control=None):
    """Every round's visits, round after round."""
    return [visit for round_ in range(1, rounds + 1) for visit in round_order(cells, round_, seed, control)]
