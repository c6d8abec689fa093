"""The streaming (Poisson) bootstrap: resamples that any sharding of the corpus draws alike.

The in-memory bootstrap (``stats.bootstrap``) draws n segments with replacement: a multinomial
count matrix over the whole corpus, which no shard can draw on its own. The Poisson bootstrap
(Hanley & MacGibbon 2006; Chamandy et al. 2012) gives each segment an independent Poisson(1)
weight in each resample instead; as n grows the two agree in distribution (a multinomial count of
one segment is Binomial(n, 1/n), whose limit is Poisson(1)), and the intervals they give agree.

Here a weight is not drawn from a generator's stream but computed from (seed, segment id,
resample) by a counter-based hash, so it is the same whichever shard holds the segment, in
whichever order, on whichever worker: the sums of a resample over all shards do not depend on the
sharding, and every system of a segment gets the same weight, so differences are paired.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

POISSON_MAX = 20  # P(Poisson(1) > 20) is about 1e-20, far below a 53-bit uniform's resolution
# Weights are made this many at a time (uint64 hashes, float64 uniforms and weights, about 32
# bytes each), so their memory does not grow with resamples x segments.
WEIGHTS_BUDGET_BYTES = 64 * 2**20
_GAMMA = np.uint64(0x9E3779B97F4A7C15)  # splitmix64's increment (2**64 / golden ratio)
_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)
_POISSON_CDF = np.cumsum([math.exp(-1.0) / math.factorial(k) for k in range(POISSON_MAX + 1)])


def _mix(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: a bijection of 64-bit words that spreads every input bit over
    the output (uint64 arithmetic wraps, as the algorithm wants)."""
    x = (x ^ (x >> np.uint64(30))) * _MIX_1
    x = (x ^ (x >> np.uint64(27))) * _MIX_2
    return x ^ (x >> np.uint64(31))


def poisson_weights(seed: int, segments: np.ndarray, resamples: np.ndarray) -> np.ndarray:
    """(len(resamples), len(segments)) Poisson(1) weights as float64; the weight of segment s in
    resample b is a function of (seed, s, b) alone.

    Each (seed, segment) starts a splitmix64 stream, and resample b takes its b-th word: the
    weights of a segment are independent draws, and those of two segments independent streams.
    The word's top 53 bits give a uniform, which the Poisson(1) quantile function turns into
    a weight.
    """
    with np.errstate(over="ignore"):  # the hashes wrap around 2**64 on purpose
        base = _mix(np.array([seed], np.uint64) + _GAMMA)
        streams = _mix(base + np.asarray(segments, np.uint64) * _GAMMA)
        steps = (np.asarray(resamples, np.uint64) + np.uint64(1)) * _GAMMA
        words = _mix(streams[None, :] + steps[:, None])
    uniforms = (words >> np.uint64(11)).astype(np.float64) * 2.0**-53
    return np.searchsorted(_POISSON_CDF, uniforms, side="right").astype(np.float64)


def resample_blocks(n_segments: int, n_resamples: int) -> Iterator[np.ndarray]:
    """The resample numbers 0 .. n_resamples - 1 in blocks whose weights fit the budget."""
    rows = max(1, WEIGHTS_BUDGET_BYTES // (32 * max(n_segments, 1)))
    for start in range(0, n_resamples, rows):
        yield np.arange(start, min(start + rows, n_resamples))


def poisson_sums(
    statistics: np.ndarray, segments: np.ndarray, seed: int, n_resamples: int
) -> np.ndarray:
    """(n_resamples, k) Poisson-weighted sums of (n_segments, k) ``statistics`` whose rows are
    the segments ``segments``: ``weights @ statistics``, a block of resamples at a time."""
    sums = np.empty((n_resamples, statistics.shape[1]))
    for block in resample_blocks(len(segments), n_resamples):
        sums[block] = poisson_weights(seed, segments, block) @ statistics
    return sums
