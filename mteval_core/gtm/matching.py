"""GTM's bitext grid (Melamed, Green & Turian 2003): hits, runs, matchings of aligned blocks.

A candidate C (rows) is laid against the concatenated references Rcat (columns), each reference
followed by a barrier that matches nothing, so no block crosses two references. A hit is a cell
whose two tokens are identical; a run is a maximal diagonal chain of hits and any contiguous piece
of it is an aligned block. GTM 1.4 builds its matching greedily: every block ((i, j), l) with
l = 1 .. L(i, j), where L(i, j) is the length of the chain of hits that starts at (i, j), is taken
in the order l descending, then i * |Rcat| + j descending, as long as its cells are free and the
matched total stays under the cap min(|C|, mean reference length), the last block being cut to a
fractional length where the cap bites. The score is size = (sum of len ** e) ** (1 / e).

The loops (the greedy over runs; the exact matching's bounds and branch and bound, and the run
lengths and ordered candidate blocks of its integer program) are compiled with Cython in
``_loops.pyx``: GTM is a sequential greedy per segment, so a compiled loop over segments is the fast
way. Where the package was installed without a C compiler, ``_loops_python.py`` runs the same
algorithm with the same numbers, more slowly. This module bounds the loops (``settings/limits.py``:
a segment's hits and runs for the greedy, its cells and search steps for the exact matching) and
falls back to scipy's integer program where the search gives up.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from mteval_core.engine.threads import map_on_cores, spans
from mteval_core.errors import InputError, Note, say
from mteval_core.settings.limits import (
    GTM_EXACT_MAX_CELLS,
    GTM_EXACT_MAX_STEPS,
    GTM_MAX_HITS,
    GTM_MAX_RUNS,
)

if TYPE_CHECKING:
    from mteval_core.engine.ngrams import EncodedCorpus


def precision_recall_f(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """GTM 1.4's P = size / |C|, R = size / mean reference length, F = (2 * (P * R)) / (P + R),
    each 0 where its denominator is 0, of totals (..., 3): the metric and the grid viewer share it.
    """
    totals = np.asarray(totals, dtype=np.float64)
    precision = _ratio(totals[..., 0], totals[..., 1])
    recall = _ratio(totals[..., 0], totals[..., 2])
    return precision, recall, _ratio(2.0 * (precision * recall), precision + recall)


def _ratio(numerator: np.ndarray, denominator: np.ndarray) -> np.ndarray:
    """numerator / denominator, 0 where the denominator is 0 (GTM 1.4 scores an empty side 0)."""
    out = np.zeros(np.broadcast_shapes(numerator.shape, denominator.shape))
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


class SlowGTM(Note):
    """The compiled GTM loops are missing; the pure-Python ones give the same numbers slowly."""


try:
    from mteval_core.gtm import _loops as loops
except ImportError:  # installed without a C compiler
    from mteval_core.gtm import _loops_python as loops

    say(
        "GTM runs on its pure-Python loops (the compiled module was not built when mteval was "
        "installed): the same numbers, about 100 times slower. Reinstall with a C compiler "
        "(e.g. apt-get install gcc python3-dev) for full speed.",
        SlowGTM,
        stacklevel=2,
    )

# The fewest segments a thread takes through the greedy (about 30 microseconds a segment on WMT
# news: fewer would cost more in starting the thread than they save).
PARALLEL_SEGMENTS = 256

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


def mean_reference_lengths(
    corpus: EncodedCorpus, first: int = 0, last: int | None = None
) -> np.ndarray:
    """Per segment (of [first, last), default all), the mean length of its references (empty
    ones count as 0), as GTM 1.4."""
    return corpus.reference_lengths[:, first:last].sum(axis=0) / corpus.n_references


def segment_grids(
    corpus: EncodedCorpus, system: str, segments: tuple[int, int] | None = None
) -> SegmentGrids:
    """The grids of segments [first, last) (default: all), numbered from 0 in the result."""
    first, last = segments or (0, corpus.n_segments)
    candidate = corpus.systems[system].block(first, last)
    rcat = corpus.concatenated_references.block(first, last)
    caps = np.minimum(
        candidate.lengths.astype(np.float64), mean_reference_lengths(corpus, first, last)
    )
    # the loops take int64 ids; the streams keep int32, and the copies are only this block's
    ids = candidate.ids.astype(np.int64), rcat.ids.astype(np.int64)
    return SegmentGrids(ids[0], candidate.offsets, ids[1], rcat.offsets, caps)


# ---------------------------------------------------------------------- GTM 1.4's greedy, bounded
class SegmentTooLarge(InputError):
    """A segment whose grid is over GTM_MAX_HITS hits or GTM_MAX_RUNS runs (settings/limits.py)."""


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
    stop = threading.Event()

    def span_sizes(span: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
        first, last = span  # the whole id arrays: the offsets of [first, last) point into them
        return loops.greedy_sizes(
            candidates,
            candidate_offsets[first : last + 1],
            rcats,
            rcat_offsets[first : last + 1],
            caps[first:last],
            exponent,
            GTM_MAX_HITS,
            GTM_MAX_RUNS,
            stop,
        )

    parts = map_on_cores(span_sizes, spans(len(caps), fewest=PARALLEL_SEGMENTS), stop)
    sizes = np.concatenate([part[0] for part in parts])
    statuses = np.concatenate([part[1] for part in parts])
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
    cap reaches an upper bound), 'search' (a branch and bound over the blocks of 2 cells or more,
    see ``_loops_python._Search``), 'milp' (integer program, where the search ran over
    GTM_EXACT_MAX_STEPS), or 'greedy-fallback' (grid over GTM_EXACT_MAX_CELLS or
    MAX_EXACT_BLOCKS, or out of time: the greedy value, which may fall short, with a warning for
    the user).
    """

    total: float
    blocks: np.ndarray
    method: str


