"""Bootstrap resampling (Efron & Tibshirani), vectorised: one seeded resample matrix for all.

Resampling segments with replacement is a matrix W of counts (n_resamples x n_segments). Every
metric's resampled corpus score is ``metric.score_from_totals(W @ stats)``; a human mean is
``(W @ (scores * rated)) / (W @ rated)``. The same W serves every system and metric, so paired
comparisons and correlations are computed on the same resamples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BootstrapOptions:
    n_resamples: int = 1000
    seed: int = 12345
    confidence: float = 0.95


def resample_counts(n_items: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(n_resamples, n_items) counts: how often each item is drawn in each resample."""
    return rng.multinomial(n_items, np.full(n_items, 1.0 / n_items), size=n_resamples)


def percentile_interval(samples: np.ndarray, confidence: float = 0.95) -> tuple[float, float]:
    """The central ``confidence`` share of the resampled values (percentile method)."""
    tail = (1.0 - confidence) / 2.0 * 100.0
    finite = samples[np.isfinite(samples)]
    if finite.size == 0:
        return float("nan"), float("nan")
    low, high = np.percentile(finite, [tail, 100.0 - tail])
    return float(low), float(high)


def resampled_means(values: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per resample, the mean of ``values`` (NaN = not rated, left out) under the counts."""
    rated = np.isfinite(values)
    filled = np.where(rated, values, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return (counts @ filled) / (counts @ rated.astype(float))


def paired_p_values(samples: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Paired bootstrap p-values for every pair of columns (Koehn 2004), as sacreBLEU computes
    them: the share of resamples whose centred |difference| exceeds the observed |difference|,
    with +1 smoothing. ``samples`` is (n_resamples, n_systems); returns (n_systems, n_systems)."""
    n = samples.shape[1]
    p = np.ones((n, n))
    for a in range(n):
        for b in range(a + 1, n):
            differences = np.abs(samples[:, a] - samples[:, b])
            centred = differences - differences.mean()
            real = abs(observed[a] - observed[b])
            p[a, b] = p[b, a] = (np.sum(centred > real) + 1) / (len(centred) + 1)
    return p


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (same shape, same order)."""
    flat = np.asarray(p_values, float).ravel()
    order = np.argsort(flat, kind="stable")
    m = len(flat)
    adjusted_sorted = np.maximum.accumulate((m - np.arange(m)) * flat[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(adjusted_sorted, 1.0)
    return adjusted.reshape(np.shape(p_values))
