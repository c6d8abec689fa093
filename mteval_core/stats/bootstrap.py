"""Bootstrap resampling (Efron & Tibshirani), vectorised: one seeded resample matrix for all.

Resampling segments with replacement is a matrix W of counts (n_resamples x n_segments). Every
metric's resampled corpus score is ``metric.score_from_totals(W @ stats)``; a human mean is
``(W @ (scores * rated)) / (W @ rated)``. The same W serves every system and metric, so paired
comparisons and correlations are computed on the same resamples.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

SIGNIFICANCE_LEVEL = 0.05  # a pair "differs" when its Holm-corrected p is below this
DEFAULT_SEED = 12345  # of every resampling, on the command line and in the dashboard


@dataclass(frozen=True)
class BootstrapOptions:
    n_resamples: int = 1000
    seed: int = DEFAULT_SEED
    confidence: float = 0.95


RESAMPLE_CHUNK = 64  # resamples drawn at a time: the draw's int64 buffer stays small


def resample_counts(n_items: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(n_resamples, n_items) counts: how often each item is drawn in each resample.

    Float64, because every use multiplies them with float statistics (an int64 matrix would be
    copied to float64 inside each product: twice the memory, the same numbers), and drawn a chunk
    of resamples at a time into that one array: the generator draws resample after resample
    either way, so the counts are those of a single draw of all of them.
    """
    counts = np.empty((n_resamples, n_items))
    probabilities = np.full(n_items, 1.0 / n_items)
    for start in range(0, n_resamples, RESAMPLE_CHUNK):
        size = min(RESAMPLE_CHUNK, n_resamples - start)
        counts[start : start + size] = rng.multinomial(n_items, probabilities, size=size)
    return counts


def percentile_interval(
    samples: np.ndarray, confidence: float = 0.95
) -> tuple[float, float] | None:
    """The central ``confidence`` share of the resampled values (percentile method).

    Resamples in which the statistic is undefined (NaN, e.g. a correlation over systems that all
    tie in that resample) are left out; None when it is undefined in every resample."""
    tail = (1.0 - confidence) / 2.0 * 100.0
    finite = samples[np.isfinite(samples)]
    if finite.size == 0:
        return None
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
    them: the share of resamples whose centred |difference| reaches the observed |difference|,
    with +1 smoothing. ``samples`` is (n_resamples, n_systems); returns (n_systems, n_systems).

    One departure from sacreBLEU: ties count against significance. sacreBLEU counts centred
    differences strictly greater than the observed one, so two identical systems (every
    difference 0, centred 0, observed 0) get the smallest p there is, 1 / (R + 1), and are
    "significantly different". Here a resample as extreme as the observed difference counts
    (>=), and an observed difference of exactly 0 has p = 1: it is no evidence of a difference.
    For any observed difference that is not 0 the two agree (bar exact float ties)."""
    n = samples.shape[1]
    p = np.ones((n, n))
    for a in range(n):
        for b in range(a + 1, n):
            real = abs(observed[a] - observed[b])
            if real == 0:
                continue
            differences = np.abs(samples[:, a] - samples[:, b])
            centred = differences - differences.mean()
            p[a, b] = p[b, a] = (np.sum(centred >= real) + 1) / (len(centred) + 1)
    return p


def smallest_reachable_p(n_resamples: int, n_pairs: int = 1) -> float:
    """The smallest p-value any pair can get: 1 / (R + 1) from R resamples (the +1 smoothing),
    times n_pairs for the pair with the smallest p after Holm's correction over n_pairs pairs
    (at most 1). When it is not below the significance level, no pair can be significant."""
    if n_resamples < 1 or n_pairs < 1:
        raise ValueError(f"need n_resamples >= 1 and n_pairs >= 1, got {n_resamples}, {n_pairs}")
    return min(1.0, n_pairs * (1 / (n_resamples + 1)))  # as Holm computes it, to the last bit


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (same shape, same order)."""
    flat = np.asarray(p_values, float).ravel()
    order = np.argsort(flat, kind="stable")
    m = len(flat)
    adjusted_sorted = np.maximum.accumulate((m - np.arange(m)) * flat[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(adjusted_sorted, 1.0)
    return adjusted.reshape(np.shape(p_values))
