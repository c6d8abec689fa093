"""Unigram precision, recall, F1 and Fmean (Lavie, Sagae & Jayaraman 2004, section 2.2).

m is the size of the maximum one-to-one matching of identical tokens (or stems): the sum over word
types of min(count in candidate, count in reference). P = m / |C|, R = m / |R|, F1 = 2PR / (P + R),
Fmean = PR / (alpha P + (1 - alpha) R). With several references each is matched on its own and the
one with the best Fmean is kept per segment (the first on ties), so that P, R, F1 and Fmean of a
segment all describe the same match. Corpus scores are micro-averages: sums of m and lengths over
segments, then the formulas.
"""

from __future__ import annotations

import numpy as np

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.metrics.base import Metric, safe_divide


def fmean(precision: np.ndarray, recall: np.ndarray, alpha: float) -> np.ndarray:
    """PR / (alpha P + (1 - alpha) R), written as METEOR 1.5 computes it, 1 / ((1 - alpha) / P +
    alpha / R), so that segment scores agree with METEOR to the last bit; 0 when P or R is 0."""
    both = (precision > 0) & (recall > 0)
    p = np.where(both, precision, 1.0)
    r = np.where(both, recall, 1.0)
    return np.where(both, 1.0 / ((1.0 - alpha) / p + alpha / r), 0.0)


class _UnigramMetric(Metric):
    """Shared statistics (matches, candidate length, kept reference length) of the four metrics."""

    family = "unigram"

    stat_names = ("matches", "hypothesis_length", "reference_length")
    scale = "0 to 1"
    statistics_kind = "unigram matches"

    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        matches = corpus.unigram_matches_per_reference(system)  # (k, n)
        hyp_len = corpus.hypothesis_lengths(system).astype(np.float64)
        ref_len = corpus.reference_lengths.astype(np.float64)  # (k, n)
        precision = safe_divide(matches, hyp_len)
        recall = safe_divide(matches, ref_len)
        kept = np.argmax(fmean(precision, recall, self.options.unigram.alpha), axis=0)
        columns = np.arange(matches.shape[1])
        return np.column_stack([matches[kept, columns], hyp_len, ref_len[kept, columns]])

    def signature_options(self) -> dict[str, str]:
        # alpha changes Fmean, and with several references also which reference is kept.
        return {"alpha": f"{self.options.unigram.alpha:g}"}

    @staticmethod
    def _precision_recall(totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        totals = np.asarray(totals, dtype=np.float64)
        matches = totals[..., 0]
        return safe_divide(matches, totals[..., 1]), safe_divide(matches, totals[..., 2])


class Precision(_UnigramMetric):
    name = "precision"
    label = "P"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return self._precision_recall(totals)[0]


class Recall(_UnigramMetric):
    name = "recall"
    label = "R"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return self._precision_recall(totals)[1]


class F1(_UnigramMetric):
    name = "f1"
    label = "F1"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        precision, recall = self._precision_recall(totals)
        return safe_divide(2.0 * precision * recall, precision + recall)


class Fmean(_UnigramMetric):
    name = "fmean"
    label = "Fmean"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        precision, recall = self._precision_recall(totals)
        return fmean(precision, recall, self.options.unigram.alpha)
