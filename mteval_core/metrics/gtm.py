"""GTM (Melamed, Green & Turian 2003), as GTM 1.4 computes it: precision, recall and F.

Statistics per segment: the match size, the candidate length and the mean reference length. A
document or corpus is not a mean of segment scores nor a pooled power sum: its size is the sum of
the segment sizes, its lengths are sums of lengths (GTM 1.4), so the corpus score is the score of
the summed statistics like every other metric here.

P = size / |C|, R = size / mean reference length, F = (2 * (P * R)) / (P + R), each 0 where its
denominator is 0 (so an empty candidate against an empty reference scores 0, as in GTM 1.4).
"""

from __future__ import annotations

import warnings

import numpy as np

from mteval_core.config import Options
from mteval_core.errors import Note
from mteval_core.limits import GTM_EXACT_MAX_CELLS, GTM_MAX_HITS, GTM_MAX_RUNS
from mteval_core.metrics.base import Metric, safe_divide
from mteval_core.ngrams import EncodedCorpus


class ExactMatchingFallback(Note):
    """Some segments were too large for the exact matching; their greedy size was used."""


class SegmentsLeftOut(Note):
    """Some segments were too large for GTM's grid at this exponent; GTM leaves them out."""


def segment_sizes(
    corpus: EncodedCorpus, system: str, caps: np.ndarray, options: Options
) -> np.ndarray:
    """GTM's match size of every segment: greedy (GTM 1.4) or exact (the paper's maximum).

    NaN where a segment is over GTM's limits (only at e != 1), after a warning that names them.
    """
    from mteval_core.matching import EXACT_TIME_LIMIT, MAX_EXACT_BLOCKS, exact_sizes, greedy_sizes

    candidate, rcat = corpus.systems[system], corpus.concatenated_references
    arrays = (candidate.ids, candidate.offsets, rcat.ids, rcat.offsets, caps, options.gtm_exponent)
    if options.gtm_matching == "greedy":
        sizes = greedy_sizes(*arrays)
    else:
        sizes, methods = exact_sizes(*arrays)
        fallbacks = methods.count("greedy-fallback")
        if fallbacks:
            warnings.warn(
                f"{system}: {fallbacks} segment(s) too large for the exact matching "
                f"(over {MAX_EXACT_BLOCKS:,} candidate blocks, {GTM_EXACT_MAX_CELLS:,} grid "
                f"cells or {EXACT_TIME_LIMIT:g} s); their greedy size, a lower bound, was used",
                ExactMatchingFallback,
                stacklevel=2,
            )
    left_out = np.flatnonzero(np.isnan(sizes))
    if left_out.size:
        _warn_left_out(corpus, system, left_out, options.gtm_exponent)
    return sizes


def _warn_left_out(corpus: EncodedCorpus, system: str, left_out: np.ndarray, e: float) -> None:
    from mteval_core.matching import hit_count

    candidate, rcat = corpus.systems[system], corpus.concatenated_references
    first = int(left_out[0])
    tokens = candidate.ids[candidate.offsets[first] : candidate.offsets[first + 1]]
    columns = rcat.ids[rcat.offsets[first] : rcat.offsets[first + 1]]
    numbers = ", ".join(str(s + 1) for s in left_out[:5]) + (", ..." if left_out.size > 5 else "")
    warnings.warn(
        f"{system}: GTM leaves out {left_out.size} segment(s) too large for its bitext grid at "
        f"e = {e:g} (segment {numbers}; segment {first + 1} has {len(tokens):,} x "
        f"{len(columns):,} tokens and {hit_count(tokens, columns):,} hits; the limits are "
        f"{GTM_MAX_HITS:,} hits and {GTM_MAX_RUNS:,} runs a segment): this system's GTM scores "
        "cover its other segments, and these segments score 0. At e = 1 every segment is scored.",
        SegmentsLeftOut,
        stacklevel=3,
    )


class _GTMStatistics(Metric):
    stat_names = ("size", "candidate_length", "mean_reference_length")
    scale = "0 to 1"

    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        candidate_length = corpus.hypothesis_lengths(system).astype(np.float64)
        mean_reference_length = corpus.reference_lengths.sum(axis=0) / corpus.n_references
        caps = np.minimum(candidate_length, mean_reference_length)
        sizes = segment_sizes(corpus, system, caps, self.options)
        statistics = np.column_stack([sizes, candidate_length, mean_reference_length])
        statistics[np.isnan(sizes)] = 0.0  # left out of every sum, with the warning above
        return statistics

    def signature_options(self) -> dict[str, str]:
        return {"gtm-e": f"{self.options.gtm_exponent:g}", "gtm-match": self.options.gtm_matching}

    @staticmethod
    def _precision_recall(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        totals = np.asarray(totals, dtype=np.float64)
        size = totals[..., 0]
        return safe_divide(size, totals[..., 1]), safe_divide(size, totals[..., 2])


class GTM(_GTMStatistics):
    name = "gtm"
    label = "GTM"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        precision, recall = self._precision_recall(totals)
        return safe_divide(2.0 * (precision * recall), precision + recall)


class GTMPrecision(_GTMStatistics):
    name = "gtm_precision"
    label = "GTM-P"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return self._precision_recall(totals)[0]


class GTMRecall(_GTMStatistics):
    name = "gtm_recall"
    label = "GTM-R"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return self._precision_recall(totals)[1]
