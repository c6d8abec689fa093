"""System-level agreement from segment scores: soft pairwise accuracy (Thompson et al. 2024) and
pairwise accuracy with ties (mt-metrics-eval's Agreement), as mt-metrics-eval computes them.

SPA compares, for every pair of systems, the p-value of a paired permutation test on the metric's
segment scores with the same test on the human scores; the permutations are mt-metrics-eval's own
(seed 4), so the numbers agree with it to the last bit.
"""

from __future__ import annotations

import numpy as np

SPA_SEED = 4  # mt-metrics-eval's fixed seed: every metric and every run sees the same permutations


def permutation_signs(n_segments: int, n_permutations: int, rng: np.random.Generator) -> np.ndarray:
    """(n_permutations, n_segments) of +1 and -1, drawn as mt-metrics-eval's
    compute_pairwise_p_values draws them (float32 uniforms rounded to 0 or 1): with
    ``np.random.default_rng(4)`` its permutations exactly."""
    signs = rng.random(size=(n_permutations, n_segments), dtype=np.float32)
    np.rint(signs, out=signs)
    signs *= 2.0
    signs -= 1.0
    return signs


def pairwise_p_values(scores: np.ndarray, signs: np.ndarray) -> np.ndarray:
    """For every pair of systems i < j (in np.triu_indices order), the paired permutation test's
    p-value that system i is better: the share of sign permutations under which the difference
    of the summed scores reaches the observed one.

    The arithmetic is mt-metrics-eval's, operation for operation: float32, a C-ordered score
    matrix, one matrix product. Its exact ties (a permutation whose difference equals the observed
    one) are decided by float32 rounding, which depends on the order in which BLAS adds; with the
    same layout SPA agrees with mt-metrics-eval's to the last bit on the same machine, and a
    float64 computation would not (WMT21 TED en-de: 1.3e-4 apart)."""
    scores = np.ascontiguousarray(scores, dtype=np.float32)
    totals = np.sum(scores, axis=1)
    partial = np.matmul(signs, scores.T)
    first, second = np.triu_indices(len(scores), k=1)
    null = partial[:, first] - partial[:, second]
    return np.sum(null >= totals[first] - totals[second], axis=0) / len(signs)


def soft_pairwise_accuracy(
    metric: np.ndarray, human: np.ndarray, signs: np.ndarray
) -> float | None:
    """SPA (Thompson et al. 2024), mt-metrics-eval's PairwiseConfidenceError: 1 minus the mean,
    over system pairs, of |p_human - p_metric|, the p-values of the same permutation test on each.

    The segments are those every system has a human score for (mt-metrics-eval needs this: it
    drops the unscored cells and reshapes); ``signs`` is (n_permutations, that many segments),
    see ``permutation_signs``. None with fewer than two systems, no such segment (every p-value
    would be 1 and SPA 1 for any metric), or a missing metric score (``why_no_spa`` says which)."""
    columns = complete_columns(human)
    metric = np.asarray(metric, dtype=np.float64)[:, columns]
    if len(human) < 2 or not columns.any() or not np.isfinite(metric).all():
        return None
    return spa_from_p_values(metric, pairwise_p_values(np.asarray(human)[:, columns], signs), signs)


def spa_from_p_values(metric: np.ndarray, p_human: np.ndarray, signs: np.ndarray) -> float:
    """SPA from the human p-values (the same for every metric); NaN if a score is missing."""
    if not np.isfinite(metric).all():
        return np.nan
    return float(1.0 - np.mean(np.abs(p_human - pairwise_p_values(metric, signs))))


def complete_columns(human: np.ndarray) -> np.ndarray:
    return np.isfinite(human).all(axis=0)


def why_no_spa(human: np.ndarray) -> str:
    """Why ``soft_pairwise_accuracy`` of some metric against ``human`` is None."""
    if len(human) < 2:
        return "fewer than two systems"
    if not complete_columns(human).any():
        return "no segment has human scores for every system"
    return "a metric score is missing on a segment that people scored for every system"


def pairwise_agreement(metric: np.ndarray, human: np.ndarray) -> np.ndarray:
    """System-level pairwise accuracy along the last axis (mt-metrics-eval's Agreement): the
    share of system pairs the metric orders as people do, where a pair people tie is right only
    if the metric ties it too. NaN where a system has no score."""
    metric, human = np.asarray(metric, float), np.asarray(human, float)
    first, second = np.triu_indices(metric.shape[-1], k=1)
    same = np.sign(metric[..., first] - metric[..., second]) == np.sign(
        human[..., first] - human[..., second]
    )
    complete = np.isfinite(metric).all(-1) & np.isfinite(human).all(-1)
    return np.where(complete, same.mean(-1), np.nan)


def resampled_system_agreement(
    metric: np.ndarray, human: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    """``pairwise_agreement`` of the system means over scored segments, per row of segment
    weights, over the systems that have human scores."""
    cells = np.isfinite(metric) & np.isfinite(human)
    judged = np.isfinite(human).any(axis=1)
    cells, metric, human = cells[judged], metric[judged], human[judged]
    with np.errstate(invalid="ignore", divide="ignore"):
        scored = weights @ cells.T
        metric_means = (weights @ np.where(cells, metric, 0.0).T) / scored
        human_means = (weights @ np.where(cells, human, 0.0).T) / scored
    return pairwise_agreement(metric_means, human_means)
