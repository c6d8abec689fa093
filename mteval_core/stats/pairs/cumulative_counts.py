"""Cumulative segment counts of sets of cells sorted by metric score: how the none grouping
sums a kernel of x over pairs of cells without enumerating them.

For a set of cells sorted by x, T[j] is the segment counts of its first j cells; a cell's
pairs with the cells below it in x, summed by segment, are T read at its position. A
``TableStack`` keeps T at every TABLE_BLOCK-th cell of each set, all sets stacked; an
``Accumulator`` adds coefficient x T[j] rows of a dense matrix, the rest of each prefix cell by
cell, and builds the matrix with one sparse product.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from mteval_core.stats.pairs.cells import far_prefix

TABLE_BLOCK = 64  # cells per block of a cumulative segment count table


class SortedCells:
    """A set of cells sorted by metric score, for reading cumulative segment counts."""

    def __init__(self, x: np.ndarray, segment: np.ndarray) -> None:
        order = np.argsort(x, kind="stable")
        self.x = x[order]
        self.segment = segment[order]
        self.size = len(order)
        self.table_row: int | None = None  # its first row in a TableStack

    def below(self, xq: np.ndarray) -> np.ndarray:  # cells with x < xq
        return np.searchsorted(self.x, xq, side="left")

    def not_above(self, xq: np.ndarray) -> np.ndarray:  # cells with x <= xq
        return np.searchsorted(self.x, xq, side="right")

    def far_below(self, xq: np.ndarray, epsilon: float) -> np.ndarray:
        """Cells with xq - x > epsilon as floats compute it (a prefix of the sorted cells)."""
        return far_prefix(self.x, xq, epsilon)


class TableStack:
    """Cumulative segment counts of sorted cell sets at every TABLE_BLOCK-th cell, stacked: row
    ``table_row + q`` holds the counts of the set's first q x TABLE_BLOCK cells."""

    def __init__(self, n_segments: int) -> None:
        self.n_segments = n_segments
        self.tables: list[np.ndarray] = []
        self.rows = 0
        self._stacked: np.ndarray | None = None

    def row_of(self, data: SortedCells) -> int:
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


class Accumulator:
    """A dense (n_rows, n_segments) matrix built as sums of coefficient x T[j], T[j] the segment
    counts of the first j cells of a sorted set: T at every TABLE_BLOCK-th cell from the stacked
    tables (one sparse product for all sets), the cells from there to j one by one."""

    def __init__(self, tables: TableStack, n_rows: int) -> None:
        self.table_stack = tables
        self.shape = (n_rows, tables.n_segments)
        self.coarse: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # row, table row, coef
        self.fine: list[tuple[np.ndarray, np.ndarray]] = []  # flat index, value
        self.outer: list[tuple[np.ndarray, np.ndarray]] = []  # row counts, segment counts

    def add(
        self, data: SortedCells, rows: np.ndarray, positions: np.ndarray, coef: np.ndarray | float
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

    def subtract_all(self, data: SortedCells, rows: np.ndarray) -> None:
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
