"""Ranking metrics by their agreement with people, in significance clusters (mt-metrics-eval).

``rank_metrics`` orders the metrics by a statistic (best first, by name on ties), tests every
pair with a permutation test and groups them as mt-metrics-eval's AssignRanks does: a metric
starts a new rank when a metric above it, at or below the current rank's first metric, is
significantly better. The p-values are not corrected for multiple comparisons, as there. A metric
whose statistic is undefined (constant scores, too few systems) is not ranked: it comes last, with
no rank and the reason, and the clusters are those of the metrics with a value.

Two permutation tests, both seeded with a ``numpy.random.Generator``:

- ``permutation_test`` is mt-metrics-eval's PermutationSigDiff (PERM-BOTH, Deutsch et al. 2021):
  each metric's scores are z-normalised over the scored cells; each permutation swaps the two
  metrics' scores in a random half of the cells, and the p-value is the share of permutations in
  which the second metric's advantage reaches the observed one. A statistic that is undefined
  on a permuted matrix counts as 0, as there.
- ``pairwise_permutation_test`` is PairwisePermutationSigDiff, the test WMT uses for acc_eq: each
  metric keeps the tie threshold calibrated on its own scores, and a permutation swaps the two
  metrics' outcomes (right or wrong) on a random half of the pairs.

Both stop early as mt-metrics-eval does: after each block of permutations, when the p-value so
far is below ``early_min`` or above ``early_max``. (PairwisePermutationSigDiff checks only after a
block whose last permutation counted, an accident of indentation; here both check every block.)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from mteval_core.stats.segment_level import (
    Estimate,
    SegmentLevelParams,
    SegmentLevelResult,
    batched_statistic,
    grouped_statistics,
    system_level_estimate,
)
from mteval_core.stats.tie_calibration import scored_pairs, tie_calibration

DEFAULT_SEGMENT_PARAMS = SegmentLevelParams()


@dataclass(frozen=True)
class PermutationParams:
    """mt-metrics-eval's defaults: k = 1000 and PermutationSigDiffParams, p < 0.05 for a rank."""

    n_permutations: int = 1000
    block_size: int = 1000
    early_min: float = 0.02
    early_max: float = 0.5
    significance: float = 0.05


@dataclass(frozen=True, eq=False)
class PermutationResult:
    """p-value that metric b agrees with people better than metric a."""

    p_value: float
    delta: float  # statistic of b minus statistic of a
    n_permutations: int  # run, fewer than asked after an early stop
    draws: np.ndarray  # (n_permutations, 2): the permuted statistics of b's and of a's side


@dataclass(frozen=True)
class RankedMetric:
    name: str
    value: float | None
    rank: int | None  # significance cluster, 1 = best; None (not ranked) when value is None
    interval: tuple[float, float] | None = None  # from the bootstrap, when a result is given
    undefined: str | None = None  # why value is None, and so the metric not ranked


@dataclass(frozen=True)
class PairwiseP:
    """One metric against another in a ranking: the permutation test's p-value that the one
    ranked lower is at least as good as the one ranked higher (small: the higher one is
    significantly better); None when either statistic is undefined (the pair was not tested)."""

    metric: str
    other: str
    higher: str  # of the two, the one ranked higher (the better value; by name on ties)
    p_value: float | None
    significant: bool  # p_value at or below the ranking's significance level


@dataclass(frozen=True, eq=False)
class MetricRanking:
    statistic: str
    grouping: str
    metrics: tuple[RankedMetric, ...]  # best first
    p_values: np.ndarray  # [i, j], i < j: p that metric j is at least as good as metric i
    n_permutations: int | None = None  # asked per pair (fewer after an early stop)

    @property
    def defined(self) -> tuple[str, ...]:
        """The metrics with a value, best first: those a figure of the ranking draws."""
        return tuple(ranked.name for ranked in self.metrics if ranked.value is not None)

    def p_values_of(self, metric: str, significance: float = 0.05) -> list[PairwiseP]:
        """``metric`` against every other metric, in the ranking's order, with the p-value of
        the test between the two (``p_values`` holds each pair once, the higher one first)."""
        names = [ranked.name for ranked in self.metrics]
        tested = {ranked.name for ranked in self.metrics if ranked.value is not None}
        i = names.index(metric)
        found = []
        for j, other in enumerate(names):
            if j == i:
                continue
            high, low = min(i, j), max(i, j)
            p = float(self.p_values[high, low]) if {metric, other} <= tested else None
            significant = p is not None and p <= significance
            found.append(PairwiseP(metric, other, names[high], p, significant))
        return found


