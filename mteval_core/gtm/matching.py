"""GTM's bitext grid (Melamed, Green & Turian 2003): hits, runs, matchings of aligned blocks.

A candidate C (rows) is laid against the concatenated references Rcat (columns), each reference
followed by a barrier that matches nothing, so no block crosses two references. A hit is a cell
whose two tokens are identical; a run is a maximal diagonal chain of hits and any contiguous piece
of it is an aligned block. GTM 1.4 builds its matching greedily: every block ((i, j), l) with
l = 1 .. L(i, j), where L(i, j) is the length of the chain of hits that starts at (i, j), is taken
in the order l descending, then i * |Rcat| + j descending, as long as its cells are free and the
matched total stays under the cap min(|C|, mean reference length), the last block being cut to a
fractional length where the cap bites. The score is size = (sum of len ** e) ** (1 / e).

The loops (the greedy over runs, and for the exact matching the run lengths, the ordered candidate
blocks and the weights that bound it) are compiled with Cython in ``_loops.pyx``: GTM is a
sequential greedy per segment, so a compiled loop over segments is the fast way. Where the package
was installed without a C compiler, ``_loops_python.py`` runs the same algorithm with the same
numbers, more slowly. This module bounds the loops (``limits.py``: a segment's hits and runs for
the greedy, its cells for the exact matching) and holds the logic of the exact matching.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from mteval_core.errors import InputError, Note
from mteval_core.limits import GTM_EXACT_MAX_CELLS, GTM_MAX_HITS, GTM_MAX_RUNS

if TYPE_CHECKING:
    from mteval_core.ngrams import EncodedCorpus


class SlowGTM(Note):
    """The compiled GTM loops are missing; the pure-Python ones give the same numbers slowly."""


try:
    from mteval_core.gtm import _loops as loops
except ImportError:  # installed without a C compiler
    from mteval_core.gtm import _loops_python as loops

    warnings.warn(
        "GTM runs on its pure-Python loops (the compiled module was not built when mteval was "
        "installed): the same numbers, about 100 times slower. Reinstall with a C compiler "
        "(e.g. apt-get install gcc python3-dev) for full speed.",
        SlowGTM,
        stacklevel=2,
    )

__all__ = [
    "ExactMatching",
    "SegmentGrids",
    "SegmentTooLarge",
    "candidate_blocks",
    "exact_matching",
    "exact_sizes",
    "greedy_matching",
    "greedy_sizes",
    "hit_count",
    "mean_reference_lengths",
    "run_lengths",
    "run_weights",
    "segment_grids",
]


# ---------------------------------------------------------------------- every segment's grid
class SegmentGrids(NamedTuple):
    """Every segment's grid, as the compiled loops take it: the candidate's and Rcat's token ids
    (all segments concatenated, with offsets) and GTM's cap min(|C|, mean reference length)."""

    candidates: np.ndarray
    candidate_offsets: np.ndarray
    rcats: np.ndarray
    rcat_offsets: np.ndarray
    caps: np.ndarray

    def segment(self, s: int) -> tuple[np.ndarray, np.ndarray]:
        """Segment s's candidate ids and Rcat ids."""
        return (
            self.candidates[self.candidate_offsets[s] : self.candidate_offsets[s + 1]],
            self.rcats[self.rcat_offsets[s] : self.rcat_offsets[s + 1]],
        )


def mean_reference_lengths(corpus: EncodedCorpus) -> np.ndarray:
    """Per segment, the mean length of its references (empty ones count as 0), as GTM 1.4."""
    return corpus.reference_lengths.sum(axis=0) / corpus.n_references


def segment_grids(corpus: EncodedCorpus, system: str) -> SegmentGrids:
    candidate, rcat = corpus.systems[system], corpus.concatenated_references
    caps = np.minimum(candidate.lengths.astype(np.float64), mean_reference_lengths(corpus))
    candidate_ids = candidate.ids.astype(np.int64)  # the loops take int64; streams keep int32
    return SegmentGrids(candidate_ids, candidate.offsets, rcat.ids, rcat.offsets, caps)


