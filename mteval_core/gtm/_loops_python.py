"""GTM's loops in plain Python: the algorithm of ``_loops.pyx``, for installs without a
C compiler. Same inputs, same outputs, the same floating-point operations in the same order, so
every number is identical (the tests run both); about a hundred times slower.

Read ``_loops.pyx`` for why the greedy works on runs; this file follows it line for line.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict

import numpy as np

DONE, TOO_MANY_HITS, TOO_MANY_RUNS, NO_MEMORY, BROKEN_INVARIANT = range(5)
NEVER = 1 << 62  # "no block accepted yet", above every level and key

Run = tuple[int, int]  # (length, key): key = i * x + j of its first cell


def _runs(c: list[int], r: list[int], max_hits: int, max_runs: int) -> tuple[int, list[Run]]:
    """Every run of the grid; the hits are counted per word before anything grows with them."""
    m, x = len(c), len(r)
    positions: dict[int, list[int]] = defaultdict(list)
    for j, token in enumerate(r):
        if token != -1:
            positions[token].append(j)
    if sum(len(positions.get(token, ())) for token in c) > max_hits:
        return TOO_MANY_HITS, []
    runs: list[Run] = []
    for i, token in enumerate(c):
        for j in positions.get(token, ()):
            if i > 0 and j > 0 and c[i - 1] == r[j - 1]:
                continue  # (i, j) continues a run that starts further up-left
            if len(runs) >= max_runs:
                return TOO_MANY_RUNS, []
            length = 0
            while i + length < m and j + length < x and c[i + length] == r[j + length]:
                length += 1
            runs.append((length, i * x + j))
    return DONE, runs


class _Grid:
    """The rows and columns the greedy has used."""

    def __init__(self, m: int, x: int) -> None:
        self.x = x
        self.row_used = bytearray(m)
        self.col_used = bytearray(x)

    def cell_free(self, key: int, t: int) -> bool:
        return not self.row_used[key // self.x + t] and not self.col_used[key % self.x + t]

    def block_free(self, key: int, cells: int) -> bool:
        return all(self.cell_free(key, t) for t in range(cells))

    def take(self, key: int, cells: int) -> None:
        for t in range(cells):
            self.row_used[key // self.x + t] = 1
            self.col_used[key % self.x + t] = 1

    def free_pieces(self, length: int, key: int) -> tuple[list[Run], bool]:
        """The still-free pieces of a queued block, and whether all of it was free."""
        pieces, start, was_free = [], -1, True
        for t in range(length + 1):
            if t < length and self.cell_free(key, t):
                start = t if start < 0 else start
                continue
            if t < length:
                was_free = False
            if start >= 0:
                pieces.append((t - start, key + start * (self.x + 1)))
                start = -1
        return pieces, was_free


def _find_cut_block(
    grid: _Grid, runs: list[Run], remaining: float, last_level: int, last_key: int
) -> int:
    """The key of the block GTM 1.4 cuts to ``remaining``, or -1 (see the .pyx)."""
    cells = math.ceil(remaining)
    best_level, best_key = 0, -1
    for length, run_key in runs:
        free_after = 0
        for t in range(length - 1, -1, -1):
            free_after = free_after + 1 if grid.cell_free(run_key, t) else 0
            if free_after < cells:
                continue
            key = run_key + t * (grid.x + 1)
            limit = last_level if key < last_key else last_level - 1
            level = min(length - t, limit)
            if level > remaining and (level, key) > (best_level, best_key):
                best_level, best_key = level, key
    return best_key


def _greedy(
    c: list[int], r: list[int], cap: float, e: float, max_hits: int, max_runs: int
) -> tuple[float, list[tuple[float, float, float]], int]:
    """GTM 1.4's greedy: (sum of len ** e, blocks (i, j, len) in order, status)."""
    m, x = len(c), len(r)
    if m == 0 or x == 0 or cap <= 0:
        return 0.0, [], DONE
    status, runs = _runs(c, r, max_hits, max_runs)
    if status != DONE:
        return 0.0, [], status
    grid = _Grid(m, x)
    queue = [(-length, -key) for length, key in runs]  # heapq is a min-heap
    heapq.heapify(queue)
    remaining, total, chosen = cap, 0.0, []
    searched, last_level, last_key = False, NEVER, NEVER
    while queue and remaining > 0:
        length, key = (-value for value in heapq.heappop(queue))
        if length >= remaining:  # GTM 1.4 may cut a block now
            if not searched:
                found = _find_cut_block(grid, runs, remaining, last_level, last_key)
                if found >= 0:
                    cut = remaining
                    grid.take(found, math.ceil(cut))
                    remaining = 0.0
                    total += math.pow(cut, e)
                    chosen.append((float(found // x), float(found % x), cut))
                    break
                searched = True
            if length > remaining:  # lost cells since it was queued
                pieces, was_free = grid.free_pieces(length, key)
                if was_free:
                    return 0.0, [], BROKEN_INVARIANT
                for piece_length, piece_key in pieces:
                    heapq.heappush(queue, (-piece_length, -piece_key))
                continue
        if not grid.block_free(key, length):
            for piece_length, piece_key in grid.free_pieces(length, key)[0]:
                heapq.heappush(queue, (-piece_length, -piece_key))
            continue
        grid.take(key, length)
        remaining -= length
        total += math.pow(float(length), e)
        chosen.append((float(key // x), float(key % x), float(length)))
        last_level, last_key, searched = length, key, False
    return total, chosen, DONE


def greedy_matching(candidate, rcat, cap, exponent, max_hits, max_runs):
    """As the compiled greedy_matching: (sum of len ** e, blocks array, status)."""
    total, chosen, status = _greedy(
        candidate.tolist(), rcat.tolist(), float(cap), float(exponent), max_hits, max_runs
    )
    return total, np.array(chosen, np.float64).reshape(-1, 3), status


def greedy_sizes(
    candidates, candidate_offsets, rcats, rcat_offsets, caps, exponent, max_hits, max_runs
):
    """As the compiled greedy_sizes: (sizes, status per segment)."""
    sizes = np.zeros(len(caps))
    statuses = np.zeros(len(caps), np.int8)
    c_all, r_all = candidates.tolist(), rcats.tolist()
    inverse = 1.0 / exponent
    for s in range(len(caps)):
        c = c_all[candidate_offsets[s] : candidate_offsets[s + 1]]
        r = r_all[rcat_offsets[s] : rcat_offsets[s + 1]]
        total, _, status = _greedy(c, r, float(caps[s]), float(exponent), max_hits, max_runs)
        statuses[s] = status
        if status == DONE and c and r:
            sizes[s] = math.pow(total, inverse)  # a general pow, as GTM 1.4
    return sizes, statuses


def run_lengths(candidate, rcat):
    """L[i, j]: length of the chain of hits starting at (i, j), shape (m + 1, x + 1)."""
    m, x = len(candidate), len(rcat)
    lengths = np.zeros((m + 1, x + 1), np.int32)
    hits = (candidate[:, None] == rcat[None, :]) & (rcat[None, :] != -1)
    for i in range(m - 1, -1, -1):  # row by row, each row vectorised
        lengths[i, :x] = np.where(hits[i], lengths[i + 1, 1:] + 1, 0)
    return lengths


def candidate_blocks(lengths, max_blocks):
    """Every block (i, j, l) in GTM 1.4's order, or None when there are over ``max_blocks``."""
    m, x = lengths.shape[0] - 1, lengths.shape[1] - 1
    if m <= 0 or x <= 0:
        return np.empty((0, 3), np.int64)
    inner = lengths[:m, :x].astype(np.int64)
    if int(inner.sum()) > max_blocks:
        return None
    i, j = np.nonzero(inner)
    counts = inner[i, j]
    rows, cols = np.repeat(i, counts), np.repeat(j, counts)
    block_lengths = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + 1
    order = np.lexsort((-(rows * x + cols), -block_lengths))
    return np.column_stack([rows, cols, block_lengths])[order].astype(np.int64).reshape(-1, 3)


def run_weights(lengths, exponent):
    """For every hit, (length of the maximal run through it) ** (e - 1), else 0."""
    m, x = lengths.shape[0] - 1, lengths.shape[1] - 1
    weights = np.zeros((max(m, 0), max(x, 0)))
    for i in range(m):
        for j in range(x):
            run = int(lengths[i, j])
            if run > 0 and (i == 0 or j == 0 or lengths[i - 1, j - 1] == 0):
                weight = math.pow(float(run), exponent - 1.0)
                for t in range(run):
                    weights[i + t, j + t] = weight
    return weights