def permutation_test(
    metric_a: np.ndarray,
    metric_b: np.ndarray,
    human: np.ndarray,
    statistic: Callable[[np.ndarray], np.ndarray],
    rng: np.random.Generator,
    params: PermutationParams = PermutationParams(),
) -> PermutationResult:
    """PermutationSigDiff(a, b): ``statistic`` maps a batch of metric matrices (k, S, N) to k
    values (see ``statistic_function``)."""
    cells = np.isfinite(human) & np.isfinite(metric_a) & np.isfinite(metric_b)
    z_a, z_b = _z_scores(metric_a, cells), _z_scores(metric_b, cells)
    observed = np.nan_to_num(statistic(np.stack([z_b, z_a])))
    delta = float(observed[0] - observed[1])
    draws = []
    reached, done = 0, 0
    while done < params.n_permutations:
        block = min(params.block_size, params.n_permutations - done)
        swap = rng.random((block, *human.shape)) < 0.5
        side_a = np.where(swap, z_b, z_a)
        side_b = np.where(swap, z_a, z_b)
        values = np.nan_to_num(statistic(np.concatenate([side_b, side_a]))).reshape(2, block)
        draws.append(values.T)
        reached += int(np.sum(values[0] - values[1] >= delta))
        done += block
        if not params.early_min <= reached / done <= params.early_max:
            break
    return PermutationResult(reached / done, delta, done, np.concatenate(draws))


def _z_scores(metric: np.ndarray, cells: np.ndarray) -> np.ndarray:
    """The scores minus their mean over the scored cells, over their standard deviation there
    (ddof 0, scipy.stats.zscore's); NaN elsewhere."""
    scored = metric[cells]
    with np.errstate(invalid="ignore", divide="ignore"):  # constant scores: NaN, as scipy's
        return np.where(cells, (metric - scored.mean()) / scored.std(), np.nan)


def statistic_function(
    statistic: str,
    grouping: str,
    human: np.ndarray,
    params: SegmentLevelParams = DEFAULT_SEGMENT_PARAMS,
) -> Callable[[np.ndarray], np.ndarray]:
    """The statistic of a batch of metric matrices against ``human`` (``batched_statistic``)."""
    return lambda metrics: batched_statistic(statistic, grouping, metrics, human, params)


def pairwise_permutation_test(
    metric_a: np.ndarray,
    metric_b: np.ndarray,
    human: np.ndarray,
    grouping: str,
    rng: np.random.Generator,
    params: PermutationParams = PermutationParams(),
) -> PermutationResult:
    """PairwisePermutationSigDiff(a, b) for acc_eq: every pair of scored cells is right or wrong
    for each metric at its own calibrated threshold; a permutation swaps the two outcomes of a
    random half of the pairs. Pairs are enumerated within groups, as for the calibration."""
    cells = np.isfinite(human) & np.isfinite(metric_a) & np.isfinite(metric_b)
    (outcomes_a, weight), (outcomes_b, _) = (
        acc_eq_outcomes(metric, human, cells, grouping) for metric in (metric_a, metric_b)
    )
    return outcome_permutation_test(outcomes_a, outcomes_b, PairWeights(weight), rng, params)


