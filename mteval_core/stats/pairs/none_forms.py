"""The pair sums of the none grouping: all cells are one group, a segment carries several cells.

A pair sum is w' B w, B segment by segment. B is enumerated from the pairs where they are few (at
most DIRECT_PAIRS), and otherwise built over a tree of the human levels from cumulative segment
counts (``cumulative_counts``); the quadratic forms are then products of the weights with B's rows
that are not 0, CHUNK_ENTRIES entries at a time.
"""

from __future__ import annotations

import numpy as np

from mteval_core.stats.pairs.cells import (
    CellGroups,
    HumanSums,
    PairForms,
    far_prefix,
    level_cuts,
    level_tree,
    separated_blocks,
)
from mteval_core.stats.pairs.cumulative_counts import Accumulator, SortedCells, TableStack
from mteval_core.stats.pairs.weights import FLOAT32_EXACT, Weights, field_products, product_bound

DIRECT_PAIRS = 1_000_000  # pairs of cells few enough to enumerate into a segment matrix
CHUNK_ENTRIES = 2_000_000  # entries of a kernel matrix multiplied at once (memory stays bounded)


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
    tables = TableStack(groups.n_segments)
    direct, far, separated = _enumerated_forms(groups, x, tables, epsilons, threshold)
    agree = Accumulator(tables, groups.n_segments)
    _add_across_levels(groups, x, agree, far)
    forms = {"agree": agree.matrix(), **direct}
    forms.update({f"far {e}": accumulator.matrix() for e, accumulator in far.items()})
    if separated is not None:
        bounds = np.searchsorted(groups.level, np.arange(groups.n_levels + 1))
        for (u0, u1), (d0, d1) in separated_blocks(groups.level_value, threshold):
            lower = slice(bounds[d0], bounds[d1])
            data = SortedCells(x[lower], groups.segment[lower])
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
    tables: TableStack,
    epsilons: tuple[float, ...],
    threshold: float | None,
) -> tuple[dict[str, np.ndarray], dict[float, Accumulator], Accumulator | None]:
    """The far and separated matrices of few enough pairs, enumerated; accumulators for the
    others (to be built on the level tree)."""
    direct: dict[str, np.ndarray] = {}
    far = {}
    for epsilon in epsilons:
        pairs = _far_pairs(groups, x, epsilon)
        if pairs is None:
            far[epsilon] = Accumulator(tables, groups.n_segments)
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
            separated = Accumulator(tables, groups.n_segments)
        else:  # concordant pairs among those people separate (upper level first)
            upper, lower = pairs
            direct["separated"] = _segment_matrix(groups, upper, lower, x[upper] > x[lower])
    return direct, far, separated


def _add_across_levels(
    groups: CellGroups, x: np.ndarray, agree: Accumulator, far: dict[float, Accumulator]
) -> None:
    """Concordant minus discordant pairs, and the far pairs' [concordant] - [human tie], over
    the level tree: across a node, a cell of the upper range against the lower range's cells;
    then the far pairs within each level (human ties)."""
    bounds = np.searchsorted(groups.level, np.arange(groups.n_levels + 1))
    for low, middle, high in level_tree(np.diff(bounds)):
        lower = slice(bounds[low], bounds[middle])
        upper = slice(bounds[middle], bounds[high])
        data = SortedCells(x[lower], groups.segment[lower])
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
            data = SortedCells(x[cells], groups.segment[cells])
            xs, segments = x[cells], groups.segment[cells]
            for epsilon, accumulator in far.items():
                accumulator.add(data, segments, data.far_below(xs, epsilon), -1.0)


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
    data = SortedCells(x, groups.segment)
    tables = TableStack(groups.n_segments)
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
        ranks = Accumulator(tables, chunk.stop - chunk.start)
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
