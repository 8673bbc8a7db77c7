"""The order a run visits its cells in, round by round. Pure: cells, rounds and a seed in, visits out.

Every round visits every cell once, in a fresh random order (Abedi & Brecht, ICPE'17: randomized
interleaved trials, not back-to-back repeats). The apps of one engine x workload block run next to
each other, in random order, so that the ratios between apps are taken minutes apart within a round.
The A/A control cell is measured a second time in every round, at a random block boundary after its
first measurement: how far
its two figures differ is the noise floor against which app differences are judged.
"""
import random
import statistics

from harness.results.records import Visit
from harness.results.stats import stein_rounds


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


def added_rounds(first_figures, first, target, most, seed, control=None):
    """ROUNDS=auto's rounds after the first `first`: Stein's procedure (results/stats.py) gives each
    cell its rounds in all from its first rounds' figures ({cell: [figures]}; a cell with fewer than
    two has none added), and round r visits, in a fresh random order, only the cells that need r
    rounds or more. ({cell: rounds in all}, the added rounds' visits)."""
    needs = {key: max(first, stein_rounds(values, target, most)) if len(values) >= 2 else first
             for key, values in first_figures.items()}
    visits = []
    for round_ in range(first + 1, max(needs.values(), default=first) + 1):
        cells = [key for key, rounds in needs.items() if rounds >= round_]
        visits += round_order(cells, round_, seed, control)
    return needs, visits


def auto_extension(summaries, cells, first, target, most, seed, control=None):
    """ROUNDS=auto once its first `first` rounds are done: (the manifest's record of it, the added
    rounds' visits), from the rows measured so far ({Visit: CellSummary})."""
    figures = {key: [row.saturation_rps for visit, row in sorted(summaries.items(), key=lambda item: item[0].round)
                     if visit.key == key and visit.replica == 1 and visit.round <= first and row.saturation_rps]
               for key in cells}
    needs, visits = added_rounds(figures, first, target, most, seed, control)
    return ({"target": target, "first_rounds": first, "stopped_at_cap_after_round": None,
             "cells": {str(key): {"rounds": needs[key], "first_figures": figures[key]} for key in needs}}, visits)


def starts_an_added_round(visit, before, first):
    """Whether `visit` opens a round after the first `first` (`before`: the run's visits before it)."""
    return visit.round > first and all(each.round < visit.round for each in before)


def round_minutes(cells, walls, warmup_s=0.0):
    """What a round of these cells should take, in minutes: each cell's median wall so far
    ({cell: [seconds]}; a cell with none, the median over all), and one warm-up of `warmup_s`."""
    every = sorted(seconds for each in walls.values() for seconds in each)
    if not every:
        return warmup_s / 60
    return (sum(statistics.median(walls.get(key) or every) for key in cells) + warmup_s) / 60
