"""Bootstrap resampling (Efron & Tibshirani), vectorised: one seeded resample matrix for all.

Resampling segments with replacement is a matrix W of counts (n_resamples x n_segments). Every
metric's resampled corpus score is ``metric.score_from_totals(W @ stats)``; a human mean is
``(W @ (scores * rated)) / (W @ rated)``. The same W serves every system and metric, so paired
comparisons and correlations are computed on the same resamples (see ``stats.significance``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

DEFAULT_SEED = 12345  # of every resampling, on the command line and in the dashboard
RESAMPLE_CHUNK = 64  # resamples drawn at a time: the draw's int64 buffer stays small


@dataclass(frozen=True)
class BootstrapOptions:
    n_resamples: int = 1000
    seed: int = DEFAULT_SEED
    confidence: float = 0.95


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
