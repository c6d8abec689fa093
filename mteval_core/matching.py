"""GTM's bitext grid (Melamed, Green & Turian 2003): hits, runs, matchings of aligned blocks.

A candidate C (rows) is laid against the concatenated references Rcat (columns), each reference
followed by a barrier that matches nothing, so no block crosses two references. A hit is a cell
whose two tokens are identical; a run is a maximal diagonal chain of hits and any contiguous piece
of it is an aligned block. GTM 1.4 builds its matching greedily: every block ((i, j), l) with
l = 1 .. L(i, j), where L(i, j) is the length of the chain of hits that starts at (i, j), is taken
in the order l descending, then i * |Rcat| + j descending, as long as its cells are free and the
matched total stays under the cap min(|C|, mean reference length), the last block being cut to a
fractional length where the cap bites. The score is size = (sum of len ** e) ** (1 / e).

The loops are compiled with numba: GTM is a sequential greedy per segment, and a segment's grid
is small, so a compiled loop over segments is the fast way (no Python per segment or per block).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from mteval_core.ngrams import BARRIER


@njit(cache=True)
def run_lengths(candidate: np.ndarray, rcat: np.ndarray) -> np.ndarray:
    """L[i, j]: length of the chain of hits starting at cell (i, j), 0 where there is no hit."""
    m, x = len(candidate), len(rcat)
    lengths = np.zeros((m + 1, x + 1), np.int32)
    for i in range(m - 1, -1, -1):
        token = candidate[i]
        for j in range(x - 1, -1, -1):
            if rcat[j] == token and token != BARRIER:
                lengths[i, j] = lengths[i + 1, j + 1] + 1
    return lengths


@njit(cache=True)
def candidate_blocks(lengths: np.ndarray) -> np.ndarray:
    """Every block as rows (i, j, l), in GTM 1.4's order: l descending, then i*X + j descending."""
    m, x = lengths.shape[0] - 1, lengths.shape[1] - 1
    area = np.int64(m) * np.int64(x)
    count = 0
    for i in range(m):
        for j in range(x):
            count += lengths[i, j]
    keys = np.empty(count, np.int64)
    k = 0
    for i in range(m):
        for j in range(x):
            for length in range(1, lengths[i, j] + 1):
                keys[k] = -(length * area + i * x + j)  # negated: argsort ascending
                k += 1
    keys = keys[np.argsort(keys)]
    blocks = np.empty((count, 3), np.int64)
    for k in range(count):
        key = -keys[k]
        position = key % area
        blocks[k, 0] = position // x
        blocks[k, 1] = position % x
        blocks[k, 2] = key // area
    return blocks


@njit(cache=True)
def greedy_matching(
    candidate: np.ndarray, rcat: np.ndarray, cap: float, exponent: float
) -> tuple[float, np.ndarray]:
    """GTM 1.4's greedy: (sum of len ** e, selected blocks as rows (i, j, len) in order)."""
    m, x = len(candidate), len(rcat)
    selected = np.empty((min(m, x), 3), np.float64)
    if m == 0 or x == 0 or cap <= 0:
        return 0.0, selected[:0]
    blocks = candidate_blocks(run_lengths(candidate, rcat))
    row_used = np.zeros(m, np.bool_)
    col_used = np.zeros(x, np.bool_)
    remaining = cap
    total = 0.0
    n = 0
    for k in range(len(blocks)):
        if remaining <= 0:
            break
        i, j = blocks[k, 0], blocks[k, 1]
        length = min(float(blocks[k, 2]), remaining)
        cells = math.ceil(length)
        free = True
        for t in range(cells):
            if row_used[i + t] or col_used[j + t]:
                free = False
                break
        if not free:
            continue
        for t in range(cells):
            row_used[i + t] = True
            col_used[j + t] = True
        remaining -= length
        total += length**exponent
        selected[n, 0] = i
        selected[n, 1] = j
        selected[n, 2] = length
        n += 1
    return total, selected[:n]


@njit(cache=True)
def run_weights(lengths: np.ndarray, exponent: float) -> np.ndarray:
    """For every hit, (length of the maximal run through it) ** (e - 1), else 0.

    A block of length l adds l ** e = l * l ** (e - 1) to the sum, so giving each of its cells the
    weight (length of its whole run) ** (e - 1) can only overstate it (e >= 1): the weight of a
    best assignment of cells is an upper bound on any matching's sum of len ** e.
    """
    m, x = lengths.shape[0] - 1, lengths.shape[1] - 1
    weights = np.zeros((m, x))
    for i in range(m):
        for j in range(x):
            run = lengths[i, j]
            if run > 0 and (i == 0 or j == 0 or lengths[i - 1, j - 1] == 0):
                weight = float(run) ** (exponent - 1.0)
                for t in range(run):
                    weights[i + t, j + t] = weight
    return weights


@njit(cache=True)
def greedy_sizes(
    candidates: np.ndarray,
    candidate_offsets: np.ndarray,
    rcats: np.ndarray,
    rcat_offsets: np.ndarray,
    caps: np.ndarray,
    exponent: float,
) -> np.ndarray:
    """size = (sum of len ** e) ** (1 / e) of GTM 1.4's greedy matching, for every segment."""
    sizes = np.zeros(len(caps))
    inverse = 1.0 / exponent
    for s in range(len(caps)):
        candidate = candidates[candidate_offsets[s] : candidate_offsets[s + 1]]
        rcat = rcats[rcat_offsets[s] : rcat_offsets[s + 1]]
        total = greedy_matching(candidate, rcat, caps[s], exponent)[0]
        sizes[s] = total**inverse  # a general pow, as GTM 1.4: 216 ** (1/3) = 5.999999999999999
    return sizes


