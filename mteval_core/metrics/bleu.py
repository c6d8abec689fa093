"""BLEU, computed exactly as sacreBLEU 2.x computes it, from vectorised sufficient statistics.

Statistics per segment, in sacreBLEU's order: hypothesis length, reference length (the closest
reference length, ties going to the shorter one, or the shortest with bp='shortest'), then
clipped matches and totals for n = 1..4. The corpus score uses sacreBLEU's 'exp' smoothing (which
only matters when an order has no match at all); segment scores are sacreBLEU's sentence BLEU
(effective order on). ``bleu_arith`` is the variant Lavie et al. (2004) mention: the brevity
penalty times the arithmetic mean of the n-gram precisions instead of their geometric mean.
"""

from __future__ import annotations

import numpy as np

from mteval_core.engine import libm
from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.metrics.base import Metric, safe_divide

MAX_ORDER = 4
_LOG_ZERO = -9999999999.0  # sacreBLEU's my_log(0)


def reference_length(hyp_len: np.ndarray, ref_lens: np.ndarray, rule: str) -> np.ndarray:
    """Per segment, the reference length BLEU's brevity penalty compares with.

    ref_lens is (n_references, n_segments). 'closest': the length nearest the hypothesis length,
    the shorter one on ties (sacreBLEU, mteval-v13a); 'shortest': the shortest reference.
    """
    if rule == "shortest":
        return ref_lens.min(axis=0)
    span = np.int64(ref_lens.max(initial=0) + 1)
    rank = np.abs(ref_lens - hyp_len) * span + ref_lens  # distance first, then length
    return rank.min(axis=0) % span


def brevity_penalty(sys_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    ratio = safe_divide(ref_len, sys_len)
    penalty = np.where(sys_len < ref_len, libm.exp(1.0 - ratio), 1.0)
    return np.where((sys_len == 0) & (ref_len > 0), 0.0, penalty)


class _BleuStatistics(Metric):
    family = "bleu"
    decimals = 2  # as sacreBLEU prints BLEU
    stat_names = (
        "hypothesis_length",
        "reference_length",
        *(f"matches_{n}" for n in range(1, MAX_ORDER + 1)),
        *(f"total_{n}" for n in range(1, MAX_ORDER + 1)),
    )
    scale = "0 to 100"

    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        hyp_len = corpus.hypothesis_lengths(system)
        ref_len = reference_length(hyp_len, corpus.reference_lengths, self.options.bleu.bp)
        matches = [corpus.clipped_matches(system, n) for n in range(1, MAX_ORDER + 1)]
        totals = [np.maximum(hyp_len - n + 1, 0) for n in range(1, MAX_ORDER + 1)]
        return np.column_stack([hyp_len, ref_len, *matches, *totals]).astype(np.float64)

    def signature_options(self) -> dict[str, str]:
        return {"bp": self.options.bleu.bp}

    @staticmethod
    def _split(totals: np.ndarray) -> tuple[np.ndarray, ...]:
        totals = np.asarray(totals, dtype=np.float64)
        sys_len, ref_len = totals[..., 0], totals[..., 1]
        correct = totals[..., 2 : 2 + MAX_ORDER]
        total = totals[..., 2 + MAX_ORDER : 2 + 2 * MAX_ORDER]
        return sys_len, ref_len, correct, total


class BLEU(_BleuStatistics):
    name = "bleu"
    label = "BLEU"

    def signature_options(self) -> dict[str, str]:
        return {**super().signature_options(), "smooth": "exp"}

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return self._geometric(totals, effective_order=False)

    def segment_scores(self, stats: np.ndarray) -> np.ndarray:
        """Sentence BLEU, as sacreBLEU's sentence_bleu (effective order, exp smoothing)."""
        return self._geometric(stats, effective_order=True)

    def _geometric(self, totals: np.ndarray, effective_order: bool) -> np.ndarray:
        """sacreBLEU's compute_bleu with smooth_method='exp', over any leading axes."""
        sys_len, ref_len, correct, total = self._split(totals)
        # sacreBLEU stops at the first order with no hypothesis n-grams
        valid = np.cumprod(total > 0, axis=-1).astype(bool)
        unmatched = valid & (correct == 0)
        smoothing = 2.0 ** np.cumsum(unmatched, axis=-1)  # 'exp': 1/2, 1/4, ... of a match
        precision = np.where(
            unmatched, safe_divide(100.0, smoothing * total), safe_divide(100.0 * correct, total)
        )
        precision = np.where(valid, precision, 0.0)
        positive = precision > 0
        log_precision = np.where(positive, libm.log(np.where(positive, precision, 1.0)), _LOG_ZERO)
        # effective order: only the orders that have hypothesis n-grams count (sentence BLEU)
        order = valid.sum(axis=-1) if effective_order else np.full(sys_len.shape, MAX_ORDER)
        used = np.arange(MAX_ORDER) < order[..., None]
        summed = log_precision[..., 0] * used[..., 0]
        for n in range(1, MAX_ORDER):  # left to right, as Python's sum() adds
            summed = summed + np.where(used[..., n], log_precision[..., n], 0.0)
        score = brevity_penalty(sys_len, ref_len) * libm.exp(safe_divide(summed, order))
        return np.where(correct.sum(axis=-1) > 0, score, 0.0)


class BLEUArithmetic(_BleuStatistics):
    name = "bleu_arith"
    label = "BLEU-arith"

    def signature_options(self) -> dict[str, str]:
        return {**super().signature_options(), "mean": "arithmetic"}

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        sys_len, ref_len, correct, total = self._split(totals)
        precision = safe_divide(100.0 * correct, total)  # an order with no n-grams counts 0
        return brevity_penalty(sys_len, ref_len) * precision.mean(axis=-1)
