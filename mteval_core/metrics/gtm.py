"""GTM (Melamed, Green & Turian 2003), as GTM 1.4 computes it: precision, recall and F.

Statistics per segment: the match size, the candidate length and the mean reference length. A
document or corpus is not a mean of segment scores nor a pooled power sum: its size is the sum of
the segment sizes, its lengths are sums of lengths (GTM 1.4), so the corpus score is the score of
the summed statistics like every other metric here.

P = size / |C|, R = size / mean reference length, F = (2 * (P * R)) / (P + R), each 0 where its
denominator is 0 (so an empty candidate against an empty reference scores 0, as in GTM 1.4).
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from mteval_core.engine import ngrams
from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.errors import Note, say
from mteval_core.gtm.matching import precision_recall_f
from mteval_core.metrics.base import Metric
from mteval_core.settings.limits import GTM_EXACT_MAX_CELLS, GTM_MAX_HITS, GTM_MAX_RUNS
from mteval_core.settings.options import Options


class ExactMatchingFallback(Note):
    """Some segments were too large for the exact matching; their greedy size was used."""


class SegmentsLeftOut(Note):
    """Some segments were too large for GTM's grid at this exponent; GTM leaves them out."""


def segment_sizes(corpus: EncodedCorpus, system: str, options: Options) -> np.ndarray:
    """GTM's match size of every segment: greedy (GTM 1.4) or exact (the paper's maximum).

    NaN where a segment is over GTM's limits (only at e != 1), after a warning that names them.
    """
    from mteval_core.gtm.matching import (
        EXACT_TIME_LIMIT,
        MAX_EXACT_BLOCKS,
        exact_sizes,
        greedy_sizes,
        segment_grids,
    )

    parts, fallbacks = [], 0
    # a block of segments at a time: the loops' int64 copies of the ids grow with the block
    for first, last in corpus.systems[system].blocks(ngrams.MATCH_BLOCK_TOKENS):
        grids = segment_grids(corpus, system, (first, last))
        if options.gtm.matching == "greedy":
            parts.append(greedy_sizes(*grids, options.gtm.exponent))
        else:
            block_sizes, methods = exact_sizes(*grids, options.gtm.exponent)
            parts.append(block_sizes)
            fallbacks += methods.count("greedy-fallback")
    sizes = np.concatenate(parts)
    if fallbacks:  # exact matching only
        say(
            f"{system}: {fallbacks} segment(s) too large for the exact matching "
            f"(over {MAX_EXACT_BLOCKS:,} candidate blocks, {GTM_EXACT_MAX_CELLS:,} grid "
            f"cells or {EXACT_TIME_LIMIT:g} s); their greedy size, a lower bound, was used",
            ExactMatchingFallback,
            stacklevel=2,
        )
    left_out = np.flatnonzero(np.isnan(sizes))
    if left_out.size:
        _warn_left_out(corpus, system, left_out, options.gtm.exponent)
    return sizes


def _warn_left_out(corpus: EncodedCorpus, system: str, left_out: np.ndarray, e: float) -> None:
    from mteval_core.gtm.matching import hit_count, segment_grids

    first = int(left_out[0])
    tokens, columns = segment_grids(corpus, system, (first, first + 1)).segment(0)
    numbers = ", ".join(str(s + 1) for s in left_out[:5]) + (", ..." if left_out.size > 5 else "")
    say(
        f"{system}: GTM leaves out {left_out.size} segment(s) too large for its bitext grid at "
        f"e = {e:g} (segment {numbers}; segment {first + 1} has {len(tokens):,} x "
        f"{len(columns):,} tokens and {hit_count(tokens, columns):,} hits; the limits are "
        f"{GTM_MAX_HITS:,} hits and {GTM_MAX_RUNS:,} runs a segment): this system's GTM scores "
        "cover its other segments, and these segments score 0. At e = 1 every segment is scored.",
        SegmentsLeftOut,
        stacklevel=3,
    )


class _GTMStatistics(Metric):
    family = "gtm"
    stat_names = ("size", "candidate_length", "mean_reference_length")
    scale = "0 to 1"
    statistics_kind = "gtm matching"
    unigram_twin: ClassVar[str]  # the unigram metric whose formula this one shares: P, R or F1

    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        from mteval_core.gtm.matching import mean_reference_lengths

        candidate_length = corpus.hypothesis_lengths(system).astype(np.float64)
        sizes = segment_sizes(corpus, system, self.options)
        statistics = np.column_stack([sizes, candidate_length, mean_reference_lengths(corpus)])
        statistics[np.isnan(sizes)] = 0.0  # left out of every sum, with the warning above
        return statistics

    def signature_options(self) -> dict[str, str]:
        return {"gtm-e": f"{self.options.gtm.exponent:g}", "gtm-match": self.options.gtm.matching}

    def why_equal_to(self, other: Metric) -> str | None:
        """At e = 1 a matching's size is the number of words matched, whatever their runs, and
        with one reference the maximum is the clipped unigram matches (Melamed et al. 2003)."""
        if other.name != self.unigram_twin or self.options.gtm.exponent != 1:
            return None
        return (
            "at GTM's exponent 1 (GTM 1.4's default) and with one reference, GTM's matching "
            "counts the same matched words as the unigram metrics; an exponent above 1 rewards "
            "longer runs of matching words"
        )


class GTM(_GTMStatistics):
    name = "gtm"
    label = "GTM"
    unigram_twin = "f1"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return precision_recall_f(totals)[2]


class GTMPrecision(_GTMStatistics):
    name = "gtm_precision"
    label = "GTM-P"
    unigram_twin = "precision"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return precision_recall_f(totals)[0]


class GTMRecall(_GTMStatistics):
    name = "gtm_recall"
    label = "GTM-R"
    unigram_twin = "recall"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return precision_recall_f(totals)[1]
