"""Sums over pairs of cells for the system and none groupings, for every resample at once.

A resample is a row of segment weights w (how often each segment is drawn); a cell counts as
often as its segment. Within a group of cells (a system's cells, or all cells), every statistic of
``segment_level`` is a function of a few sums over the pairs of replicated cells -- concordant
minus discordant pairs, pairs tied in x, in y or in both, pairs acc23 counts right, Kendall-like's
pairs -- and, for Spearman, of the weighted mid-ranks. Per resample these would take a sort or an
enumeration of the pairs. Here each is a product of the whole weight matrix with a fixed matrix:

- a sum over tie runs (x ties, y ties, joint ties, distinct values) is W @ (segment x run counts);
- a sum over pairs is a quadratic form w' K w. People's scores take few values (levels), and a
  pair within one level adds nothing to most sums, so K is only needed on the rows of the cells
  outside the largest level: F = W @ K[rows]' is one matrix product, and the sum is w[rows] . F;
- a cell's mid-rank is w . (its row of [x_d < x_c] + [x_d = x_c] / 2), on the same rows; the
  rank sum of the largest level is what is left of n (n + 1) / 2;
- for the none grouping the rows of K are sums over cells (one row per segment and level), built
  from cumulative counts of segments in x order, level range against level range;
- for a large system the products (rows x cells^2) cost more than cumulating the weights of its
  cells in x order, level range against level range (rows x cells x the depth of the ranges).

Every count is a whole number (half-integers for ranks), and each product is exact: in float32
when its bound allows, two fields packed into one product where they fit, float64 otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy import sparse

FLOAT32_EXACT = 2.0**24  # every integer below this is a float32
FLOAT64_EXACT = 2.0**53
TABLE_BLOCK = 64  # cells per block of a cumulative segment count table
CHUNK_ENTRIES = 2_000_000  # entries of a kernel matrix multiplied at once (memory stays bounded)


# ---------------------------------------------------------------------- weights
@dataclass(eq=False)
class Weights:
    """Rows of segment weights (the data, then each resample) and functions of them that every
    metric's sums share."""

    matrix: np.ndarray  # (rows, n_segments), whole numbers
    human: dict = field(default_factory=dict)  # scored cells -> (CellGroups, HumanSums)

    @cached_property
    def float32(self) -> np.ndarray:
        return self.matrix.astype(np.float32)

    @cached_property
    def transposed(self) -> np.ndarray:  # (n_segments, rows), C order, for sparse products
        return np.ascontiguousarray(self.matrix.T)

    @cached_property
    def transposed_single(self) -> np.ndarray:
        return np.ascontiguousarray(self.matrix.T, dtype=np.float32)

    @cached_property
    def largest(self) -> float:
        return float(self.matrix.max(initial=0.0))

    @cached_property
    def largest_row(self) -> float:  # the largest row sum
        return float(self.matrix.sum(1).max(initial=0.0))

    @cached_property
    def pairs(self) -> np.ndarray:  # pairs of copies of one cell
        return self.matrix * (self.matrix - 1) / 2

    @cached_property
    def drawn(self) -> np.ndarray:
        return (self.matrix > 0).astype(np.float64)

    @cached_property
    def cubes(self) -> np.ndarray:
        return self.matrix * self.matrix * self.matrix  # (** 3 is a slow generic power)


def as_weights(weights: np.ndarray | Weights) -> Weights:
    return weights if isinstance(weights, Weights) else Weights(np.asarray(weights, np.float64))


def sums_over(
    weights: Weights,
    segment: np.ndarray,
    member_of: np.ndarray,
    n: int,
    exact_single: bool = False,
) -> np.ndarray:
    """(n, rows): per row, the weight of each of n sets of cells (a cell weighs its segment's
    weight); ``segment`` and ``member_of`` give each cell's segment and set. With
    ``exact_single``, float32 where every set's weight is below 2**24 (a set weighs at most its
    cells times the largest weight)."""
    counts = np.bincount(member_of, minlength=n)
    single = exact_single and counts.max(initial=0) * weights.largest < FLOAT32_EXACT
    dtype = np.float32 if single else np.float64
    incidence = sparse.csr_matrix(
        (np.ones(len(segment), dtype), (member_of, segment)), shape=(n, weights.matrix.shape[1])
    )
    return incidence @ (weights.transposed_single if single else weights.transposed)


