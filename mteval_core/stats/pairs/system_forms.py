"""The pair sums of the system grouping: each system's cells (one per segment) are a group.

System by system, one of two ways, whichever its estimated cost favours (``CUMULATING_COST``):
products of the weights with kernels on the rows of the cells outside the largest level
(``_system_group``: rows x cells^2, faster on WMT's few hundred segments), or the weights
cumulated in x order across the nodes of the level tree (``_sorted_group``: rows x cells x the
tree's depth, for large systems). Both are sums of whole numbers: the same values.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from mteval_core.stats.pairs.cells import (
    CellGroups,
    HumanSums,
    PairForms,
    far_prefix,
    level_tree,
    separated_blocks,
)
from mteval_core.stats.pairs.weights import FLOAT32_EXACT, Weights, field_products

CUMULATING_COST = 300  # a cell of the level tree's nodes against an entry of the products


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
            int(bounds[high] - bounds[low]) for low, _, high in level_tree(np.diff(bounds))
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

    for low, middle, high in level_tree(np.diff(bounds)):
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
        for (u0, u1), (d0, d1) in separated_blocks(values, threshold):
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
