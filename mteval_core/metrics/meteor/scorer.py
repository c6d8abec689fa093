"""METEOR's sufficient statistics of a segment and its score from (summed) statistics.

Statistics of a segment, as the jar's MeteorStats keeps them (word-level METEOR): hypothesis and
reference lengths, their function words, then for every configured module the matched content
and function words of the hypothesis and of the reference, then the chunks. Two choices of the
jar are built into the statistics so that sums of them give its corpus score:

* a segment whose lines match completely in one chunk adds no chunks to a sum (the jar's
  ``addStats``), so its row holds 0 chunks; its own score does not change (its fragmentation is
  0 either way);
* with several references, a segment keeps the statistics of the reference with the best score
  (the first on ties: the jar replaces its choice only on a strictly higher score).

The score (the jar's ``computeMetrics``) is evaluated in the jar's order of operations, so that
numbers agree to the last bit: weighted lengths and matches with delta and the module weights,
precision and recall, Fmean = 1 / ((1 - alpha) / P + alpha / R), fragmentation chunks / mean
matches, penalty gamma * frag ** beta, score Fmean * (1 - penalty), 0 where undefined, never
below 0. The power is the C library's ``pow`` (engine.libm), not numpy's, whose SIMD loops on
AVX-512 CPUs round differently; Java's ``Math.pow`` (HotSpot's own) and C's still part in the
last bit for a few arguments (77 of WMT23's 134,323 English segments;
tests/metrics/test_meteor_jar.py pins them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.engine import libm
from mteval_core.metrics.meteor.aligner import Alignment

N_FIXED = 4  # lengths and function words, before the per-module columns
PER_MODULE = 4  # hypothesis content, reference content, hypothesis function, reference function


@dataclass(frozen=True)
class Parameters:
    """The scoring parameters: alpha, beta, gamma, delta and one weight per module."""

    alpha: float
    beta: float
    gamma: float
    delta: float
    weights: tuple[float, ...]


def stat_names(modules: Sequence[str]) -> tuple[str, ...]:
    names = ["hypothesis_length", "reference_length", "hypothesis_function", "reference_function"]
    for module in modules:
        names += [
            f"{module}_hypothesis_content",
            f"{module}_reference_content",
            f"{module}_hypothesis_function",
            f"{module}_reference_function",
        ]
    return (*names, "chunks")


def statistics_row(
    alignment: Alignment, hypothesis_length: int, reference_length: int
) -> list[float]:
    """One segment's statistics against one reference, as ``stat_names`` lists them."""
    row = [
        float(hypothesis_length),
        float(reference_length),
        float(alignment.hypothesis_function_words),
        float(alignment.reference_function_words),
    ]
    for k in range(len(alignment.hypothesis_content)):
        row += [
            alignment.hypothesis_content[k],
            alignment.reference_content[k],
            alignment.hypothesis_function[k],
            alignment.reference_function[k],
        ]
    matched_hypothesis = sum(alignment.hypothesis_content) + sum(alignment.hypothesis_function)
    matched_reference = sum(alignment.reference_content) + sum(alignment.reference_function)
    complete = (
        matched_hypothesis == hypothesis_length
        and matched_reference == reference_length
        and alignment.chunks == 1
    )
    row.append(0.0 if complete else float(alignment.chunks))
    return row


def meteor_from_totals(totals: np.ndarray, parameters: Parameters) -> np.ndarray:
    """METEOR from (..., n_stats) statistics (one segment's or summed), over any leading axes."""
    return score_parts(totals, parameters)["score"]


def score_parts(totals: np.ndarray, parameters: Parameters) -> dict[str, np.ndarray]:
    """Precision, recall, Fmean, fragmentation, its penalty and the score, each (...)."""
    totals = np.asarray(totals, dtype=np.float64)
    n_modules = (totals.shape[-1] - N_FIXED - 1) // PER_MODULE
    alpha, beta, gamma, delta = (
        parameters.alpha,
        parameters.beta,
        parameters.gamma,
        parameters.delta,
    )
    weights = parameters.weights
    hyp_len, ref_len, hyp_fn, ref_fn = (totals[..., k] for k in range(N_FIXED))
    module = [
        totals[..., N_FIXED + PER_MODULE * k : N_FIXED + PER_MODULE * (k + 1)]
        for k in range(n_modules)
    ]
    chunks = totals[..., -1]
    with np.errstate(all="ignore"):  # Java's double arithmetic: 0/0 is NaN, x/0 infinite
        hyp_weighted_length = (delta * (hyp_len - hyp_fn)) + ((1.0 - delta) * hyp_fn)
        ref_weighted_length = (delta * (ref_len - ref_fn)) + ((1.0 - delta) * ref_fn)
        hyp_weighted = np.zeros(totals.shape[:-1])
        ref_weighted = np.zeros(totals.shape[:-1])
        for k in range(n_modules):
            hyp_weighted = hyp_weighted + module[k][..., 0] * weights[k] * delta
        for k in range(n_modules):
            ref_weighted = ref_weighted + module[k][..., 1] * weights[k] * delta
        for k in range(n_modules):
            hyp_weighted = hyp_weighted + module[k][..., 2] * weights[k] * (1.0 - delta)
        for k in range(n_modules):
            ref_weighted = ref_weighted + module[k][..., 3] * weights[k] * (1.0 - delta)
        precision = hyp_weighted / hyp_weighted_length
        recall = ref_weighted / ref_weighted_length
        fmean = 1.0 / (((1.0 - alpha) / precision) + (alpha / recall))
        hyp_matches = sum(
            (module[k][..., 0] + module[k][..., 2] for k in range(n_modules)),
            np.zeros(totals.shape[:-1]),
        )
        ref_matches = sum(
            (module[k][..., 1] + module[k][..., 3] for k in range(n_modules)),
            np.zeros(totals.shape[:-1]),
        )
        complete = (hyp_matches == hyp_len) & (ref_matches == ref_len) & (chunks == 1)
        fragmentation = np.where(complete, 0.0, chunks / ((hyp_matches + ref_matches) / 2))
        penalty = gamma * libm.power(fragmentation, beta)
        score = fmean * (1.0 - penalty)
    score = np.where(np.isnan(score), 0.0, np.maximum(score, 0.0))
    return {
        "precision": precision,
        "recall": recall,
        "fmean": fmean,
        "fragmentation": fragmentation,
        "penalty": penalty,
        "score": score,
    }


def best_reference_row(rows: Sequence[list[float]], parameters: Parameters) -> list[float]:
    """The statistics of the reference with the highest score, the first on ties."""
    if len(rows) == 1:
        return rows[0]
    scores = meteor_from_totals(np.array(rows), parameters)
    return rows[int(np.argmax(scores))]
