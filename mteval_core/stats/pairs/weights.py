"""Resample weights, and exact products of them with fixed matrices of whole numbers.

A row of ``Weights`` is one resample's segment weights (the first row is the data), with the
functions of them that every metric's sums share. Every sum of the package is a product of that
matrix with a fixed matrix (``sums_over`` for sets of cells, ``field_products`` for kernels),
and ``field_products`` keeps each exact and cheap: in float32 when its bound allows, several
fields packed into one product where they fit, float64 otherwise. FLOAT32_EXACT and
FLOAT64_EXACT are the bounds below which a float holds every integer; the other modules of the
package that choose a type import them from here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from scipy import sparse

FLOAT32_EXACT = 2.0**24  # every integer below this is a float32
FLOAT64_EXACT = 2.0**53


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
