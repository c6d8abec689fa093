"""Paired approximate randomization (Noreen 1989; Riezler & Maxwell 2005), as sacreBLEU's
``--paired-ar`` runs it, for every metric and every two systems.

A trial swaps the two systems' outputs on a random half of the segments (each segment flips a
fair coin) and scores the two pseudo-systems from their summed statistics; the p-value of a
pair is the share of trials whose |difference| exceeds the observed one, +1 smoothed:
(count + 1) / (trials + 1). The coins are sacreBLEU's: ``numpy.random.default_rng(seed)``'s
``integers(2, size=(trials, segments), dtype=bool)``, the same matrix for every pair, so on the
same seed and trials the p-values are sacreBLEU's (its default seed is 12345, as ours). The
matrix is drawn a block of trials at a time, each block a multiple of 32 coins, which keeps the
generator's stream the same as one draw (numpy takes 32 coins from each 32-bit word).

Each pair needs only one product per system: with S the coins (trials x segments) and A, B the
statistics, the pseudo-systems' sums are S A + (1 - S) B = S A - S B + sum(B) and
sum(A) - S A + S B, so ``S @ stats`` is computed once per system and metric, not per pair.

Trials tie with the observed difference as sacreBLEU counts them: only a strictly greater
difference counts, so the p-values equal sacreBLEU's (with a coarse metric such as TER, whose
pseudo-systems share one reference length, ties are common and ">=" would give other numbers).
One departure, the one ``stats.significance`` makes for the bootstrap: an observed difference of
exactly 0 has p = 1. sacreBLEU gives two identical systems (every trial's difference 0) the
smallest p there is, 1 / (trials + 1), "significantly different"; here they never differ. And on
fewer than ``stats.significance.MIN_PAIRED_SEGMENTS`` segments there is no test (p undefined,
with the reason): on one segment every trial's difference is the observed one, which the strict
">" never counts, so sacreBLEU calls every pair significant.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

import numpy as np

from mteval_core.metrics.scoring import Progress, Scores
from mteval_core.stats.bootstrap import COUNTS_BUDGET_BYTES, DEFAULT_SEED
from mteval_core.stats.significance import (
    PairedTest,
    holm_corrected_tests,
    n_segments_of,
    undefined_pairs,
    why_no_paired_test,
    with_segments_only,
)

if TYPE_CHECKING:
    from mteval_core.stats.system_clusters import ClusteredSystem

DEFAULT_TRIALS = 10_000  # sacreBLEU's default for --paired-ar


@dataclass(frozen=True)
class RandomizationOptions:
    n_trials: int = DEFAULT_TRIALS
    seed: int = DEFAULT_SEED


@dataclass(frozen=True)
class RandomizationResult:
    options: RandomizationOptions
    pairs: tuple[PairedTest, ...]  # every two systems under every metric, Holm per metric
    clusters: dict[str, tuple[ClusteredSystem, ...]]  # metric -> systems best first
    undefined: dict[str, str]  # metric -> why it has no test (system scores only)

    def to_dict(self) -> dict:
        report: dict = {
            **asdict(self.options),
            "pairs": [pair.to_dict() for pair in self.pairs],
            "clusters": {m: [c.to_dict() for c in cs] for m, cs in self.clusters.items()},
        }
        if self.undefined:
            report["undefined"] = dict(self.undefined)
        return report


def coin_blocks(
    n_segments: int, n_trials: int, rng: np.random.Generator, budget_bytes: int
) -> Iterator[tuple[int, np.ndarray]]:
    """sacreBLEU's coins, ``rows`` trials at a time, as (first trial, float64 block of 0/1)."""
    unit = 32 // math.gcd(n_segments, 32)  # rows whose coins fill whole 32-bit words
    rows = max(unit, (budget_bytes // (9 * max(n_segments, 1))) // unit * unit)
    for start in range(0, n_trials, rows):
        size = min(rows, n_trials - start)
        coins = rng.integers(2, size=(size, n_segments), dtype=bool)
        yield start, coins.astype(np.float64)


def trial_sums(
    matrices: Sequence[np.ndarray],
    n_trials: int,
    rng: np.random.Generator,
    budget_bytes: int = COUNTS_BUDGET_BYTES,
) -> list[np.ndarray]:
    """``coins @ matrix`` for each (n_segments, k) matrix: (n_trials, k) each."""
    n_segments = matrices[0].shape[0]
    matrices = [np.asarray(m, dtype=np.float64) for m in matrices]
    sums = [np.empty((n_trials, m.shape[1])) for m in matrices]
    for start, block in coin_blocks(n_segments, n_trials, rng, budget_bytes):
        for matrix, target in zip(matrices, sums):
            target[start : start + len(block)] = block @ matrix
    return sums


def randomization_p_values(
    swapped: Sequence[np.ndarray], totals: Sequence[np.ndarray], score, observed: np.ndarray
) -> np.ndarray:
    """(n_systems, n_systems) p-values from each system's ``coins @ stats`` (``swapped``) and
    column sums (``totals``); ``score`` maps summed statistics to scores."""
    n = len(swapped)
    p = np.ones((n, n))
    for a in range(n):
        for b in range(a + 1, n):
            real = abs(observed[a] - observed[b])
            if real == 0:
                continue  # no evidence of a difference, whatever the trials say
            moved = swapped[a] - swapped[b]
            pseudo_a = score(moved + totals[b])
            pseudo_b = score(totals[a] - moved)
            count = np.sum(np.abs(pseudo_a - pseudo_b) > real)
            p[a, b] = p[b, a] = (count + 1) / (len(moved) + 1)
    return p


def approximate_randomization(
    scores: Scores,
    options: RandomizationOptions,
    rng: np.random.Generator | None = None,
    progress: Progress | None = None,
) -> RandomizationResult:
    """Paired AR for every two systems under every metric with segment statistics, Holm-
    corrected over each metric's pairs, and the significance clusters those pairs give.
    ``rng`` defaults to ``numpy.random.default_rng(options.seed)``, as sacreBLEU seeds it;
    ``progress`` is told the share of the metrics done (a page's progress bar)."""
    # the clusters' rule lives beside mt-metrics-eval's statistics, which load scipy (a second):
    # only a run that tests pairs pays for it
    from mteval_core.stats.system_clusters import cluster_systems

    undefined = scores.not_resampled()
    scores = with_segments_only(scores)
    if why_no_paired_test(n_segments_of(scores)):
        return _too_few_segments(scores, options, undefined)
    rng = rng if rng is not None else np.random.default_rng(options.seed)
    unique: dict[int, np.ndarray] = {}  # metrics of one kind share their statistics
    for metric in scores.metrics:
        for system in scores.systems:
            array = scores.statistics[metric.name][system]
            unique.setdefault(id(array), array)
    slots = {key: i for i, key in enumerate(unique)}
    sums = trial_sums(list(unique.values()), options.n_trials, rng) if unique else []
    corpus = scores.corpus()
    pairs: list[PairedTest] = []
    clusters: dict[str, tuple[ClusteredSystem, ...]] = {}
    for done, metric in enumerate(scores.metrics, start=1):
        arrays = [scores.statistics[metric.name][s] for s in scores.systems]
        swapped = [sums[slots[id(array)]] for array in arrays]
        totals = [array.sum(axis=0) for array in arrays]
        observed = np.array([corpus[s][metric.name] for s in scores.systems])
        p = randomization_p_values(swapped, totals, metric.score_from_totals, observed)
        tests = holm_corrected_tests(scores.systems, metric.name, p, observed)
        pairs += tests
        clusters[metric.name] = cluster_systems(
            {s: corpus[s][metric.name] for s in scores.systems},
            tests,
            metric.name,
            metric.higher_is_better,
        )
        if progress:
            progress(done / len(scores.metrics))
    return RandomizationResult(options, tuple(pairs), clusters, undefined)


def _too_few_segments(
    scores: Scores, options: RandomizationOptions, undefined: dict[str, str]
) -> RandomizationResult:
    """No trials on too few segments (``stats.significance.why_no_paired_test``): every pair's
    difference without a p-value, and no clusters, with the reason."""
    n_segments = n_segments_of(scores)
    pairs = tuple(undefined_pairs(scores, n_segments))
    reason = why_no_paired_test(n_segments)
    assert reason is not None, f"{n_segments} segments are enough for a paired test"
    return RandomizationResult(
        options, pairs, {}, {**undefined, **dict.fromkeys(scores.metric_names, reason)}
    )
