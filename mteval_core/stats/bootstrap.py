"""Bootstrap resampling (Efron & Tibshirani), vectorised: one seeded resample matrix for all.

Resampling segments with replacement is a matrix W of counts (n_resamples x n_segments). Every
metric's resampled corpus score is ``metric.score_from_totals(W @ stats)``; a human mean is
``(W @ (scores * rated)) / (W @ rated)``. The same W serves every system and metric, so paired
comparisons and correlations are computed on the same resamples (see ``stats.significance``).
``resampled_sums`` computes all those products a block of W's rows at a time, so W is never
held whole.

W is drawn as sacreBLEU draws its resamples (``--paired-bs``, ``--confidence``): the segment
indices of every resample from ``numpy.random.default_rng(seed).choice(n_segments,
size=(n_resamples, n_segments))``, one matrix for every system and metric, each row's indices
counted. On the same seed and resamples the resampled scores, and so the paired p-values, are
sacreBLEU's.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass

import numpy as np

DEFAULT_SEED = 12345  # of every resampling, on the command line and in the dashboard
RESAMPLE_CHUNK = 64  # resamples drawn at a time: the draw's int64 indices stay small
# resampled_sums holds this much of the count matrix at once (int64 indices + float64 counts), so
# its memory does not grow with resamples x segments: 1,000 x 192k segments would be 1.5 GB.
COUNTS_BUDGET_BYTES = 64 * 2**20


# A percentile interval's bound is the resampled value with this many resamples beyond it, at the
# least: the count beyond a bound varies by about its square root from seed to seed (20% at 25),
# and 25 at 95% confidence is 1,000 resamples, sacreBLEU's (and Koehn's) default, whose sacreBLEU
# interval reads the 25th value from each end (significance.estimate_ci: n // 40).
MIN_TAIL_RESAMPLES = 25


@dataclass(frozen=True)
class BootstrapOptions:
    n_resamples: int = 1000
    seed: int = DEFAULT_SEED
    confidence: float = 0.95

    @property
    def too_few_for_intervals(self) -> str | None:
        """What every output with intervals from these resamples must say when they are too few
        (``fewest_interval_resamples``), in words without a command-line flag; else None."""
        needed = fewest_interval_resamples(self.confidence)
        if self.n_resamples >= needed:
            return None
        tail = (1 - self.confidence) / 2
        return (
            f"too few resamples for intervals ({self.n_resamples:,}): a {self.confidence:.0%} "
            f"interval leaves {tail:.1%} of the resamples beyond each bound, "
            f"{self.n_resamples * tail:.3g} here, and with fewer than {MIN_TAIL_RESAMPLES} the "
            f"bounds move from seed to seed; {needed:,} resamples or more leave "
            f"{MIN_TAIL_RESAMPLES}"
        )


def fewest_interval_resamples(confidence: float = 0.95) -> int:
    """The fewest resamples that leave ``MIN_TAIL_RESAMPLES`` beyond each bound of a
    ``confidence`` percentile interval: 1,000 at 95%, 5,000 at 99%."""
    tail = (1 - confidence) / 2
    return math.ceil(round(MIN_TAIL_RESAMPLES / tail, 6))  # 25 / 0.025 is 999.99...


def resampling_record(options: BootstrapOptions) -> dict:
    """The options as every JSON report has them, with a "note" when the resamples are too few
    for intervals (``BootstrapOptions.too_few_for_intervals``)."""
    record: dict = asdict(options)
    note = options.too_few_for_intervals
    if note:
        record["note"] = note
    return record


def resample_counts(n_items: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """(n_resamples, n_items) counts: how often each item is drawn in each resample.

    Float64, because every use multiplies them with float statistics (an int64 matrix would be
    copied to float64 inside each product: twice the memory, the same numbers).
    """
    counts = np.empty((n_resamples, n_items))
    for start, block in count_blocks(n_items, n_resamples, rng, RESAMPLE_CHUNK):
        counts[start : start + len(block)] = block
    return counts


def resampled_sums(
    matrices: Sequence[np.ndarray],
    n_resamples: int,
    rng: np.random.Generator,
    budget_bytes: int = COUNTS_BUDGET_BYTES,
) -> list[np.ndarray]:
    """``counts @ matrix`` for each (n_items, k) matrix, with the counts ``resample_counts``
    would draw from ``rng``; drawn and applied a block of resamples at a time, so only
    ``budget_bytes`` of counts exist at once. Each result is (n_resamples, k)."""
    n_items = matrices[0].shape[0]
    # once, not in every block's product (statistics may be int32: see scoring.compact)
    matrices = [np.asarray(matrix, dtype=np.float64) for matrix in matrices]
    sums = [np.empty((n_resamples, matrix.shape[1])) for matrix in matrices]
    rows = max(1, budget_bytes // (16 * n_items))  # the int64 indices and the float64 counts
    for start, block in count_blocks(n_items, n_resamples, rng, rows):
        for matrix, target in zip(matrices, sums):
            target[start : start + len(block)] = block @ matrix
    return sums


def count_blocks(
    n_items: int, n_resamples: int, rng: np.random.Generator, rows: int
) -> Iterator[tuple[int, np.ndarray]]:
    """The resample counts, ``rows`` resamples at a time, as (first row, float64 block): in each
    block, sacreBLEU's indices (``rng.choice(n_items, size=(rows, n_items))``), each row's
    counted. numpy draws the indices one after another from the generator's stream of 32-bit
    words, and the generator keeps the unused half of a 64-bit word between calls, so blocks of
    any size give the indices of one call for all resamples: the counts do not depend on
    ``rows`` (tests/stats/test_bootstrap_draw.py checks it for odd sizes and block sizes)."""
    for start in range(0, n_resamples, rows):
        size = min(rows, n_resamples - start)
        picks = rng.choice(n_items, size=(size, n_items), replace=True)
        block = np.empty((size, n_items))
        for row, drawn in enumerate(picks):
            block[row] = np.bincount(drawn, minlength=n_items)
        yield start, block


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


def resampled_means(score_sums: np.ndarray, rated_sums: np.ndarray) -> np.ndarray:
    """Per resample, the mean of the rated values: ``counts @ values`` (NaN as 0) over
    ``counts @ rated``; NaN in a resample that drew no rated item."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return score_sums / rated_sums
