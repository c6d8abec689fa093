"""NIST, exactly as mteval-v13a.pl computes it (Doddington 2002), quirk included.

Per order n = 1..5, the information weights of the clipped n-gram matches are summed and divided
by the number of hypothesis n-grams; the sum over orders is multiplied by a brevity factor
exp(-beta * ln^2(min(1, L_hyp / L_ref))) with beta = -ln 0.5 / ln^2 1.5, where L_ref is the total
reference length divided by the number of references. The information weights come from the
reference n-gram counts of the whole test set (see ``EncodedCorpus.nist_weights``, which also
documents mteval's "0" quirk). Segment scores use those corpus-wide weights, as mteval does.
"""

from __future__ import annotations

import math

import numpy as np

from mteval_core.engine import libm
from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.metrics.base import Metric, safe_divide

MAX_ORDER = 5
_BETA = -math.log(0.5) / math.log(1.5) / math.log(1.5)


def length_penalty(ratio: np.ndarray) -> np.ndarray:
    """mteval-v13a's nist_length_penalty: 1 at or above ratio 1, 0 at or below 0."""
    inside = (ratio > 0) & (ratio < 1)
    log_ratio = libm.log(np.where(inside, ratio, 1.0))
    penalty = libm.exp(-_BETA * log_ratio * log_ratio)
    return np.where(ratio >= 1, 1.0, np.where(inside, penalty, 0.0))


class NIST(Metric):
    name = "nist"
    label = "NIST"
    scale = "0 and up (as mteval prints it)"
    needs_corpus_counts = True
    stat_names = (
        *(f"information_{n}" for n in range(1, MAX_ORDER + 1)),
        *(f"total_{n}" for n in range(1, MAX_ORDER + 1)),
        "mean_reference_length",
    )

    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        hyp_len = corpus.hypothesis_lengths(system)
        information = [corpus.nist_information(system, n) for n in range(1, MAX_ORDER + 1)]
        totals = [np.maximum(hyp_len - n + 1, 0) for n in range(1, MAX_ORDER + 1)]
        mean_ref_len = corpus.reference_lengths.sum(axis=0) / corpus.n_references
        return np.column_stack([*information, *totals, mean_ref_len]).astype(np.float64)

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        totals = np.asarray(totals, dtype=np.float64)
        information = totals[..., :MAX_ORDER]
        counts = totals[..., MAX_ORDER : 2 * MAX_ORDER]
        score = information[..., 0] / np.maximum(counts[..., 0], 1.0)
        for n in range(1, MAX_ORDER):  # in mteval's order
            score = score + information[..., n] / np.maximum(counts[..., n], 1.0)
        ratio = safe_divide(counts[..., 0], totals[..., 2 * MAX_ORDER])
        return score * length_penalty(ratio)