METHODS = {
    loops.BOUND: "bound",
    loops.SEARCH: "search",
    loops.CLOSED_FORM: "closed-form",
    loops.GREEDY_FALLBACK: "greedy-fallback",
}


def _exact_limits() -> tuple[int, int, int, int]:
    """The limits of one segment's exact matching, read when called (tests lower them)."""
    return GTM_MAX_HITS, GTM_MAX_RUNS, GTM_EXACT_MAX_CELLS, GTM_EXACT_MAX_STEPS


def exact_matching(
    candidate: np.ndarray, rcat: np.ndarray, cap: float, exponent: float
) -> ExactMatching:
    """Maximise sum(len(b) ** e) over matchings of at most floor(cap) whole cells (e >= 1).

    The greedy under the integer budget floor(cap) is a feasible matching; where it reaches an
    upper bound it is optimal, else a branch and bound over each independent part of the grid
    settles it (the compiled loops). Only where that search runs over GTM_EXACT_MAX_STEPS does
    an integer program over all candidate blocks, with one constraint per row, per column and on
    the total length, find the optimum.
    """
    budget = math.floor(cap)
    total, blocks, method, status = loops.exact_matching(
        candidate, rcat, budget, exponent, _exact_limits()
    )
    if status != loops.DONE:
        raise _too_large(candidate, rcat, status)
    if method == loops.UNSOLVED:
        return _integer_program(run_lengths(candidate, rcat), budget, exponent, total, blocks)
    return ExactMatching(total, blocks, METHODS[method])


def _integer_program(
    lengths: np.ndarray, budget: int, exponent: float, greedy_total: float, greedy: np.ndarray
) -> ExactMatching:
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import csr_matrix

    blocks = candidate_blocks(lengths, MAX_EXACT_BLOCKS)
    if blocks is None:
        return ExactMatching(greedy_total, greedy, "greedy-fallback")
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
        return ExactMatching(greedy_total, greedy, "greedy-fallback")
    chosen = blocks[result.x > 0.5]
    chosen = chosen[np.lexsort((chosen[:, 1], chosen[:, 0], -chosen[:, 2]))]
    total = float(np.sum(chosen[:, 2].astype(np.float64) ** exponent))
    if total < greedy_total:  # solver round-off: never report less than a known matching
        return ExactMatching(greedy_total, greedy, "milp")
    return ExactMatching(total, chosen, "milp")


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

    The compiled loops settle nearly every segment at once; the few whose search runs over its
    step limit get the integer program here, one by one. A segment over GTM's limits gets NaN and
    the method 'too-large' (at e = 1, the closed form under floor(cap), which is exact).
    ``progress`` is told the share of segments done.
    """
    grids = SegmentGrids(candidates, candidate_offsets, rcats, rcat_offsets, caps)
    n = len(caps)
    totals, codes, statuses = np.zeros(n), np.zeros(n, np.int8), np.zeros(n, np.int8)
    step = PROGRESS_EVERY if progress is not None else max(n, 1)
    for first in range(0, n, step):
        if progress is not None:
            progress(first / n)
        part = slice(first, min(first + step, n))
        offsets = slice(first, part.stop + 1)
        totals[part], codes[part], statuses[part] = loops.exact_totals(
            candidates,
            candidate_offsets[offsets],
            rcats,
            rcat_offsets[offsets],
            caps[part],
            exponent,
            _exact_limits(),
        )
    sizes = np.array([total ** (1.0 / exponent) for total in totals.tolist()])
    methods = [METHODS.get(code, "unsolved") for code in codes.tolist()]
    for s in np.flatnonzero((statuses != loops.DONE) | (codes == loops.UNSOLVED)):
        sizes[s], methods[s] = _exact_size(grids, s, exponent)  # no 'unsolved' is left
    return sizes, methods


def _exact_size(grids: SegmentGrids, s: int, exponent: float) -> tuple[float, str]:
    """One segment's exact size and method the slow way: the integer program, or over GTM's
    limits NaN (at e = 1, the closed form)."""
    candidate, rcat = grids.segment(s)
    try:
        found = exact_matching(candidate, rcat, float(grids.caps[s]), exponent)
    except SegmentTooLarge:
        if exponent == 1.0:
            return closed_form_size(candidate, rcat, math.floor(grids.caps[s])), "closed-form"
        return np.nan, "too-large"
    return found.total ** (1.0 / exponent), found.method