def acc_eq_outcomes(
    metric: np.ndarray, human: np.ndarray, cells: np.ndarray, grouping: str
) -> tuple[np.ndarray, np.ndarray]:
    """Whether each pair of ``cells`` (enumerated within groups) is right for ``metric`` at its
    own calibrated tie threshold (booleans: millions of pairs without grouping), and each pair's
    weight: 1 / (pairs in its group x groups). The same cells give the same pairs in the same
    order for every metric."""
    human = np.where(cells, human, np.nan)
    threshold = tie_calibration(metric, human, grouping).threshold
    if threshold is None:
        raise ValueError("acc_eq is undefined: no group has two scored cells")
    right, pair_weights = [], []
    for group_pairs, dx, dy in scored_pairs(metric, human, cells, grouping):
        concordant = ((dx > 0) & (dy > 0)) | ((dx < 0) & (dy < 0))
        right.append(np.where(np.abs(dx) <= threshold, dy == 0, concordant).ravel())
        pair_weights.append(np.broadcast_to(1.0 / group_pairs, dx.shape).ravel())
    weight = np.concatenate(pair_weights) / _groups_with_pairs(cells, grouping)
    return np.concatenate(right), weight


class PairWeights:
    """The pairs' weights as the few values they take (one per group size) and each pair's."""

    def __init__(self, weight: np.ndarray) -> None:
        self.weight = weight
        self.values, self.of_pair = np.unique(weight, return_inverse=True)

    def moving(self, change: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The amounts pairs move (weight x change in {-1, 0, 1}) and how many pairs move each."""
        n = len(self.values)
        up = np.bincount(self.of_pair[change > 0], minlength=n)
        down = np.bincount(self.of_pair[change < 0], minlength=n)
        amounts, counts = np.concatenate([self.values, -self.values]), np.concatenate([up, down])
        return amounts[counts > 0], counts[counts > 0]


def outcome_permutation_test(
    outcomes_a: np.ndarray,
    outcomes_b: np.ndarray,
    weights: PairWeights,
    rng: np.random.Generator,
    params: PermutationParams = PermutationParams(),
) -> PermutationResult:
    """The permutation test of ``pairwise_permutation_test`` on the two metrics' outcomes."""
    accuracy_a = float(weights.weight[outcomes_a].sum())
    accuracy_b = float(weights.weight[outcomes_b].sum())
    delta = accuracy_b - accuracy_a
    # a swap moves weight x (a - b) from b's side to a's. Pairs that move the same amount are
    # interchangeable: the number of them a permutation swaps is Binomial(count, 1/2), the same
    # distribution as a coin per pair (and pairs that move nothing need no coin), at a cost
    # independent of the number of pairs.
    change = outcomes_a.view(np.int8) - outcomes_b.view(np.int8)
    amounts, counts = weights.moving(change)
    draws = []
    reached, done = 0, 0
    while done < params.n_permutations:
        block = min(params.block_size, params.n_permutations - done)
        moved = rng.binomial(counts, 0.5, size=(block, len(counts))) @ amounts
        side_b, side_a = accuracy_b + moved, accuracy_a - moved
        draws.append(np.column_stack([side_b, side_a]))
        reached += int(np.sum(side_b - side_a >= delta))
        done += block
        if not params.early_min <= reached / done <= params.early_max:
            break
    return PermutationResult(reached / done, delta, done, np.concatenate(draws))


def _groups_with_pairs(cells: np.ndarray, grouping: str) -> int:
    sizes = {"item": cells.sum(0), "system": cells.sum(1), "none": np.array([cells.sum()])}
    return int((sizes[grouping] >= 2).sum())


def assign_ranks(p_values: np.ndarray, significance: float = 0.05) -> list[int]:
    """mt-metrics-eval's AssignRanks: metrics ordered best first; ``p_values[i, j]`` (i < j) is
    the p-value that metric j is at least as good as metric i. Metric j starts a new rank when
    some metric from the current rank's first one up to j - 1 is significantly better."""
    ranks, current, start = [], 1, 0
    for j in range(len(p_values)):
        if np.any(p_values[start:j, j] <= significance):
            current += 1
            start = j
        ranks.append(current)
    return ranks


def rank_metrics(
    metrics: Mapping[str, np.ndarray],
    human: np.ndarray,
    statistic: str,
    grouping: str,
    rng: np.random.Generator,
    params: PermutationParams = PermutationParams(),
    segment_params: SegmentLevelParams = DEFAULT_SEGMENT_PARAMS,
    result: SegmentLevelResult | None = None,
) -> MetricRanking:
    """Metrics ordered by ``statistic`` under ``grouping`` (ignored for the system-level "spa"
    and "pairwise_accuracy"), with their significance clusters and, from ``result`` (the same
    metrics' ``segment_level_statistics``), their intervals. A metric whose statistic is
    undefined comes last, untested and unranked, with the reason."""
    human = np.asarray(human, dtype=np.float64)
    estimates = {
        name: _estimate(statistic, grouping, scores, human, segment_params)
        for name, scores in metrics.items()
    }
    values = {name: estimate.value for name, estimate in estimates.items()}
    order = sorted(metrics, key=lambda name: (values[name] is None, -(values[name] or 0), name))
    tested = [name for name in order if values[name] is not None]  # they come first in order
    p_values = np.ones((len(order), len(order)))
    test = _pair_test(metrics, human, statistic, grouping, params, segment_params)
    for i, better in enumerate(tested):
        for j in range(i + 1, len(tested)):
            p_values[i, j] = test(tested[j], better, rng).p_value
    ranks = assign_ranks(p_values[: len(tested), : len(tested)], params.significance)
    ranks += [None] * (len(order) - len(tested))
    return MetricRanking(
        statistic=statistic,
        grouping=grouping,
        metrics=tuple(
            RankedMetric(
                name,
                values[name],
                rank,
                _interval(result, name, statistic, grouping),
                estimates[name].undefined,
            )
            for name, rank in zip(order, ranks)
        ),
        p_values=p_values,
        n_permutations=params.n_permutations,
    )


def _pair_test(
    metrics: Mapping[str, np.ndarray],
    human: np.ndarray,
    statistic: str,
    grouping: str,
    params: PermutationParams,
    segment_params: SegmentLevelParams,
) -> Callable[[str, str, np.random.Generator], PermutationResult]:
    """The permutation test of ``statistic`` between two named metrics (worse, better). For
    acc_eq, each metric's pair outcomes are computed once, not once per pair of metrics, when
    every metric scores the same cells (a metric read from a file may score fewer)."""
    if statistic != "acc_eq":
        function = statistic_function(statistic, grouping, human, segment_params)
        return lambda a, b, rng: permutation_test(
            metrics[a], metrics[b], human, function, rng, params
        )
    scored = [np.isfinite(human) & np.isfinite(m) for m in metrics.values()]
    if not all(np.array_equal(scored[0], cells) for cells in scored):
        return lambda a, b, rng: pairwise_permutation_test(
            metrics[a], metrics[b], human, grouping, rng, params
        )
    outcomes: dict[str, np.ndarray] = {}
    weights: list[PairWeights] = []

    def of(name: str) -> np.ndarray:
        if name not in outcomes:
            outcomes[name], weight = acc_eq_outcomes(metrics[name], human, scored[0], grouping)
            if not weights:
                weights.append(PairWeights(weight))
        return outcomes[name]

    return lambda a, b, rng: outcome_permutation_test(of(a), of(b), weights[0], rng, params)


def _estimate(
    statistic: str, grouping: str, metric: np.ndarray, human: np.ndarray, params: SegmentLevelParams
) -> Estimate:
    """The statistic of ``metric`` against ``human`` on all segments, or None with the reason."""
    if statistic in ("spa", "pairwise_accuracy"):
        return system_level_estimate(statistic, metric, human, params)
    ones = np.ones((1, human.shape[1]))
    return getattr(grouped_statistics(metric, human, grouping, ones, params), statistic)


def _interval(
    result: SegmentLevelResult | None, name: str, statistic: str, grouping: str
) -> tuple[float, float] | None:
    if result is None:
        return None
    metric = result.metric(name)
    if statistic == "spa":
        return metric.soft_pairwise_accuracy.interval
    if statistic == "pairwise_accuracy":
        return metric.pairwise_accuracy.interval
    return getattr(metric.grouping(grouping), statistic).interval
