"""The scored cells of a grouping ordered by human score, and the sums over their tie runs.

``CellGroups`` depends only on the human scores and on which cells are scored, so one instance
(with its cache of human-side layouts) serves every metric scored on the same cells;
``HumanSums`` is what follows, per resample, from the human levels alone. A sum over tie runs (a
human level, a run of equal metric scores, a run of both) is a product of the weights with
segment-by-run counts: ``human_sums`` and ``run_sums``. The sums over pairs that are not sums
over runs (``PairForms``) come from ``system_forms`` and ``none_forms``, which cut the levels
the same way (``level_tree``, ``separated_blocks``) and search sorted scores with
``far_prefix`` and ``monotone_end`` (as ``segment_calibration`` does too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from mteval_core.stats.pairs.weights import Weights, group_sums, sums_over


# ---------------------------------------------------------------------- human side
@dataclass(frozen=True, eq=False)
class CellGroups:
    """The scored cells of one grouping, cut into groups and ordered by human score.

    Depends only on the human scores and on which cells are scored: one instance serves every
    metric scored on the same cells. A group's levels are its distinct human scores, ascending;
    levels are numbered across groups (``level_starts``)."""

    grouping: str  # "system" or "none"
    n_segments: int
    starts: np.ndarray  # (n_groups + 1,): cells of group g are starts[g]:starts[g + 1]
    row: np.ndarray  # (n,) system of each cell, cells ordered by group, human score, position
    segment: np.ndarray  # (n,)
    human: np.ndarray  # (n,)
    level: np.ndarray  # (n,) level index
    level_starts: np.ndarray  # (n_groups + 1,)
    level_value: np.ndarray  # (n_levels,) human score of each level
    largest: np.ndarray  # (n_groups,) the level with most cells (-1 for an empty group)
    cell_group: np.ndarray = field(repr=False)  # (n,)
    cache: dict = field(default_factory=dict, repr=False)  # human-side layouts of the pair forms

    @property
    def n_groups(self) -> int:
        return len(self.starts) - 1

    @property
    def n_levels(self) -> int:
        return len(self.level_value)

    @cached_property
    def level_group(self) -> np.ndarray:
        return np.repeat(np.arange(self.n_groups), np.diff(self.level_starts))

    @cached_property
    def level_first(self) -> np.ndarray:  # (n_levels,) first level of the level's group
        return self.level_starts[self.level_group]


def cell_groups(cells: np.ndarray, human: np.ndarray, grouping: str) -> CellGroups:
    """The groups of ``grouping`` ("system": one per system; "none": all cells) over the scored
    ``cells`` (a boolean (systems, segments) matrix)."""
    rows, segments = np.nonzero(cells)
    n_groups = cells.shape[0] if grouping == "system" else 1
    group = rows if grouping == "system" else np.zeros(len(rows), np.int64)
    y = human[rows, segments]
    order = np.lexsort((np.arange(len(y)), y, group))
    rows, segments, group, y = rows[order], segments[order], group[order], y[order]
    new_level = np.ones(len(y), bool)
    new_level[1:] = (group[1:] != group[:-1]) | (y[1:] != y[:-1])
    level = np.cumsum(new_level) - 1
    level_group = group[new_level]
    level_starts = np.searchsorted(level_group, np.arange(n_groups + 1))
    counts = np.bincount(level, minlength=len(level_group))
    largest = np.full(n_groups, -1)
    for g in range(n_groups):
        if level_starts[g + 1] > level_starts[g]:
            span = counts[level_starts[g] : level_starts[g + 1]]
            largest[g] = level_starts[g] + int(np.argmax(span))
    return CellGroups(
        grouping=grouping,
        n_segments=cells.shape[1],
        starts=np.searchsorted(group, np.arange(n_groups + 1)),
        row=rows,
        segment=segments,
        human=y,
        level=level,
        level_starts=level_starts,
        level_value=y[new_level],
        largest=largest,
        cell_group=group,
    )


@dataclass(frozen=True, eq=False)
class HumanSums:
    """Per resample row, what depends only on the human scores: (rows, groups) arrays, and the
    weight and mid-rank of every level, (rows, levels)."""

    n: np.ndarray  # replicated cells
    tied_pairs: np.ndarray  # pairs with equal human scores (copies of a cell included)
    distinct: np.ndarray  # levels drawn
    cubes: np.ndarray  # sum over levels of their weight cubed (ties of Spearman's variance)
    level_weight: np.ndarray  # (rows, levels)
    level_rank: np.ndarray  # (rows, levels) mid-rank of the level's replicated cells


def human_sums(groups: CellGroups, weights: Weights) -> HumanSums:
    """The human side of every resample: level weights and what follows from them."""
    level_weight = sums_over(weights, groups.segment, groups.level, groups.n_levels)
    starts = groups.level_starts
    below = np.cumsum(level_weight, axis=0) - level_weight
    below -= below[groups.level_first] if groups.n_levels else 0.0
    level_rank = below + (level_weight + 1) / 2
    return HumanSums(
        n=group_sums(level_weight, starts).T,
        tied_pairs=group_sums(level_weight * (level_weight - 1) / 2, starts).T,
        distinct=group_sums((level_weight > 0).astype(np.float64), starts).T,
        cubes=group_sums(level_weight * level_weight * level_weight, starts).T,
        level_weight=level_weight.T,
        level_rank=level_rank.T,
    )


def separated_pairs(groups: CellGroups, human_side: HumanSums, threshold: float) -> np.ndarray:
    """(rows, groups): pairs whose human scores differ by at least ``threshold`` (WMT's
    Kendall-like pairs), copies of a cell included when the threshold is at most 0."""
    if threshold <= 0:
        n = human_side.n
        return n * (n - 1) / 2
    cut = level_cuts(groups, threshold)
    level_weight = human_side.level_weight.T
    below = np.cumsum(level_weight, axis=0)
    below = np.vstack([np.zeros((1, level_weight.shape[1])), below])
    reach = below[cut] - below[groups.level_first]  # weight of the levels separated below
    return group_sums(level_weight * reach, groups.level_starts).T


def level_cuts(groups: CellGroups, threshold: float) -> np.ndarray:
    """(n_levels,): for each level, the end of the run of its group's levels at least
    ``threshold`` below it (|y_c - y_d| >= threshold as floats compare it), as a level index."""
    values = groups.level_value
    own = np.arange(len(values))

    def separated(m: np.ndarray) -> np.ndarray:
        return values - values[np.minimum(m, len(values) - 1)] >= threshold

    return monotone_end(groups.level_first, own, separated)


def far_prefix(xs: np.ndarray, xq: np.ndarray, epsilon: float) -> np.ndarray:
    """Per query, how many of the sorted ``xs`` satisfy xq - x > epsilon as floats compute it
    (a prefix): the real-number answer, corrected where rounding moves it (values within an ulp
    or so of xq - epsilon)."""
    if len(xs) == 0:
        return np.zeros(len(xq), np.int64)
    k = np.searchsorted(xs, xq - epsilon)
    last = len(xs) - 1
    wrong = (k > 0) & ~(xq - xs[np.maximum(k - 1, 0)] > epsilon)
    wrong |= (k <= last) & (xq - xs[np.minimum(k, last)] > epsilon)
    if wrong.any():
        fix = np.flatnonzero(wrong)
        k[fix] = monotone_end(
            np.zeros(len(fix), np.int64),
            np.full(len(fix), len(xs)),
            lambda m: xq[fix] - xs[np.minimum(m, last)] > epsilon,
        )
    return k


def monotone_end(low: np.ndarray, high: np.ndarray, holds) -> np.ndarray:
    """Per element, the first index in [low, high) where ``holds`` (true on a prefix of that
    range, false after it) is false, or high: a bisection run on all elements at once."""
    low, high = low.astype(np.int64).copy(), high.astype(np.int64).copy()
    while True:
        open_ = low < high
        if not open_.any():
            return low
        middle = (low + high) // 2
        true = holds(middle) & open_
        low = np.where(true, middle + 1, low)
        high = np.where(open_ & ~true, middle, high)


# ---------------------------------------------------------------------- metric side: tie runs
@dataclass(frozen=True, eq=False)
class RunSums:
    """Per resample row and group, sums over the runs of equal metric scores (x runs) and of
    equal metric and human scores (joint runs): (rows, groups) arrays."""

    ties: np.ndarray  # pairs with equal metric scores, copies of a cell included
    distinct: np.ndarray  # distinct metric scores drawn
    cubes: np.ndarray  # sum over x runs of their weight cubed
    joint_ties: np.ndarray  # pairs with equal metric and equal human scores


def run_sums(groups: CellGroups, x: np.ndarray, weights: Weights) -> RunSums:
    """Tie runs of the metric scores ``x`` (one per cell, in ``groups`` order)."""
    order = np.lexsort((groups.level, x, groups.cell_group))
    group, xs = groups.cell_group[order], x[order]
    level, segment = groups.level[order], groups.segment[order]
    new_x = np.ones(len(xs), bool)
    new_x[1:] = (group[1:] != group[:-1]) | (xs[1:] != xs[:-1])
    new_joint = new_x.copy()
    new_joint[1:] |= level[1:] != level[:-1]
    ties, distinct, cubes = _over_runs(new_x, group, segment, weights, groups.n_groups, 3)
    (joint_ties,) = _over_runs(new_joint, group, segment, weights, groups.n_groups, 1)
    return RunSums(ties, distinct, cubes, joint_ties)


def _over_runs(
    new_run: np.ndarray,
    group: np.ndarray,
    segment: np.ndarray,
    weights: Weights,
    n_groups: int,
    n_sums: int,
) -> list[np.ndarray]:
    """Per group: sums over runs of W(W-1)/2, [W > 0] and W^3 (the first ``n_sums``) for the
    runs starting at ``new_run`` (cells sorted by group). A run of one cell weighs its segment's
    weight: those sums are products of functions of W with segment-by-group counts."""
    run = np.cumsum(new_run) - 1
    single = np.bincount(run)[run] == 1
    counts = (
        np.bincount(
            segment[single] * n_groups + group[single], minlength=weights.matrix.shape[1] * n_groups
        )
        .reshape(-1, n_groups)
        .astype(np.float64)
    )  # (an integer matrix would bypass BLAS)
    functions = (weights.pairs, weights.drawn, weights.cubes)[:n_sums]
    out = [f @ counts for f in functions]
    if single.all():
        return out
    multi = ~single
    multi_run = np.cumsum(new_run[multi]) - 1  # runs of several cells, numbered anew
    n_runs = int(multi_run[-1]) + 1
    run_weight = sums_over(weights, segment[multi], multi_run, n_runs)  # (runs, rows)
    by_group = np.zeros((n_groups, n_runs))
    by_group[group[multi][np.flatnonzero(new_run[multi])], np.arange(n_runs)] = 1.0
    power = run_weight * run_weight
    parts = [(by_group @ power - by_group @ run_weight) / 2]
    if n_sums > 1:
        parts.append(by_group @ (run_weight > 0).astype(np.float64))
        power *= run_weight
        parts.append(by_group @ power)
    return [total + part.T for total, part in zip(out, parts)]


# ---------------------------------------------------------------------- level trees
def level_tree(counts: np.ndarray) -> list[tuple[int, int, int]]:
    """Nodes (low, middle, high) of a binary tree over the levels 0..len(counts): every pair of
    levels is split by exactly one node, lower in [low, middle), upper in [middle, high). A node
    splits its cells about in half, so a level holding most cells stops near the root."""
    nodes: list[tuple[int, int, int]] = []
    stack = [(0, len(counts))]
    while stack:
        low, high = stack.pop()
        if high - low < 2:
            continue
        cumulative = np.cumsum(counts[low:high])
        middle = low + 1 + int(np.argmin(np.abs(cumulative[:-1] - cumulative[-1] / 2)))
        nodes.append((low, middle, high))
        stack += [(low, middle), (middle, high)]
    return nodes


def separated_blocks(
    values: np.ndarray, threshold: float
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of ranges (upper, lower) of a group's levels (human scores ``values``, ascending),
    every pair of levels across them at least ``threshold`` apart and together every such pair
    once."""
    out = []
    stack = []
    for middle_low, middle, middle_high in level_tree(np.ones(len(values), np.int64)):
        stack.append(((middle, middle_high), (middle_low, middle)))
    while stack:
        (u0, u1), (d0, d1) = stack.pop()
        if u0 >= u1 or d0 >= d1 or not values[u1 - 1] - values[d0] >= threshold:
            continue  # no pair is that far apart
        if values[u0] - values[d1 - 1] >= threshold:
            out.append(((u0, u1), (d0, d1)))
        elif u1 - u0 >= d1 - d0:
            half = (u0 + u1) // 2
            stack += [((u0, half), (d0, d1)), ((half, u1), (d0, d1))]
        else:
            half = (d0 + d1) // 2
            stack += [((u0, u1), (d0, half)), ((u0, u1), (half, d1))]
    return out


# ---------------------------------------------------------------------- pair forms
@dataclass(frozen=True, eq=False)
class PairForms:
    """Per resample row and group ((rows, groups) arrays), the sums over pairs of replicated
    cells that are not sums over tie runs."""

    agree: np.ndarray  # concordant minus discordant pairs
    rank_products: np.ndarray  # sum over cells of weight x metric mid-rank x human mid-rank
    far: dict[float, np.ndarray]  # epsilon -> sum over pairs with |dx| > epsilon of
    #   [concordant] - [human tie]  (acc23 at epsilon is ties in y + this)
    separated_concordant: np.ndarray | None  # concordant pairs people separate by the threshold
