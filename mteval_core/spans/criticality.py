"""Critical-error detection as WMT25 measures it (``scripts/analysis/21-metrics_criticality.py``
of wmt-conference/wmt25-mteval, read at d1f6ab9).

A translation is critical when its human score is below 10 (of ESA's 100). A metric detects
them by ranking: the organisers sort the translations by the metric's score, call the first k
critical for k = 1, 6, 11, ... (``range(1, n, 5)``), take the best F1 over those k, and do it
again from the other end (``reverse=True``), keeping the better of the two, so that a metric
where higher is better and one where lower is better are judged alike. Ties keep the input
order both ways, as Python's stable sort keeps them. Their table gives this per language pair
(averaged over the two human annotations as gold); the function here is one pair's figure.

The organisers compute each k's F1 over sets; here one cumulative sum gives every k at once,
the same numbers (tests/spans/test_criticality.py pins the script's own ``f1`` on 5 cases).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval_core.errors import InputError

CRITICAL_BELOW = 10.0  # a human score under this is a critical error
STEP = 5  # every fifth cut-off, as the organisers' range(1, n, 5)


def critical_error_f1(
    human: Sequence[float], metric: Sequence[float], below: float = CRITICAL_BELOW
) -> float:
    """The best F1 of detecting human scores under ``below`` by a cut-off on ``metric``."""
    human_scores, metric_scores = np.asarray(human, float), np.asarray(metric, float)
    if human_scores.shape != metric_scores.shape or len(human_scores) < 2:
        raise InputError(
            f"critical-error detection needs two or more translations with both a human and a "
            f"metric score; there are {len(human_scores)} and {len(metric_scores)}"
        )
    if np.isnan(human_scores).any() or np.isnan(metric_scores).any():
        raise InputError("critical-error detection needs a score for every translation, not NaN")
    critical = human_scores < below
    bottom_up = np.argsort(metric_scores, kind="stable")
    top_down = np.argsort(-metric_scores, kind="stable")
    return max(_best_f1(critical[bottom_up]), _best_f1(critical[top_down]))


def _best_f1(critical_in_order: np.ndarray) -> float:
    """The organisers' f1(): the best F1 of calling the first k critical, k in range(1, n, 5)."""
    cut_offs = np.arange(1, len(critical_in_order), STEP)
    true_positives = np.cumsum(critical_in_order)[cut_offs - 1]
    false_positives = cut_offs - true_positives
    false_negatives = critical_in_order.sum() - true_positives
    best = 0.0
    for tp, fp, fn in zip(
        true_positives.tolist(), false_positives.tolist(), false_negatives.tolist()
    ):
        if tp:
            precision, recall = tp / (tp + fp), tp / (tp + fn)
            best = max(best, 2 * precision * recall / (precision + recall))
    return best