# ---------------------------------------------------------------------- the exact maximum matching
MAX_EXACT_BLOCKS = 20_000  # candidate blocks; beyond this the integer program is not attempted
EXACT_TIME_LIMIT = 10.0  # seconds for one segment's integer program


@dataclass(frozen=True)
class ExactMatching:
    """The paper's maximum matching under GTM's cap, for e >= 1.

    total: max sum of len ** e over matchings with at most floor(cap) cells; blocks: (i, j, len)
    rows; method: how it was proven: 'closed-form' (e = 1), 'bound' (GTM's greedy under the same
    cap reaches an upper bound), 'milp' (integer program), or 'greedy-fallback' (grid too large or
    out of time: the greedy value, which may fall short, with a warning for the user).
    """

    total: float
    blocks: np.ndarray
    method: str


def exact_matching(
    candidate: np.ndarray, rcat: np.ndarray, cap: float, exponent: float
) -> ExactMatching:
    """Maximise sum(len(b) ** e) over matchings of at most floor(cap) whole cells (e >= 1).

    The greedy under the integer budget floor(cap) is a feasible matching; when its sum reaches
    an upper bound (the sum of per-row or per-column best cell weights, then the best assignment
    of cells, see ``run_weights``) it is optimal. Otherwise an integer program over all candidate
    blocks, with one constraint per row, per column and on the total length, finds the optimum.
    """
    budget = math.floor(cap)
    total, blocks = greedy_matching(candidate, rcat, float(budget), exponent)
    if len(blocks) == 0:
        return ExactMatching(0.0, _whole(blocks), "closed-form" if exponent == 1 else "bound")
    if exponent == 1.0:  # every maximal matching is maximum, and greedy's is maximal
        return ExactMatching(total, _whole(blocks), "closed-form")
    lengths = run_lengths(candidate, rcat)
    weights = run_weights(lengths, exponent)
    tolerance = 1e-12 * max(total, 1.0)
    bound = min(weights.max(axis=1).sum(), weights.max(axis=0).sum())
    if total >= bound - tolerance:
        return ExactMatching(total, _whole(blocks), "bound")
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(weights, maximize=True)
    if total >= weights[rows, cols].sum() - tolerance:
        return ExactMatching(total, _whole(blocks), "bound")
    return _integer_program(lengths, budget, exponent, total, blocks)


def _integer_program(
    lengths: np.ndarray, budget: int, exponent: float, greedy_total: float, greedy: np.ndarray
) -> ExactMatching:
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix

    blocks = candidate_blocks(lengths)
    if len(blocks) > MAX_EXACT_BLOCKS:
        return ExactMatching(greedy_total, _whole(greedy), "greedy-fallback")
    m, x = lengths.shape[0] - 1, lengths.shape[1] - 1
    size = blocks[:, 2]
    block_of_cell = np.repeat(np.arange(len(blocks)), size)
    step = np.arange(len(block_of_cell)) - np.repeat(np.cumsum(size) - size, size)
    ones = np.ones(len(block_of_cell))
    rows = csr_matrix((ones, (blocks[block_of_cell, 0] + step, block_of_cell)), (m, len(blocks)))
    cols = csr_matrix((ones, (blocks[block_of_cell, 1] + step, block_of_cell)), (x, len(blocks)))
    result = milp(
        -(size.astype(np.float64) ** exponent),
        integrality=np.ones(len(blocks)),
        bounds=Bounds(0, 1),
        constraints=[
            LinearConstraint(rows, 0, 1),
            LinearConstraint(cols, 0, 1),
            LinearConstraint(size[None, :].astype(np.float64), 0, budget),
        ],
        options={"time_limit": EXACT_TIME_LIMIT, "mip_rel_gap": 0.0},
    )
    if result.status != 0 or result.x is None:
        return ExactMatching(greedy_total, _whole(greedy), "greedy-fallback")
    chosen = blocks[result.x > 0.5]
    chosen = chosen[np.lexsort((chosen[:, 1], chosen[:, 0], -chosen[:, 2]))]
    total = float(np.sum(chosen[:, 2].astype(np.float64) ** exponent))
    if total < greedy_total:  # solver round-off: never report less than a known matching
        return ExactMatching(greedy_total, _whole(greedy), "milp")
    return ExactMatching(total, chosen, "milp")


def _whole(blocks: np.ndarray) -> np.ndarray:
    return blocks.astype(np.int64).reshape(-1, 3)


def exact_sizes(
    candidates: np.ndarray,
    candidate_offsets: np.ndarray,
    rcats: np.ndarray,
    rcat_offsets: np.ndarray,
    caps: np.ndarray,
    exponent: float,
) -> tuple[np.ndarray, list[str]]:
    """size of the exact maximum matching of every segment, and how each was found."""
    sizes = np.zeros(len(caps))
    methods = []
    for s in range(len(caps)):
        candidate = candidates[candidate_offsets[s] : candidate_offsets[s + 1]]
        rcat = rcats[rcat_offsets[s] : rcat_offsets[s + 1]]
        found = exact_matching(candidate, rcat, float(caps[s]), exponent)
        sizes[s] = found.total ** (1.0 / exponent)
        methods.append(found.method)
    return sizes, methods