def group_sums(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Sums of consecutive rows of ``values`` (items, rows) per group (items ``starts[g]`` to
    ``starts[g + 1]``); empty groups sum to 0."""
    out = np.zeros((len(starts) - 1, values.shape[1]))
    nonempty = np.flatnonzero(starts[1:] > starts[:-1])
    if len(nonempty):
        out[nonempty] = np.add.reduceat(values, starts[nonempty], axis=0, dtype=np.float64)
    return out


# ---------------------------------------------------------------------- packed products
def field_products(
    weights: Weights,
    fields: list[np.ndarray],
    bounds: list[float],
    columns: np.ndarray | None = None,
    single: bool = False,
) -> list[np.ndarray]:
    """F_k = W @ A_k' for each field A_k (items, n_segments), exactly: whole-number fields whose
    products stay below ``bounds[k]`` in absolute value. Consecutive fields share one product
    where A_1 + M_2 A_2 + M_3 A_3 ... stays exact (each M a power of two above twice the bound
    of the fields below it); the product is float32 where it fits, and stays float32 with
    ``single``. With ``columns``, the fields' columns are those segments (the others 0)."""
    out: list[np.ndarray] = []
    k = 0
    while k < len(fields):
        shifts, total = [1.0], bounds[k]
        while k + len(shifts) < len(fields):
            shift = 2.0 ** np.ceil(np.log2(2 * total + 2))
            stacked = total + shift * bounds[k + len(shifts)]
            if stacked >= FLOAT64_EXACT:
                break
            shifts.append(shift)
            total = stacked
        packed = fields[k]
        for shift, field_matrix in zip(shifts[1:], fields[k + 1 :]):
            packed = packed + shift * field_matrix
        if columns is not None:
            placed = np.zeros((packed.shape[0], weights.matrix.shape[1]))
            placed[:, columns] = packed
            packed = placed
        product = _product(weights, packed, total)
        if not single:
            product = product.astype(np.float64, copy=False)
        parts = []
        for shift in shifts[:0:-1]:  # the top field first: what is under it is below shift / 2
            high = np.rint(product * (1.0 / shift))
            parts.append(high)
            product = product - shift * high
        out += [product, *parts[::-1]]
        k += len(shifts)
    return out


def _product(weights: Weights, field_matrix: np.ndarray, bound: float) -> np.ndarray:
    if bound < FLOAT32_EXACT:
        return weights.float32 @ field_matrix.T.astype(np.float32)
    return weights.matrix @ field_matrix.T


def product_bound(weights: Weights, field_matrix: np.ndarray) -> float:
    """A bound on |W @ A'|: the largest weight times the largest row sum of |A|, or the
    largest entry of |A| times the largest row sum of W, whichever is smaller."""
    if field_matrix.size == 0:
        return 0.0
    absolute = np.abs(field_matrix)
    return min(
        weights.largest * float(absolute.sum(1).max()),
        weights.largest_row * float(absolute.max()),
    )


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


def system_forms(
    groups: CellGroups,
    x: np.ndarray,
    weights: Weights,
    human_side: HumanSums,
    epsilons: tuple[float, ...],
    threshold: float | None,
) -> PairForms:
    """The pair sums of each system's cells (a cell per segment), system by system (arrays of
    a system's size stay in cache; stacking them all is slower)."""
    rows = weights.matrix.shape[0]
    agree = np.zeros((rows, groups.n_groups))
    rank_products = np.zeros((rows, groups.n_groups))
    far = {epsilon: np.zeros((rows, groups.n_groups)) for epsilon in epsilons}
    separated = None if threshold is None else np.zeros((rows, groups.n_groups))
    for g in range(groups.n_groups):
        cells = slice(groups.starts[g], groups.starts[g + 1])
        if cells.stop - cells.start < 2:
            continue
        if _cumulating_is_cheaper(groups, g, x[cells], epsilons):
            sums = _sorted_group(groups, g, x[cells], weights, human_side, epsilons, threshold)
        else:
            layout = _system_layout(groups, g, threshold)
            sums = _system_group(layout, x[cells], weights, human_side, g, epsilons, threshold)
        agree[:, g], rank_products[:, g] = sums["agree"], sums["ranks"]
        for epsilon in epsilons:
            far[epsilon][:, g] = sums[epsilon]
        if separated is not None:
            separated[:, g] = sums["separated"]
    return PairForms(agree, rank_products, far, separated)


@dataclass(frozen=True, eq=False)
class _SystemLayout:
    """The human side of one system's pair forms. Its cells (one per segment) are ordered by
    level; the forms use the rows of the cells outside the largest level (pairs within that
    level add nothing to them), over the columns of all segments, with that level's columns
    counted twice so that every pair counts twice."""

    segment: np.ndarray  # (n,)
    level: np.ndarray  # (n,) level within the group
    levels: slice  # the group's levels among all levels
    largest: int
    outside: np.ndarray  # cells outside the largest level
    order: np.ndarray  # (outside, n_segments) sign of the human difference, x 2 in the largest
    #   level's columns, 0 in the columns of segments without a cell
    separated_rows: np.ndarray  # cells with a partner the threshold below them
    separated: np.ndarray | None  # (separated rows, n_segments) such partners
    level_firsts: np.ndarray  # first row of each level present among the rows
    row_levels: np.ndarray  # those levels
    cache: dict = field(default_factory=dict)  # kernels derived from the above


def _system_layout(groups: CellGroups, g: int, threshold: float | None) -> _SystemLayout:
    key = ("system", g, threshold)
    if key not in groups.cache:
        cells = slice(groups.starts[g], groups.starts[g + 1])
        level = groups.level[cells] - groups.level_starts[g]
        largest = int(groups.largest[g] - groups.level_starts[g])
        outside = np.flatnonzero(level != largest)
        segment = groups.segment[cells]
        n_segments = groups.n_segments
        level_of = np.full(n_segments, -1)
        level_of[segment] = level
        double = np.zeros(n_segments)
        double[segment] = np.where(level == largest, 2.0, 1.0)
        order = np.sign(level[outside, None] - level_of[None, :]) * double
        human = np.full(n_segments, np.nan)
        human[segment] = groups.human[cells]
        row_level = level[outside]
        level_firsts = np.flatnonzero(np.r_[True, row_level[1:] != row_level[:-1]])
        level_firsts = level_firsts[level_firsts < len(row_level)]
        separated_rows, separated = np.zeros(0, np.int64), None
        if threshold is not None:  # partners at least the threshold below
            below = groups.human[cells][:, None] - human[None, :] >= threshold
            separated_rows = np.flatnonzero(below.any(axis=1))
            separated = below[separated_rows]
        groups.cache[key] = _SystemLayout(
            segment=segment,
            level=level,
            levels=slice(groups.level_starts[g], groups.level_starts[g + 1]),
            largest=largest,
            outside=outside,
            order=order,
            separated_rows=separated_rows,
            separated=separated,
            level_firsts=level_firsts,
            row_levels=row_level[level_firsts],
        )
    return groups.cache[key]


def _system_group(
    layout: _SystemLayout,
    x: np.ndarray,
    weights: Weights,
    human: HumanSums,
    g: int,
    epsilons: tuple[float, ...],
    threshold: float | None,
) -> dict:
    """Concordant minus discordant pairs, the sum over cells of w x rank_x x rank_y, the far
    sums at each epsilon and Kendall-like's separated concordant pairs of one system.

    Concordance and doubled ranks (2 [x_d < x_c] + [x_d = x_c], c itself included) are fields of
    one product of the weights with the rows outside the largest level; a segment without a cell
    scores +inf, which makes both its fields 0. The far and separated kernels are mostly 0 (few
    pairs that far apart): products of the rows and columns that can hold such pairs."""
    n = human.n[:, g]
    level_rank = human.level_rank[:, layout.levels]
    level_weight = human.level_weight[:, layout.levels]
    zero = np.zeros_like(n)
    out: dict = {"agree": zero, "separated": zero}
    by_segment = np.full(weights.matrix.shape[1], np.inf)
    by_segment[layout.segment] = x
    for epsilon in epsilons:
        out[epsilon] = _far_form(layout, x, by_segment, weights, epsilon)
    if np.all(x == x[0]) or len(layout.outside) == 0:
        # one metric score: every mid-rank is (n + 1) / 2; one level: no pair is ordered
        out["ranks"] = np.einsum("rl,rl->r", level_weight * ((n + 1) / 2)[:, None], level_rank)
        return out
    rows = layout.outside
    sign = np.sign(x[rows, None] - by_segment[None, :])
    agree_product, rank_product, single = _agree_and_ranks(layout, sign, weights)
    own = (weights.float32 if single else weights.matrix)[:, layout.segment[rows]]
    out["agree"] = 0.5 * np.einsum("ri,ri->r", own, agree_product).astype(np.float64)
    doubled = np.zeros_like(level_weight)  # rows are in level order
    doubled[:, layout.row_levels] = np.add.reduceat(own * rank_product, layout.level_firsts, axis=1)
    rank_sums = 0.5 * (doubled + level_weight)  # a rank is (doubled rank + 1) / 2
    rank_sums[:, layout.largest] = n * (n + 1) / 2 - (
        rank_sums.sum(1) - rank_sums[:, layout.largest]
    )  # the largest level's ranks are what is left
    out["ranks"] = np.einsum("rl,rl->r", rank_sums, level_rank)
    if threshold is not None and len(layout.separated_rows):
        # concordant pairs people separate, each from its upper cell: x above the lower's
        cells = layout.separated_rows
        kernel = (x[cells, None] > by_segment[None, :]) * layout.separated
        out["separated"] = _block_form(layout.segment[cells], kernel, weights)
    return out


def _running_sums(values: np.ndarray) -> np.ndarray:
    """(n + 1, rows): the sums of the first 0..n rows of ``values``. A row at a time: np.cumsum
    along the first axis runs column by column, a few times slower on wide rows."""
    out = np.zeros((len(values) + 1, values.shape[1]))
    for i, row in enumerate(values):
        np.add(out[i], row, out=out[i + 1])
    return out


CUMULATING_COST = 300  # a cell of the level tree's nodes against an entry of the products


def _cumulating_is_cheaper(
    groups: CellGroups, g: int, x: np.ndarray, epsilons: tuple[float, ...]
) -> bool:
    """Whether ``_sorted_group`` is faster than ``_system_group`` for system g: per row of
    weights, the products cost about (cells outside the largest level) x segments, plus twice
    the pairs far apart in x; the cumulative sums CUMULATING_COST per cell per node of the level
    tree it is in (measured on 500 to 2,000 segments: the products win on WMT's few hundred)."""
    key = ("system sizes", g)
    if key not in groups.cache:
        cells = slice(groups.starts[g], groups.starts[g + 1])
        level = groups.level[cells] - groups.level_starts[g]
        bounds = np.searchsorted(level, np.arange(level.max(initial=-1) + 2))
        outside = int((groups.level[cells] != groups.largest[g]).sum())
        tree_cells = sum(
            int(bounds[high] - bounds[low]) for low, _, high in _level_tree(np.diff(bounds))
        )
        groups.cache[key] = (outside * groups.n_segments, CUMULATING_COST * tree_cells)
    products, cumulating = groups.cache[key]
    if products <= cumulating:
        xs = np.sort(x)
        products += sum(2 * int(far_prefix(xs, xs, epsilon).sum()) for epsilon in epsilons)
    return products > cumulating


def _agree_and_ranks(
    layout: _SystemLayout, sign: np.ndarray, weights: Weights
) -> tuple[np.ndarray, np.ndarray, bool]:
    """W @ (sign x order)' and W @ (sign + 1)' for the rows outside the largest level, and
    whether they are float32. |kernel| <= 2 in both, so the products stay below twice the
    largest row sum of W (``reach``), and their sums weighted by a row below reach x that row
    sum: in float32, exact while that is below 2**24, both in one product packed as
    sign x (order + M) + M = agree + M x rank, with M a power of two above 2 reach."""
    reach = 2 * weights.largest_row
    shift = 2.0 ** np.ceil(np.log2(2 * reach + 2))
    single = reach * weights.largest_row < FLOAT32_EXACT and reach * (shift + 1) < FLOAT32_EXACT
    if not single:
        agree, ranks = field_products(weights, [sign * layout.order, sign + 1], [reach, reach])
        return agree, ranks, False
    key = ("packed order", shift)
    if key not in layout.cache:
        layout.cache[key] = (layout.order + shift).astype(np.float32)
    packed = sign.astype(np.float32)
    packed *= layout.cache[key]
    packed += np.float32(shift)
    product = weights.float32 @ packed.T  # agree + shift x rank, exact
    ranks = np.rint(product * np.float32(1.0 / shift))
    product -= np.float32(shift) * ranks
    return product, ranks, True


def _far_form(
    layout: _SystemLayout, x: np.ndarray, by_segment: np.ndarray, weights: Weights, epsilon: float
) -> np.ndarray:
    """Sum over the pairs whose metric scores differ by more than epsilon of w w x
    ([concordant] - [human tie]), each pair counted from its higher-scoring cell: the rows are
    the cells with a cell that far below them (few, for a calibrated epsilon)."""
    low = x.min()
    cells = np.flatnonzero(x - low > epsilon)
    if len(cells) == 0:
        return np.zeros(weights.matrix.shape[0])
    columns = np.flatnonzero(np.isfinite(by_segment) & (x.max() - by_segment > epsilon))
    dx = x[cells, None] - by_segment[None, columns]
    level = np.full(len(by_segment), -1)
    level[layout.segment] = layout.level
    row_level = layout.level[cells][:, None]
    column_level = level[columns][None, :]
    kernel = (dx > epsilon) * ((row_level > column_level) * 1.0 - (row_level == column_level))
    full = np.zeros((len(cells), len(by_segment)))
    full[:, columns] = kernel
    return _block_form(layout.segment[cells], full, weights)


def _block_form(row_segments: np.ndarray, kernel: np.ndarray, weights: Weights) -> np.ndarray:
    """Sum over rows r (segment ``row_segments[r]``) and segments t of w_r w_t kernel[r, t],
    per row of weights, from the rows and columns of the kernel that are not 0: a product of
    the weights of those columns with the block, weighted by the rows' weights."""
    used_rows = np.flatnonzero(kernel.any(axis=1))
    if len(used_rows) == 0:
        return np.zeros(weights.matrix.shape[0])
    used_columns = np.flatnonzero(kernel[used_rows].any(axis=0))
    block = kernel[np.ix_(used_rows, used_columns)]
    absolute = np.abs(block)
    product_bound = min(
        weights.largest * float(absolute.sum(1).max()),
        float(absolute.max()) * weights.largest_row,
    )
    rows_weight = min(weights.largest * len(used_rows), weights.largest_row)  # distinct segments
    if product_bound * rows_weight < FLOAT32_EXACT:  # products and weighted sums exact
        product = weights.float32[:, used_columns] @ block.T.astype(np.float32)
        own = weights.float32[:, row_segments[used_rows]]
        return np.einsum("ri,ri->r", own, product).astype(np.float64)
    product = weights.matrix[:, used_columns] @ block.T
    return np.einsum("ri,ri->r", weights.matrix[:, row_segments[used_rows]], product)


def _sorted_group(
    groups: CellGroups,
    g: int,
    x: np.ndarray,
    weights: Weights,
    human: HumanSums,
    epsilons: tuple[float, ...],
    threshold: float | None,
) -> dict:
    """The sums of ``_system_group`` from cumulative weights, for large systems: its products
    cost rows x cells^2, these rows x cells x the depth of a tree over the levels.

    Across a node of the tree, an upper cell c is concordant with the lower cells below it in
    x and discordant with those above: sum_c w_c (C[below c] + C[not above c] - C[all]), with C
    the lower cells' weights cumulated in x order; the far pairs and Kendall-like's separated
    pairs are read from such sums too, and the mid-ranks from the cumulated weights of all
    cells. Every sum is of whole numbers (quarters for the ranks): exact, the same values."""
    cells = slice(groups.starts[g], groups.starts[g + 1])
    segment, x_level = groups.segment[cells], groups.level[cells] - groups.level_starts[g]
    columns = weights.transposed  # (n_segments, rows)
    n_levels = groups.level_starts[g + 1] - groups.level_starts[g]
    bounds = np.searchsorted(x_level, np.arange(n_levels + 1))
    out: dict = {"agree": np.zeros(columns.shape[1]), "separated": np.zeros(columns.shape[1])}
    out.update({epsilon: np.zeros(columns.shape[1]) for epsilon in epsilons})

    def cumulated(lower: slice) -> tuple[np.ndarray, np.ndarray]:
        order = np.argsort(x[lower], kind="stable")
        return x[lower][order], _running_sums(columns[segment[lower][order]])

    def weighted(upper: slice, values: np.ndarray) -> np.ndarray:  # sum_c w_c values[c]
        return np.einsum("cr,cr->r", columns[segment[upper]], values)

    for low, middle, high in _level_tree(np.diff(bounds)):
        upper = slice(bounds[middle], bounds[high])
        xs, table = cumulated(slice(bounds[low], bounds[middle]))
        xu = x[upper]
        below, not_above = np.searchsorted(xs, xu, "left"), np.searchsorted(xs, xu, "right")
        out["agree"] += weighted(upper, table[below] + table[not_above] - table[-1])
        for epsilon in epsilons:
            out[epsilon] += weighted(upper, table[far_prefix(xs, xu, epsilon)])
    for level in range(n_levels):  # human ties far apart in x: -1 each, from the higher cell
        within = slice(bounds[level], bounds[level + 1])
        xs, table = cumulated(within)
        for epsilon in epsilons:
            out[epsilon] -= weighted(within, table[far_prefix(xs, x[within], epsilon)])
    if threshold is not None:
        values = groups.level_value[groups.level_starts[g] : groups.level_starts[g + 1]]
        for (u0, u1), (d0, d1) in _separated_blocks(values, threshold):
            upper = slice(bounds[u0], bounds[u1])
            xs, table = cumulated(slice(bounds[d0], bounds[d1]))
            out["separated"] += weighted(upper, table[np.searchsorted(xs, x[upper], "left")])
    everything = slice(0, len(x))
    xs, table = cumulated(everything)
    doubled = table[np.searchsorted(xs, x, "left")] + table[np.searchsorted(xs, x, "right")]
    level_rank = human.level_rank[:, groups.level_starts[g] : groups.level_starts[g + 1]]
    ranks = (doubled + 1) * np.ascontiguousarray(level_rank.T)[x_level]
    out["ranks"] = 0.5 * weighted(everything, ranks)
    return out


# ---------------------------------------------------------------------- statistics
def grouped_values(  # long: every statistic of one grouping from shared sums, in order
    metric: np.ndarray,
    human: np.ndarray,
    grouping: str,
    weights: Weights,
    epsilons: tuple[float, float],
    threshold: float,
) -> dict[str, np.ndarray]:
    """Every statistic of every group of the system or none grouping, per row of ``weights``
    ((rows, groups) arrays, NaN where undefined), as ``segment_level`` averages them: Pearson,
    Spearman, Kendall b and c, acc23 at ``epsilons[0]``, acc_eq (acc23 at ``epsilons[1]``), and
    Kendall-like's concordant-minus-discordant and pairs, with the flags the reasons need."""
    cells = np.isfinite(metric) & np.isfinite(human)
    groups, human_side = _human_side(cells, human, grouping, weights)
    x = metric[groups.row, groups.segment]
    separated = separated_pairs(groups, human_side, threshold)
    wanted = tuple(sorted({e for e in epsilons if e > 0}))
    if _constant_in_groups(groups, x):  # e.g. the baseline: every pair a metric tie
        runs, forms = _constant_sums(groups, weights, human_side, wanted)
    else:
        runs = run_sums(groups, x, weights)
        concordant_threshold = threshold if _separates(groups, threshold) else None
        forms_of = system_forms if grouping == "system" else none_forms
        forms = forms_of(groups, x, weights, human_side, wanted, concordant_threshold)
    n = human_side.n
    pairs = n * (n - 1) / 2
    x_distinct, y_distinct = runs.distinct, human_side.distinct
    constant = (x_distinct < 2) | (y_distinct < 2)
    classes = np.minimum(x_distinct, y_distinct)
    agree = forms.agree
    concordant = (agree + pairs - runs.ties - human_side.tied_pairs + runs.joint_ties) / 2
    if threshold <= 0:
        separated_concordant = concordant
    elif forms.separated_concordant is None:
        separated_concordant = np.zeros_like(n)
    else:
        separated_concordant = forms.separated_concordant

    def correct(epsilon: float) -> np.ndarray:
        if epsilon > 0:
            return human_side.tied_pairs + forms.far[epsilon]
        return runs.joint_ties + concordant

    with np.errstate(invalid="ignore", divide="ignore"):
        tau_b = agree / np.sqrt(pairs - runs.ties) / np.sqrt(pairs - human_side.tied_pairs)
        tau_c = 2 * agree / (n**2 * (classes - 1) / classes)
        acc23 = correct(epsilons[0]) / pairs
        acc_eq = correct(epsilons[1]) / pairs
        mean_rank = (n + 1) / 2
        rank_covariance = forms.rank_products - n * mean_rank**2
        x_variance = (n**3 - runs.cubes) / 12
        y_variance = (n**3 - human_side.cubes) / 12
        spearman = rank_covariance / np.sqrt(x_variance * y_variance)
    return {
        "pearson": _pearson(groups, x, weights, n, constant),
        "spearman": np.where(constant, np.nan, np.clip(spearman, -1.0, 1.0)),
        "kendall_b": np.where(constant, np.nan, tau_b),
        "kendall_c": np.where(constant, np.nan, tau_c),
        "acc23": np.where(n >= 2, acc23, np.nan),
        "acc_eq": np.where(n >= 2, acc_eq, np.nan),
        "like": 2 * separated_concordant - separated,
        "like_pairs": separated,
        "sized": n >= 2,
        "constant_metric": x_distinct < 2,
        "constant_human": y_distinct < 2,
    }


def _constant_in_groups(groups: CellGroups, x: np.ndarray) -> bool:
    """Whether the metric has one score in each group."""
    sizes = np.diff(groups.starts)
    first = x[groups.starts[:-1][sizes > 0]]
    return bool(np.all(x == np.repeat(first, sizes[sizes > 0])))


def _constant_sums(
    groups: CellGroups, weights: Weights, human_side: HumanSums, epsilons: tuple[float, ...]
) -> tuple[RunSums, PairForms]:
    """The run and pair sums of a metric with one score per group, in closed form: one run of
    all cells, every pair a metric tie (never concordant, never far), every mid-rank (n+1)/2."""
    n = human_side.n
    zero = np.zeros_like(n)
    runs = RunSums(
        ties=n * (n - 1) / 2,
        distinct=(n > 0) * 1.0,
        cubes=n * n * n,
        joint_ties=human_side.tied_pairs,
    )
    rank_sums = human_side.level_weight * human_side.level_rank
    ranks = group_sums(rank_sums.T, groups.level_starts).T * (n + 1) / 2
    forms = PairForms(zero, ranks, {e: zero for e in epsilons}, zero)
    return runs, forms


def _human_side(
    cells: np.ndarray, human: np.ndarray, grouping: str, weights: Weights
) -> tuple[CellGroups, HumanSums]:
    """The groups and human sums of these scored cells, computed once per set of weights."""
    key = (grouping, cells.tobytes())
    if key not in weights.human:
        groups = cell_groups(cells, human, grouping)
        weights.human[key] = (groups, human_sums(groups, weights))
    return weights.human[key]


def _separates(groups: CellGroups, threshold: float) -> bool:
    """Whether some group has two levels at least ``threshold`` apart (threshold > 0)."""
    if threshold <= 0 or groups.n_levels == 0:
        return False
    return bool(np.any(level_cuts(groups, threshold) > groups.level_first))


def _pearson(
    groups: CellGroups, x: np.ndarray, weights: Weights, n: np.ndarray, undefined: np.ndarray
) -> np.ndarray:
    """Pearson's r of each group, each cell counted as often as its segment: the scores are
    centred on the group's mean (r does not change; the sums stay small), then the weighted sums
    of x, y, x^2, y^2 and xy are one product of the weights with per-segment sums. The first row
    (the data) is summed cell by cell in the cells' original order, the floats segment_level
    has always produced for it (rank ties between metrics depend on them)."""
    order = np.lexsort((groups.row * groups.n_segments + groups.segment, groups.cell_group))
    x, y = x[order], groups.human[order]
    group, segment = groups.cell_group[order], groups.segment[order]
    n_groups = groups.n_groups
    columns = np.empty((len(x), 5))
    for g in range(n_groups):
        cells = slice(groups.starts[g], groups.starts[g + 1])
        if cells.stop > cells.start:
            xc, yc = x[cells] - x[cells].mean(), y[cells] - y[cells].mean()
            columns[cells] = np.column_stack([xc, yc, xc * xc, yc * yc, xc * yc])
    by_segment = np.zeros((weights.matrix.shape[1] * n_groups, 5))
    np.add.at(by_segment, segment * n_groups + group, columns)
    by_segment = by_segment.reshape(-1, 5 * n_groups)
    sums = (weights.matrix @ by_segment).reshape(-1, n_groups, 5)
    for g in range(n_groups):
        cells = slice(groups.starts[g], groups.starts[g + 1])
        sums[0, g] = weights.matrix[:1, segment[cells]] @ columns[cells]
    sx, sy, sxx, syy, sxy = sums.transpose(2, 0, 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        covariance, x_variance, y_variance = sxy - sx * sy / n, sxx - sx**2 / n, syy - sy**2 / n
        r = covariance / np.sqrt(x_variance * y_variance)
    return np.where(undefined, np.nan, np.clip(r, -1.0, 1.0))


def none_forms(
    groups: CellGroups,
    x: np.ndarray,
    weights: Weights,
    human_side: HumanSums,
    epsilons: tuple[float, ...],
    threshold: float | None,
) -> PairForms:
    """The pair sums of all cells as one group, a segment carrying several cells.

    A pair sum is w' B w with B[s, t] the kernel summed over the pairs of a cell of segment s and
    a cell of segment t. B is built without enumerating pairs: split the human levels into a
    tree of ranges; across a node, every cell of the upper range is above every cell of the lower
    one, so a kernel of x alone sums, for a cell c, to cumulative segment counts of the lower
    range's cells sorted by x, read at c's position. Mid-rank sums are rows of the same kind over
    all cells, one row per (level, segment) outside the largest level."""
    rows = weights.matrix.shape[0]
    if len(x) < 2:
        zero = np.zeros((rows, 1))
        return PairForms(
            zero, zero, {e: zero for e in epsilons}, None if threshold is None else zero
        )
    tables = _TableStack(groups.n_segments)
    direct, far, separated = _enumerated_forms(groups, x, tables, epsilons, threshold)
    agree = _Accumulator(tables, groups.n_segments)
    _add_across_levels(groups, x, agree, far)
    forms = {"agree": agree.matrix(), **direct}
    forms.update({f"far {e}": accumulator.matrix() for e, accumulator in far.items()})
    if separated is not None:
        bounds = np.searchsorted(groups.level, np.arange(groups.n_levels + 1))
        for (u0, u1), (d0, d1) in _separated_blocks(groups.level_value, threshold):
            lower = slice(bounds[d0], bounds[d1])
            data = _SortedCells(x[lower], groups.segment[lower])
            upper = slice(bounds[u0], bounds[u1])
            separated.add(data, groups.segment[upper], data.below(x[upper]), 1.0)
        forms["separated"] = separated.matrix()
    totals = _quadratic_forms(weights, forms)
    return PairForms(
        agree=totals["agree"][:, None],
        rank_products=_none_rank_products(groups, x, weights, human_side)[:, None],
        far={e: totals[f"far {e}"][:, None] for e in epsilons},
        separated_concordant=None if threshold is None else totals["separated"][:, None],
    )


def _enumerated_forms(
    groups: CellGroups,
    x: np.ndarray,
    tables: _TableStack,
    epsilons: tuple[float, ...],
    threshold: float | None,
) -> tuple[dict[str, np.ndarray], dict[float, _Accumulator], _Accumulator | None]:
    """The far and separated matrices of few enough pairs, enumerated; accumulators for the
    others (to be built on the level tree)."""
    direct: dict[str, np.ndarray] = {}
    far = {}
    for epsilon in epsilons:
        pairs = _far_pairs(groups, x, epsilon)
        if pairs is None:
            far[epsilon] = _Accumulator(tables, groups.n_segments)
        else:  # [concordant] - [human tie] of the pairs that far apart, the higher x first
            high, low = pairs
            kernel = (groups.level[high] > groups.level[low]) * 1.0 - (
                groups.level[high] == groups.level[low]
            )
            direct[f"far {epsilon}"] = _segment_matrix(groups, high, low, kernel)
    separated = None
    if threshold is not None:
        pairs = _separated_cells(groups, threshold)
        if pairs is None:
            separated = _Accumulator(tables, groups.n_segments)
        else:  # concordant pairs among those people separate (upper level first)
            upper, lower = pairs
            direct["separated"] = _segment_matrix(groups, upper, lower, x[upper] > x[lower])
    return direct, far, separated


def _add_across_levels(
    groups: CellGroups, x: np.ndarray, agree: _Accumulator, far: dict[float, _Accumulator]
) -> None:
    """Concordant minus discordant pairs, and the far pairs' [concordant] - [human tie], over
    the level tree: across a node, a cell of the upper range against the lower range's cells;
    then the far pairs within each level (human ties)."""
    bounds = np.searchsorted(groups.level, np.arange(groups.n_levels + 1))
    for low, middle, high in _level_tree(np.diff(bounds)):
        lower = slice(bounds[low], bounds[middle])
        upper = slice(bounds[middle], bounds[high])
        data = _SortedCells(x[lower], groups.segment[lower])
        xu, su = x[upper], groups.segment[upper]
        # sign(x_c - x_d) summed over d: T[below] + T[not above] - T[all]
        below, not_above = data.below(xu), data.not_above(xu)
        tie = below != not_above
        agree.add(data, su, below, np.where(tie, 1.0, 2.0))
        agree.add(data, su[tie], not_above[tie], 1.0)
        agree.subtract_all(data, su)
        for epsilon, accumulator in far.items():
            accumulator.add(data, su, data.far_below(xu, epsilon), 1.0)
    if far:
        for level in range(groups.n_levels):
            cells = slice(bounds[level], bounds[level + 1])
            data = _SortedCells(x[cells], groups.segment[cells])
            xs, segments = x[cells], groups.segment[cells]
            for epsilon, accumulator in far.items():
                accumulator.add(data, segments, data.far_below(xs, epsilon), -1.0)


DIRECT_PAIRS = 1_000_000  # pairs of cells few enough to enumerate into a segment matrix


def _segment_matrix(
    groups: CellGroups, first: np.ndarray, second: np.ndarray, kernel: np.ndarray
) -> np.ndarray:
    """B[s, t]: the kernel summed over the pairs (first cell in segment s, second in t)."""
    n = groups.n_segments
    flat = groups.segment[first] * n + groups.segment[second]
    return np.bincount(flat, np.asarray(kernel, np.float64), minlength=n * n).reshape(n, n)


def _far_pairs(
    groups: CellGroups, x: np.ndarray, epsilon: float
) -> tuple[np.ndarray, np.ndarray] | None:
    """The pairs of cells whose metric scores differ by more than epsilon, the higher first,
    if at most DIRECT_PAIRS (none grouping: all cells)."""
    order = np.argsort(x, kind="stable")
    xs = x[order]
    far = far_prefix(xs, xs, epsilon)  # the cells far below each
    total = int(far.sum())
    if total > DIRECT_PAIRS:
        return None
    high = np.repeat(order, far)
    low = order[np.arange(total) - np.repeat(np.cumsum(far) - far, far)]
    return high, low


def _separated_cells(groups: CellGroups, threshold: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The pairs of cells whose human scores differ by at least the threshold, the upper
    first, if at most DIRECT_PAIRS (none grouping: all cells; human side only, kept)."""
    key = ("separated cells", threshold)
    if key not in groups.cache:
        bounds = np.searchsorted(groups.level, np.arange(groups.n_levels + 1))
        cut = level_cuts(groups, threshold)  # levels [0, cut) are separated from each level
        sizes = np.diff(bounds)
        total = int((sizes * bounds[cut]).sum())
        pairs = None
        if total <= DIRECT_PAIRS:
            upper = np.repeat(np.arange(len(groups.level)), bounds[cut][groups.level])
            per = bounds[cut][groups.level]
            lower = np.arange(total) - np.repeat(np.cumsum(per) - per, per)
            pairs = (upper, lower)
        groups.cache[key] = pairs
    return groups.cache[key]


def _quadratic_forms(weights: Weights, matrices: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """w' B w per row of weights for each segment-by-segment matrix B; only the rows of B that
    are not 0 enter the product (CHUNK_ENTRIES of B at a time), and two matrices share one
    product where exact."""
    names = list(matrices)
    used = [np.flatnonzero(np.any(matrices[name] != 0, axis=1)) for name in names]
    out: dict[str, np.ndarray] = {}
    # pair up matrices with the same rows (the dense ones: all segments)
    order = sorted(range(len(names)), key=lambda k: len(used[k]))
    k = 0
    while k < len(order):
        group = [order[k]]
        if k + 1 < len(order) and np.array_equal(used[order[k]], used[order[k + 1]]):
            group.append(order[k + 1])
        rows = used[group[0]]
        totals = [np.zeros(weights.matrix.shape[0]) for _ in group]
        step = max(1, CHUNK_ENTRIES // weights.matrix.shape[1])
        for first in range(0, len(rows), step):
            chunk = rows[first : first + step]
            batch = [matrices[names[i]][chunk] for i in group]
            products = field_products(weights, batch, [product_bound(weights, f) for f in batch])
            own = weights.matrix[:, chunk]
            for total, product in zip(totals, products):
                total += np.einsum("ri,ri->r", own, product)
        out.update({names[i]: total for i, total in zip(group, totals)})
        k += len(group)
    return out


def _none_rank_products(
    groups: CellGroups, x: np.ndarray, weights: Weights, human_side: HumanSums
) -> np.ndarray:
    """Sum over cells of w x metric mid-rank x human mid-rank. A cell's doubled mid-rank is
    w . (segment counts of the cells below it + of the cells not above it) + 1; summed over the
    cells of a (level, segment) item, one row per item outside the largest level."""
    largest = groups.largest[0]
    outside = np.flatnonzero(groups.level != largest)
    n = human_side.n[:, 0]
    if len(outside) == 0:
        return (n * (n + 1) / 2) * human_side.level_rank[:, largest]
    key = groups.level[outside] * groups.n_segments + groups.segment[outside]
    items, item_of, item_cells = np.unique(key, return_inverse=True, return_counts=True)
    item_segment = items % groups.n_segments
    item_level = items // groups.n_segments
    data = _SortedCells(x, groups.segment)
    tables = _TableStack(groups.n_segments)
    xo = x[outside]
    below, not_above = data.below(xo), data.not_above(xo)
    by_item = np.argsort(item_of, kind="stable")
    sorted_item = item_of[by_item]
    rank_sums = np.zeros((weights.matrix.shape[0], groups.n_levels))
    step = max(1, CHUNK_ENTRIES // groups.n_segments)  # items at a time: memory stays bounded
    for first in range(0, len(items), step):
        chunk = slice(first, min(first + step, len(items)))
        low, high = np.searchsorted(sorted_item, [chunk.start, chunk.stop])
        cells = by_item[low:high]
        ranks = _Accumulator(tables, chunk.stop - chunk.start)
        ranks.add(data, item_of[cells] - first, below[cells], 1.0)
        ranks.add(data, item_of[cells] - first, not_above[cells], 1.0)
        field_matrix = ranks.matrix()
        bound = product_bound(weights, field_matrix) + item_cells[chunk].max()
        # products, and their weighted values, in float32 when it holds them exactly
        single = bound * weights.largest < FLOAT32_EXACT
        (product,) = field_products(weights, [field_matrix], [bound], single=single)
        own = (weights.float32 if single else weights.matrix)[:, item_segment[chunk]]
        weighted = own * (product + item_cells[chunk].astype(product.dtype))
        level = item_level[chunk]
        firsts = np.flatnonzero(np.r_[True, level[1:] != level[:-1]])  # items are by level
        rank_sums[:, level[firsts]] += 0.5 * np.add.reduceat(
            weighted, firsts, axis=1, dtype=np.float64
        )
    rank_sums[:, largest] = n * (n + 1) / 2 - rank_sums.sum(1)
    return np.einsum("rl,rl->r", rank_sums, human_side.level_rank)


def _level_tree(counts: np.ndarray) -> list[tuple[int, int, int]]:
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


def _separated_blocks(
    values: np.ndarray, threshold: float
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Pairs of ranges (upper, lower) of a group's levels (human scores ``values``, ascending),
    every pair of levels across them at least ``threshold`` apart and together every such pair
    once."""
    out = []
    stack = []
    for middle_low, middle, middle_high in _level_tree(np.ones(len(values), np.int64)):
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


class _SortedCells:
    """A set of cells sorted by metric score, for reading cumulative segment counts."""

    def __init__(self, x: np.ndarray, segment: np.ndarray) -> None:
        order = np.argsort(x, kind="stable")
        self.x = x[order]
        self.segment = segment[order]
        self.size = len(order)
        self.table_row: int | None = None  # its first row in a _TableStack

    def below(self, xq: np.ndarray) -> np.ndarray:  # cells with x < xq
        return np.searchsorted(self.x, xq, side="left")

    def not_above(self, xq: np.ndarray) -> np.ndarray:  # cells with x <= xq
        return np.searchsorted(self.x, xq, side="right")

    def far_below(self, xq: np.ndarray, epsilon: float) -> np.ndarray:
        """Cells with xq - x > epsilon as floats compute it (a prefix of the sorted cells)."""
        return far_prefix(self.x, xq, epsilon)


class _TableStack:
    """Cumulative segment counts of sorted cell sets at every TABLE_BLOCK-th cell, stacked: row
    ``table_row + q`` holds the counts of the set's first q x TABLE_BLOCK cells."""

    def __init__(self, n_segments: int) -> None:
        self.n_segments = n_segments
        self.tables: list[np.ndarray] = []
        self.rows = 0
        self._stacked: np.ndarray | None = None

    def row_of(self, data: _SortedCells) -> int:
        if data.table_row is None:
            blocks = -(-data.size // TABLE_BLOCK)
            block_of = np.arange(data.size) // TABLE_BLOCK + 1
            table = np.bincount(
                block_of * self.n_segments + data.segment, minlength=(blocks + 1) * self.n_segments
            ).reshape(blocks + 1, self.n_segments)
            self.tables.append(np.cumsum(table, axis=0))
            data.table_row = self.rows
            self.rows += blocks + 1
            self._stacked = None
        return data.table_row

    def stacked(self) -> np.ndarray:
        if self._stacked is None:
            self._stacked = np.vstack(self.tables).astype(np.float64)
        return self._stacked


class _Accumulator:
    """A dense (n_rows, n_segments) matrix built as sums of coefficient x T[j], T[j] the segment
    counts of the first j cells of a sorted set: T at every TABLE_BLOCK-th cell from the stacked
    tables (one sparse product for all sets), the cells from there to j one by one."""

    def __init__(self, tables: _TableStack, n_rows: int) -> None:
        self.table_stack = tables
        self.shape = (n_rows, tables.n_segments)
        self.coarse: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # row, table row, coef
        self.fine: list[tuple[np.ndarray, np.ndarray]] = []  # flat index, value
        self.outer: list[tuple[np.ndarray, np.ndarray]] = []  # row counts, segment counts

    def add(
        self, data: _SortedCells, rows: np.ndarray, positions: np.ndarray, coef: np.ndarray | float
    ) -> None:
        n_segments = self.shape[1]
        coef = np.broadcast_to(np.asarray(coef, dtype=np.float64), rows.shape)
        block = positions // TABLE_BLOCK
        self.coarse.append((rows, self.table_stack.row_of(data) + block, coef))
        start = block * TABLE_BLOCK
        lengths = positions - start
        total = int(lengths.sum())
        if total:
            cells = np.repeat(start - np.cumsum(lengths) + lengths, lengths) + np.arange(total)
            flat = np.repeat(rows, lengths) * n_segments + data.segment[cells]
            self.fine.append((flat, np.repeat(coef, lengths)))

    def subtract_all(self, data: _SortedCells, rows: np.ndarray) -> None:
        """Minus the segment counts of the whole set, once for each row in ``rows``."""
        n_rows, n_segments = self.shape
        self.outer.append(
            (np.bincount(rows, minlength=n_rows), np.bincount(data.segment, minlength=n_segments))
        )

    def matrix(self) -> np.ndarray:
        n_rows, n_segments = self.shape
        out = np.zeros(n_rows * n_segments)
        if self.outer:
            row_counts = np.array([r for r, _ in self.outer], dtype=np.float64)
            segment_counts = np.array([c for _, c in self.outer], dtype=np.float64)
            out -= (row_counts.T @ segment_counts).ravel()
        if self.fine:
            flat = np.concatenate([f for f, _ in self.fine])
            values = np.concatenate([v for _, v in self.fine])
            out += np.bincount(flat, values, minlength=n_rows * n_segments)
        out = out.reshape(n_rows, n_segments)
        if self.coarse:
            rows = np.concatenate([r for r, _, _ in self.coarse])
            table_rows = np.concatenate([t for _, t, _ in self.coarse])
            coefs = np.concatenate([c for _, _, c in self.coarse])
            stacked = self.table_stack.stacked()
            selector = sparse.csr_matrix((coefs, (rows, table_rows)), shape=(n_rows, len(stacked)))
            out += selector @ stacked
        return out