# ---------------------------------------------------------------------- GTM 1.4's greedy, bounded
class SegmentTooLarge(InputError):
    """A segment whose grid is over GTM_MAX_HITS hits or GTM_MAX_RUNS runs (see limits.py)."""


def _shared_word_counts(candidate: np.ndarray, rcat: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every token in both, its count in the candidate and in the references (int64)."""
    in_candidate = np.unique(candidate, return_counts=True)
    in_rcat = np.unique(rcat[rcat >= 0], return_counts=True)
    _, here, there = np.intersect1d(in_candidate[0], in_rcat[0], return_indices=True)
    return in_candidate[1][here].astype(np.int64), in_rcat[1][there].astype(np.int64)


def hit_count(candidate: np.ndarray, rcat: np.ndarray) -> int:
    """Cells of the grid whose two tokens are equal, counted per token: O(|C| + |Rcat|)."""
    return int(np.dot(*_shared_word_counts(candidate, rcat)))


def closed_form_size(candidate: np.ndarray, rcat: np.ndarray, cap: float) -> float:
    """GTM 1.4's greedy size at e = 1 without the grid: min(matched words, cap), to the bit.

    At e = 1 every maximal matching of the grid is maximum, and per word it matches
    min(count in C, count in the references); GTM 1.4's float arithmetic gives back the cap
    exactly when it bites (cap minus whole lengths is exact, and so is adding them back).
    """
    matched = int(np.minimum(*_shared_word_counts(candidate, rcat)).sum())
    return float(min(matched, cap))


def run_lengths(candidate: np.ndarray, rcat: np.ndarray) -> np.ndarray:
    """L[i, j]: length of the chain of hits starting at (i, j), shape (|C| + 1, |Rcat| + 1)."""
    return loops.run_lengths(candidate, rcat)


def run_weights(lengths: np.ndarray, exponent: float) -> np.ndarray:
    """For every hit, (length of the maximal run through it) ** (e - 1), else 0."""
    return loops.run_weights(lengths, exponent)


def candidate_blocks(lengths: np.ndarray, max_blocks: int) -> np.ndarray | None:
    """Every block (i, j, l) in GTM 1.4's order, or None when there are over ``max_blocks``."""
    return loops.candidate_blocks(lengths, max_blocks)


def _too_large(candidate: np.ndarray, rcat: np.ndarray, status: int) -> SegmentTooLarge:
    if status == loops.NO_MEMORY:
        return SegmentTooLarge(
            f"the segment's bitext grid ({len(candidate):,} x {len(rcat):,} tokens) does not fit "
            "in memory",
            hint="Shorten the segment, or score GTM at e = 1 (its closed form needs no grid).",
        )
    if status == loops.BROKEN_INVARIANT:
        raise RuntimeError("GTM greedy: a queued block was free but longer than the cap allows")
    hits = hit_count(candidate, rcat)
    over = f"over {GTM_MAX_RUNS:,} runs" if status == loops.TOO_MANY_RUNS else "too many hits"
    return SegmentTooLarge(
        f"the segment's bitext grid ({len(candidate):,} x {len(rcat):,} tokens, {hits:,} hits) "
        f"has {over}; GTM's greedy takes up to {GTM_MAX_HITS:,} hits and {GTM_MAX_RUNS:,} runs "
        "(diagonals of hits) per segment",
        hint="Shorten the segment; at e = 1 GTM's closed form scores it without the grid.",
    )


def greedy_matching(
    candidate: np.ndarray, rcat: np.ndarray, cap: float, exponent: float
) -> tuple[float, np.ndarray]:
    """GTM 1.4's greedy of one segment: sum of len ** e, and the blocks (i, j, len) in the order
    taken (len fractional where the cap cut it). SegmentTooLarge above the limits."""
    total, blocks, status = loops.greedy_matching(
        candidate, rcat, cap, exponent, GTM_MAX_HITS, GTM_MAX_RUNS
    )
    if status != loops.DONE:
        raise _too_large(candidate, rcat, status)
    return total, blocks


def greedy_sizes(
    candidates: np.ndarray,
    candidate_offsets: np.ndarray,
    rcats: np.ndarray,
    rcat_offsets: np.ndarray,
    caps: np.ndarray,
    exponent: float,
) -> np.ndarray:
    """size = (sum of len ** e) ** (1 / e) of GTM 1.4's greedy matching, for every segment.

    NaN marks a segment over the limits (GTM_MAX_HITS, GTM_MAX_RUNS) at e != 1; at e = 1 such a
    segment gets the closed form, which is GTM 1.4's number to the bit.
    """
    grids = SegmentGrids(candidates, candidate_offsets, rcats, rcat_offsets, caps)
    sizes, statuses = loops.greedy_sizes(*grids, exponent, GTM_MAX_HITS, GTM_MAX_RUNS)
    for s in np.flatnonzero(statuses != loops.DONE):
        candidate, rcat = grids.segment(s)
        if statuses[s] in (loops.NO_MEMORY, loops.BROKEN_INVARIANT):
            raise _too_large(candidate, rcat, int(statuses[s]))
        sizes[s] = closed_form_size(candidate, rcat, float(caps[s])) if exponent == 1 else np.nan
    return sizes


# ---------------------------------------------------------------------- the exact maximum matching
MAX_EXACT_BLOCKS = 20_000  # candidate blocks; beyond this the integer program is not attempted
EXACT_TIME_LIMIT = 10.0  # seconds for one segment's integer program


@dataclass(frozen=True)
class ExactMatching:
    """The paper's maximum matching under GTM's cap, for e >= 1.

    total: max sum of len ** e over matchings with at most floor(cap) cells; blocks: (i, j, len)
    rows; method: how it was proven: 'closed-form' (e = 1), 'bound' (GTM's greedy under the same
    cap reaches an upper bound), 'milp' (integer program), or 'greedy-fallback' (grid over
    GTM_EXACT_MAX_CELLS or MAX_EXACT_BLOCKS, or out of time: the greedy value, which may fall
    short, with a warning for the user).
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
    if len(candidate) * len(rcat) > GTM_EXACT_MAX_CELLS:  # the bounds below need the whole grid
        return ExactMatching(total, _whole(blocks), "greedy-fallback")
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

    blocks = candidate_blocks(lengths, MAX_EXACT_BLOCKS)
    if blocks is None:
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


PROGRESS_EVERY = 25  # segments between two progress reports of exact_sizes


def exact_sizes(
    candidates: np.ndarray,
    candidate_offsets: np.ndarray,
    rcats: np.ndarray,
    rcat_offsets: np.ndarray,
    caps: np.ndarray,
    exponent: float,
    progress: Callable[[float], None] | None = None,
) -> tuple[np.ndarray, list[str]]:
    """size of the exact maximum matching of every segment, and how each was found.

    A segment over GTM's limits gets NaN and the method 'too-large' (at e = 1, the closed form
    under floor(cap), which is exact). ``progress`` is told the share of segments done: with
    several references, half the segments of a WMT set need the integer program (seconds).
    """
    grids = SegmentGrids(candidates, candidate_offsets, rcats, rcat_offsets, caps)
    sizes = np.zeros(len(caps))
    methods = []
    for s in range(len(caps)):
        if progress is not None and s % PROGRESS_EVERY == 0:
            progress(s / len(caps))
        candidate, rcat = grids.segment(s)
        try:
            found = exact_matching(candidate, rcat, float(caps[s]), exponent)
        except SegmentTooLarge:
            if exponent == 1.0:
                sizes[s] = closed_form_size(candidate, rcat, math.floor(caps[s]))
                methods.append("closed-form")
            else:
                sizes[s] = np.nan
                methods.append("too-large")
            continue
        sizes[s] = found.total ** (1.0 / exponent)
        methods.append(found.method)
    return sizes, methods
