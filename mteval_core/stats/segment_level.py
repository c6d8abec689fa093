"""Segment-level agreement between a metric and people, as mt-metrics-eval computes it.

Inputs are two (n_systems, n_segments) matrices, metric scores and human scores, both "higher is
better" (negate MQM error points and TER before calling); NaN marks a cell without a score. A cell
counts where both are finite: mt-metrics-eval leaves out cells without a gold score, and its tie
calibration also cells without a metric score.

Groupings (mt-metrics-eval's ``average_by``): ``none`` flattens all cells into one pair of vectors;
``item`` correlates across systems within each segment and averages over segments; ``system``
correlates across segments within each system and averages over systems. A group with fewer than
two cells is left out; a correlation that is undefined in a group (constant metric or human scores)
is left out of the average (mt-metrics-eval's default, ``replace_nans_with_zeros=False``). WMT's
Kendall-like is micro-averaged instead: its concordant minus discordant pairs and its pairs are
summed over groups before dividing. Where mt-metrics-eval returns 0 because no group has a value,
the value here is None with the reason (see ``stats.undefined``).

Statistics: Pearson, Spearman, Kendall's tau-b and tau-c (as scipy computes them), WMT's
Kendall-like (a pair counts when the human scores differ by at least a threshold; a metric tie is
discordant), pairwise accuracy with ties, acc23 (Deutsch et al. 2023: a pair is right when the
metric orders it as people do, or when both tie; the metric ties when its scores differ by at most
epsilon), and acc_eq, acc23 at the epsilon that maximises it (``tie_calibration``). At system level:
soft pairwise accuracy (Thompson et al. 2024; ``soft_pairwise_accuracy``), and pairwise accuracy
in which a pair people tie is right only if the metric ties it too (mt-metrics-eval's Agreement).

Intervals: segments are resampled with replacement (one seeded count matrix for every metric and
the constant baseline), and every statistic is recomputed on the resampled data exactly, as on a
test set in which a segment drawn k times occurs k times. Sums over pairs of cells are quadratic
forms in the counts, so all resamples together cost a few matrix products rather than a re-sort
each: in the item grouping a segment is a group, which a resample weighs; the system and none
groupings' sums are in ``pairs``. acc_eq keeps the epsilon calibrated on all segments in
every resample, as mt-metrics-eval's pairwise permutation test does, rather than re-calibrating
per resample (calibrated once per metric and grouping; ``segment_calibration`` counts the pairs of
the larger groupings instead of sorting them).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from mteval_core.stats.bootstrap import percentile_interval, resample_counts
from mteval_core.stats.correlation import MIN_SYSTEMS
from mteval_core.stats.pairs import Weights, as_weights, grouped_values
from mteval_core.stats.system_agreement import (
    SPA_SEED,
    complete_columns,
    pairwise_p_values,
    permutation_signs,
    resampled_system_agreement,
    soft_pairwise_accuracy,
    spa_from_p_values,
    why_no_spa,
)
from mteval_core.stats.tie_calibration import TieCalibration, tie_calibration
from mteval_core.stats.undefined import NO_DEFINED_RESAMPLE, UNDEFINED

GROUPINGS = ("none", "item", "system")
CORRELATIONS = ("pearson", "spearman", "kendall_b", "kendall_c", "kendall_like")
ACCURACIES = ("acc23", "acc_eq")
WMT_KENDALL_LIKE_THRESHOLD = 25.0  # WMT20's, for DA scores on 0-100; mt-metrics-eval's default
# Pairwise accuracy with ties needs MIN_SYSTEMS (3) rated systems, as the system-level pairwise
# accuracy does: over one pair it is 0 or 1. SPA needs two (``why_no_spa``): a single pair gives
# 1 - |p_human - p_metric|, a value, as mt-metrics-eval computes it.
TOO_FEW_RATED_SYSTEMS = f"fewer than {MIN_SYSTEMS} systems with human scores"
SYSTEM_WITHOUT_SCORES = "a system has no scored segment"


@dataclass(frozen=True)
class SegmentLevelParams:
    """What to compute and how; the defaults are mt-metrics-eval's."""

    groupings: tuple[str, ...] = GROUPINGS
    kendall_like_threshold: float = WMT_KENDALL_LIKE_THRESHOLD
    epsilon: float = 0.0  # acc23's metric tie threshold
    n_resamples: int = 1000  # 0: no intervals
    confidence: float = 0.95
    spa_permutations: int = 1000
    spa_seed: int = SPA_SEED

    def __post_init__(self) -> None:
        unknown = set(self.groupings) - set(GROUPINGS)
        if unknown or not self.groupings:
            raise ValueError(f"groupings must be some of {GROUPINGS}, got {self.groupings}")
        if not self.epsilon >= 0:
            raise ValueError(f"epsilon must be at least 0, got {self.epsilon}")
        if self.n_resamples < 0 or self.spa_permutations < 1:
            raise ValueError("n_resamples must be at least 0 and spa_permutations at least 1")
        if not 0 < self.confidence < 1:
            raise ValueError(f"confidence must be between 0 and 1, got {self.confidence}")


@dataclass(frozen=True)
class Estimate:
    """One statistic: its value and percentile interval, each None with the reason when
    undefined."""

    value: float | None
    interval: tuple[float, float] | None = None
    undefined: str | None = None  # why value is None
    interval_undefined: str | None = None  # why interval is None


@dataclass(frozen=True)
class GroupedStatistics:
    """Every segment-level statistic of one metric under one grouping."""

    grouping: str
    n_groups: int  # groups with at least two cells
    pearson: Estimate
    spearman: Estimate
    kendall_b: Estimate
    kendall_c: Estimate
    kendall_like: Estimate
    acc23: Estimate
    acc_eq: Estimate
    acc_eq_threshold: float | None  # the calibrated epsilon

    def estimates(self) -> dict[str, Estimate]:
        return {name: getattr(self, name) for name in (*CORRELATIONS, *ACCURACIES)}


@dataclass(frozen=True)
class MetricStatistics:
    """One metric against people: every grouping, and the two system-level accuracies."""

    name: str
    groupings: tuple[GroupedStatistics, ...]
    soft_pairwise_accuracy: Estimate
    pairwise_accuracy: Estimate  # system level; pairs people tie count

    def grouping(self, name: str) -> GroupedStatistics:
        return next(group for group in self.groupings if group.grouping == name)


@dataclass(frozen=True)
class SegmentLevelResult:
    """All metrics on the same segments and resamples, and a constant metric as the baseline."""

    params: SegmentLevelParams
    n_systems: int
    n_segments: int
    n_cells: int  # cells with both a metric and a human score
    metrics: tuple[MetricStatistics, ...]
    constant_baseline: MetricStatistics

    def metric(self, name: str) -> MetricStatistics:
        return next(metric for metric in self.metrics if metric.name == name)

    def to_dict(self) -> dict:
        """JSON-ready: {"metrics": {metric: {"groupings": {grouping: {"n_groups",
        "acc_eq_threshold", "pearson": r, "pearson_ci": [lo, hi], ..., "undefined": {...}}},
        "system_level": {"spa", "spa_ci", "pairwise_accuracy", ..., "undefined"}}}}, the baseline
        under "constant"; None where undefined (with the reason), never NaN."""
        return {
            "n_systems": self.n_systems,
            "n_segments": self.n_segments,
            "n_cells": self.n_cells,
            "metrics": {m.name: _metric_dict(m) for m in self.metrics},
            "constant": _metric_dict(self.constant_baseline),
        }


def _metric_dict(metric: MetricStatistics) -> dict:
    result: dict = {}
    for group in metric.groupings:
        result[group.grouping] = {
            "n_groups": group.n_groups,
            "acc_eq_threshold": group.acc_eq_threshold,
            **_estimates_dict(group.estimates()),
        }
    system = {"spa": metric.soft_pairwise_accuracy, "pairwise_accuracy": metric.pairwise_accuracy}
    return {"groupings": result, "system_level": _estimates_dict(system)}


def _estimates_dict(estimates: Mapping[str, Estimate]) -> dict:
    result: dict = {}
    undefined: dict[str, str] = {}
    for name, estimate in estimates.items():
        result[name] = estimate.value
        result[f"{name}_ci"] = None if estimate.interval is None else list(estimate.interval)
        if estimate.undefined:
            undefined[name] = estimate.undefined
        if estimate.interval_undefined:
            undefined[f"{name}_ci"] = estimate.interval_undefined
    return {**result, UNDEFINED: undefined}


# ---------------------------------------------------------------------- the entry point
def segment_level_statistics(
    metrics: Mapping[str, np.ndarray],
    human: np.ndarray,
    rng: np.random.Generator,
    params: SegmentLevelParams = SegmentLevelParams(),
) -> SegmentLevelResult:
    """Every statistic of every metric under every grouping, with intervals from one set of
    segment resamples drawn from ``rng``, and the same for a constant metric (the baseline).

    ``metrics`` maps names to (n_systems, n_segments) score matrices and ``human`` is the matrix of
    human scores, all higher-is-better, NaN where there is no score."""
    human = np.asarray(human, dtype=np.float64)
    if human.ndim != 2:
        raise ValueError(f"human scores must be a (systems, segments) matrix, got {human.shape}")
    matrices = {name: np.asarray(scores, dtype=np.float64) for name, scores in metrics.items()}
    for name, scores in matrices.items():
        if scores.shape != human.shape:
            raise ValueError(f"{name}: scores of shape {scores.shape}, human {human.shape}")
    rows = np.ones((1, human.shape[1]))
    if params.n_resamples:
        counts = resample_counts(human.shape[1], params.n_resamples, rng)
        rows = np.vstack([rows, counts])
    weights = Weights(rows)  # shared by every metric: products of the weights are computed once
    signs = permutation_signs(
        int(complete_columns(human).sum()),
        params.spa_permutations,
        np.random.default_rng(params.spa_seed),
    )
    constant = np.where(np.isfinite(human), 0.0, np.nan)
    return SegmentLevelResult(
        params=params,
        n_systems=human.shape[0],
        n_segments=human.shape[1],
        n_cells=int(np.isfinite(human).sum()),
        metrics=tuple(
            metric_statistics(name, scores, human, weights, signs, params)
            for name, scores in matrices.items()
        ),
        constant_baseline=metric_statistics("constant", constant, human, weights, signs, params),
    )


def metric_statistics(
    name: str,
    metric: np.ndarray,
    human: np.ndarray,
    weights: np.ndarray | Weights,
    signs: np.ndarray,
    params: SegmentLevelParams = SegmentLevelParams(),
) -> MetricStatistics:
    """One metric: every grouping of ``params``, SPA with the permutation ``signs``, and system
    pairwise accuracy. ``weights`` is (1 + n_resamples, n_segments): how often each segment
    occurs, in the data (a row of ones) and then in each resample."""
    weights = as_weights(weights)
    groupings = tuple(
        grouped_statistics(metric, human, grouping, weights, params)
        for grouping in params.groupings
    )
    spa = soft_pairwise_accuracy(metric, human, signs)
    spa_estimate = Estimate(
        spa,
        undefined=None if spa is not None else why_no_spa(human),
        interval_undefined="not resampled: SPA is itself a permutation test",
    )
    accuracy = Estimate(
        None, undefined=TOO_FEW_RATED_SYSTEMS, interval_undefined=TOO_FEW_RATED_SYSTEMS
    )
    if _rated_systems(human) >= MIN_SYSTEMS:
        accuracy = _estimate(
            resampled_system_agreement(metric, human, weights.matrix),
            SYSTEM_WITHOUT_SCORES,
            params.confidence,
        )
    return MetricStatistics(name, groupings, spa_estimate, accuracy)


def system_level_estimate(
    statistic: str,
    metric: np.ndarray,
    human: np.ndarray,
    params: SegmentLevelParams = SegmentLevelParams(),
) -> Estimate:
    """SPA ("spa") or pairwise accuracy with ties ("pairwise_accuracy") of ``metric`` on all
    segments, as ``metric_statistics`` computes them but without resamples: a value, or None with
    the reason."""
    if statistic == "spa":
        signs = permutation_signs(
            int(complete_columns(human).sum()),
            params.spa_permutations,
            np.random.default_rng(params.spa_seed),
        )
        spa = soft_pairwise_accuracy(metric, human, signs)
        return Estimate(spa, undefined=None if spa is not None else why_no_spa(human))
    if _rated_systems(human) < MIN_SYSTEMS:
        return Estimate(
            None, undefined=TOO_FEW_RATED_SYSTEMS, interval_undefined=TOO_FEW_RATED_SYSTEMS
        )
    ones = np.ones((1, human.shape[1]))
    agreement = resampled_system_agreement(metric, human, ones)
    return _estimate(agreement, SYSTEM_WITHOUT_SCORES, params.confidence)


def _rated_systems(human: np.ndarray) -> int:
    return int(np.isfinite(human).any(axis=1).sum())


# ---------------------------------------------------------------------- one grouping
@dataclass(frozen=True)
class _GroupValues:
    """Per group (columns) and per data row (observed, then resamples): every statistic before
    averaging over groups, NaN where it is undefined in a group; and why, for the observed data."""

    macro: dict[str, np.ndarray]  # statistic -> (rows, groups)
    like: np.ndarray  # (rows, groups): Kendall-like concordant minus discordant pairs
    like_pairs: np.ndarray  # (rows, groups): pairs people separate by the threshold
    sized: np.ndarray  # (groups,): at least two cells
    constant_metric: np.ndarray  # (groups,)
    constant_human: np.ndarray  # (groups,)


def grouped_statistics(
    metric: np.ndarray,
    human: np.ndarray,
    grouping: str,
    weights: np.ndarray | Weights,
    params: SegmentLevelParams = SegmentLevelParams(),
) -> GroupedStatistics:
    """All statistics of one grouping; ``weights`` as in ``metric_statistics``."""
    values, group_weights, calibration = _calibrated_values(
        metric, human, grouping, weights, params
    )
    estimates = {
        name: _estimate(rows, _why_undefined(name, values, params), params.confidence)
        for name, rows in _averages(values, group_weights).items()
    }
    if calibration.threshold is None:
        estimates["acc_eq"] = Estimate(
            None, undefined=calibration.undefined, interval_undefined=calibration.undefined
        )
    return GroupedStatistics(
        grouping=grouping,
        n_groups=int(values.sized.sum()),
        acc_eq_threshold=calibration.threshold,
        **estimates,
    )


def resampled_statistics(
    metric: np.ndarray,
    human: np.ndarray,
    grouping: str,
    weights: np.ndarray | Weights,
    params: SegmentLevelParams = SegmentLevelParams(),
) -> dict[str, np.ndarray]:
    """Every statistic of one grouping per row of ``weights`` (the data, then each resample),
    NaN where undefined: what the intervals are made of, and what a paired comparison of two
    metrics on the same resamples needs."""
    values, group_weights, _ = _calibrated_values(metric, human, grouping, weights, params)
    return _averages(values, group_weights)


def _calibrated_values(
    metric: np.ndarray,
    human: np.ndarray,
    grouping: str,
    weights: np.ndarray | Weights,
    params: SegmentLevelParams,
) -> tuple[_GroupValues, np.ndarray, TieCalibration]:
    """Per-group values with acc_eq at the threshold calibrated on the data (row 0)."""
    calibration = tie_calibration(metric, human, grouping)
    calibrated = calibration.threshold if calibration.threshold is not None else params.epsilon
    epsilons = (params.epsilon, calibrated)
    return (*_values(metric, human, grouping, weights, epsilons, params), calibration)


def batched_statistic(
    statistic: str,
    grouping: str,
    metrics: np.ndarray,
    human: np.ndarray,
    params: SegmentLevelParams = SegmentLevelParams(),
) -> np.ndarray:
    """One statistic of each of a batch of (n_systems, n_segments) metric matrices (k, S, N)
    against the same human scores, NaN where undefined: what a permutation test evaluates
    thousands of times. SPA and system pairwise accuracy take any grouping; acc_eq is not
    supported (its permutation test swaps pair outcomes, see ``stats.ranking``).

    The item grouping stacks the batch's segments into one computation, and Pearson and Spearman
    are vectorised for every grouping; the Kendall family and acc23 under the none and system
    groupings are computed one matrix at a time (a sort or pair sums per matrix)."""
    metrics = np.asarray(metrics, dtype=np.float64)
    human = np.asarray(human, dtype=np.float64)
    n_batch, _, n_segments = metrics.shape
    if statistic == "spa":
        columns = complete_columns(human)
        signs = permutation_signs(
            int(columns.sum()), params.spa_permutations, np.random.default_rng(params.spa_seed)
        )
        p_human = pairwise_p_values(human[:, columns], signs)
        return np.array([spa_from_p_values(m[:, columns], p_human, signs) for m in metrics])
    if statistic == "pairwise_accuracy":
        ones = np.ones((1, n_segments))
        return np.array([resampled_system_agreement(m, human, ones)[0] for m in metrics])
    if statistic not in BATCHED_STATISTICS:
        raise ValueError(f"no batched {statistic!r}: choose from {BATCHED_STATISTICS}")
    epsilons = (params.epsilon, params.epsilon)
    if grouping == "item":  # every segment of every matrix is a group of its own
        chunks = np.array_split(metrics, -(-n_batch // ITEM_BATCH))
        return np.concatenate(
            [_stacked_items(statistic, chunk, human, epsilons, params) for chunk in chunks]
        )
    if statistic in ("pearson", "spearman"):
        cells = np.isfinite(metrics) & np.isfinite(human)
        x, y = np.where(cells, metrics, 0.0), np.where(cells, human, 0.0)
        w = cells.astype(np.float64)
        if grouping == "none":
            x, y, w = (a.reshape(n_batch, 1, -1) for a in (x, y, w))
        if statistic == "spearman":
            (x, x_distinct, _), (y, y_distinct, _) = _ties(x, w), _ties(y, w)
            undefined = (x_distinct < 2) | (y_distinct < 2)
        else:
            undefined = _constant(x, w) | _constant(y, w)
        return _macro_average(_weighted_pearson(x, y, w, undefined), np.ones((1, 1)))
    ones = np.ones((1, n_segments))
    return np.array(
        [
            _averages(_values(m, human, grouping, ones, epsilons, params)[0], np.ones((1, 1)))[
                statistic
            ][0]
            for m in metrics
        ]
    )


BATCHED_STATISTICS = (*CORRELATIONS, "acc23", "spa", "pairwise_accuracy")
ITEM_BATCH = 64  # matrices per stacked item computation: about 50 MB for 13 systems, 529 segments


def _stacked_items(
    statistic: str,
    metrics: np.ndarray,
    human: np.ndarray,
    epsilons: tuple[float, float],
    params: SegmentLevelParams,
) -> np.ndarray:
    """The item grouping of a batch: all segments of all matrices in one computation."""
    n_batch, n_systems, n_segments = metrics.shape
    stacked = metrics.transpose(1, 0, 2).reshape(n_systems, n_batch * n_segments)
    values, _ = _values(stacked, np.tile(human, n_batch), "item", np.ones((1, 1)), epsilons, params)
    per_matrix = _GroupValues(
        macro={name: rows.reshape(n_batch, n_segments) for name, rows in values.macro.items()},
        like=values.like.reshape(n_batch, n_segments),
        like_pairs=values.like_pairs.reshape(n_batch, n_segments),
        sized=values.sized,
        constant_metric=values.constant_metric,
        constant_human=values.constant_human,
    )
    return _averages(per_matrix, np.ones((1, 1)))[statistic]


def _none_to_nan(value: float | None) -> float:
    return np.nan if value is None else value


def _values(
    metric: np.ndarray,
    human: np.ndarray,
    grouping: str,
    weights: np.ndarray | Weights,
    epsilons: tuple[float, float],
    params: SegmentLevelParams,
) -> tuple[_GroupValues, np.ndarray]:
    """Per-group values of every statistic, and the weight of each group in each data row."""
    threshold = params.kendall_like_threshold
    weights = as_weights(weights)
    if grouping == "item":  # a segment drawn k times is k groups
        cells = np.isfinite(metric) & np.isfinite(human)
        x = np.where(cells, metric, 0.0)
        y = np.where(cells, human, 0.0)
        return _item_values(x.T, y.T, cells.T, epsilons, threshold), weights.matrix
    values = grouped_values(metric, human, grouping, weights, epsilons, threshold)
    return _as_group_values(values), np.ones((1, 1))


def _averages(values: _GroupValues, group_weights: np.ndarray) -> dict[str, np.ndarray]:
    """Per data row, every statistic averaged over groups: a macro average of the groups where
    it is defined, and for Kendall-like the ratio of the summed counts."""
    names = list(values.macro)
    if len(group_weights) > 1 and all(len(values.macro[name]) == 1 for name in names):
        # the item grouping: one value per segment, the rows only weigh them: products
        stacked = np.vstack([values.macro[name] for name in names]).T  # (groups, statistics)
        defined = np.isfinite(stacked)
        totals = group_weights @ np.where(defined, stacked, 0.0)
        counts = group_weights @ defined.astype(np.float64)
        counts_like = group_weights @ np.vstack([values.like[0], values.like_pairs[0]]).T
        with np.errstate(invalid="ignore", divide="ignore"):
            averages = dict(zip(names, (totals / counts).T))
            like = counts_like[:, 0] / counts_like[:, 1]
        return {**averages, "kendall_like": like}
    averages = {name: _macro_average(rows, group_weights) for name, rows in values.macro.items()}
    with np.errstate(invalid="ignore", divide="ignore"):
        like = (group_weights * values.like).sum(-1) / (group_weights * values.like_pairs).sum(-1)
    return {**averages, "kendall_like": like}


def _macro_average(values: np.ndarray, group_weights: np.ndarray) -> np.ndarray:
    """Per row, the weighted mean over the groups where the statistic is defined (NaN if none)."""
    defined = np.isfinite(values)
    weights = np.broadcast_to(group_weights, np.broadcast_shapes(values.shape, group_weights.shape))
    with np.errstate(invalid="ignore", divide="ignore"):
        total = (weights * np.where(defined, values, 0.0)).sum(-1)
        return total / (weights * defined).sum(-1)


def _estimate(rows: np.ndarray, reason: str | None, confidence: float) -> Estimate:
    """The observed value (row 0) and the percentile interval of the resamples (rows 1...)."""
    value = float(rows[0]) if np.isfinite(rows[0]) else None
    if value is None:
        reason = reason or "undefined"
        return Estimate(None, undefined=reason, interval_undefined=reason)
    if len(rows) == 1:
        return Estimate(value)
    interval = percentile_interval(rows[1:], confidence)
    return Estimate(value, interval, interval_undefined=None if interval else NO_DEFINED_RESAMPLE)


def _why_undefined(name: str, values: _GroupValues, params: SegmentLevelParams) -> str:
    if not values.sized.any():
        return "no group has two scored cells"
    if name == "kendall_like":
        threshold = f"{params.kendall_like_threshold:g}"
        return f"no two human scores in a group differ by at least {threshold}"
    metric = values.constant_metric[values.sized]
    human = values.constant_human[values.sized]
    where = "in every group" if len(metric) > 1 else ""
    if metric.all():
        return f"constant metric scores {where}".strip()
    if human.all():
        return f"constant human scores {where}".strip()
    return f"constant metric or human scores {where}".strip()


def _pair_kernels(
    dx: np.ndarray, dy: np.ndarray, threshold: float, epsilons: tuple[float, float]
) -> dict[str, np.ndarray]:
    """What a pair of cells adds to each sum over pairs (int8), from its metric and human
    differences. (Tied pairs are counted from sorted runs instead, see ``_ties``.)"""
    metric_up, metric_down = dx > 0, dx < 0
    human_up, human_down = dy > 0, dy < 0
    concordant = (metric_up & human_up) | (metric_down & human_down)
    discordant = (metric_up & human_down) | (metric_down & human_up)
    human_ties = ~(human_up | human_down)
    separated = np.abs(dy) >= threshold  # WMT's Kendall-like counts these pairs only, ...
    distance = np.abs(dx)
    epsilon, calibrated = epsilons
    return {
        "agree": concordant.view(np.int8) - discordant.view(np.int8),
        "like": separated.view(np.int8) * np.where(concordant, 1, -1).astype(np.int8),  # ...
        "like_pairs": separated.view(np.int8),  # ... and a metric tie is discordant
        # acc23: right when the metric orders the pair as people do, or when both tie
        "correct": np.where(distance <= epsilon, human_ties, concordant).view(np.int8),
        "correct_eq": np.where(distance <= calibrated, human_ties, concordant).view(np.int8),
    }


def _group_values(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, sums: Mapping[str, np.ndarray]
) -> dict[str, np.ndarray]:
    """Every statistic of groups of cells (along the last axis), each cell occurring w times
    (0 for a cell without scores), from the cells and their sums over pairs."""
    size = w.sum(-1)
    pairs = size * (size - 1) / 2
    x_ranks, x_distinct, x_ties = _ties(x, w)
    y_ranks, y_distinct, y_ties = _ties(y, w)
    constant = (x_distinct < 2) | (y_distinct < 2)  # also: fewer than two cells
    classes = np.minimum(x_distinct, y_distinct)
    with np.errstate(invalid="ignore", divide="ignore"):
        # as scipy.stats.kendalltau computes them
        tau_b = sums["agree"] / np.sqrt(pairs - x_ties) / np.sqrt(pairs - y_ties)
        tau_c = 2 * sums["agree"] / (size**2 * (classes - 1) / classes)
        acc23 = sums["correct"] / pairs
        acc_eq = sums["correct_eq"] / pairs
    return {
        "pearson": _weighted_pearson(x, y, w, constant),
        "spearman": _weighted_pearson(x_ranks, y_ranks, w, constant),
        "kendall_b": np.where(constant, np.nan, tau_b),
        "kendall_c": np.where(constant, np.nan, tau_c),
        "acc23": np.where(size >= 2, acc23, np.nan),
        "acc_eq": np.where(size >= 2, acc_eq, np.nan),
        "like": sums["like"],
        "like_pairs": sums["like_pairs"],
        "sized": size >= 2,
        "constant_metric": x_distinct < 2,
        "constant_human": y_distinct < 2,
    }


def _as_group_values(values: Mapping[str, np.ndarray]) -> _GroupValues:
    """From per-statistic (rows, groups) arrays; the reasons come from row 0, the data."""
    macro = ("pearson", "spearman", "kendall_b", "kendall_c", "acc23", "acc_eq")
    return _GroupValues(
        macro={name: values[name] for name in macro},
        like=values["like"],
        like_pairs=values["like_pairs"],
        sized=values["sized"][0],
        constant_metric=values["constant_metric"][0],
        constant_human=values["constant_human"][0],
    )


# ---------------------------------------------------------------------- item grouping
def _item_values(
    x: np.ndarray,
    y: np.ndarray,
    cells: np.ndarray,
    epsilons: tuple[float, float],
    threshold: float,
) -> _GroupValues:
    """Each segment (a row of the transposed matrices) on its own. Its values do not depend on
    the resample, which only decides how often the segment counts in the average."""
    first, second = np.triu_indices(x.shape[1], k=1)
    both = cells[:, first] & cells[:, second]
    kernels = _pair_kernels(
        x[:, first] - x[:, second], y[:, first] - y[:, second], threshold, epsilons
    )
    sums = {name: (kernel * both).sum(-1) for name, kernel in kernels.items()}
    values = _group_values(x, y, cells.astype(np.float64), sums)
    return _as_group_values({name: column[None] for name, column in values.items()})


# ---------------------------------------------------------------------- weighted building blocks
def _weighted_pearson(
    x: np.ndarray, y: np.ndarray, w: np.ndarray, undefined: np.ndarray
) -> np.ndarray:
    """Pearson's r along the last axis, each cell counted w times; NaN where ``undefined``."""
    n = w.sum(-1)
    if x.shape[-1] == 0:  # a system without scored cells
        return np.full(n.shape, np.nan)
    if x.ndim == 1 and y.ndim == 1:  # the same cells in every row: products of a matrix
        x, y = x - x.mean(), y - y.mean()  # r does not change; the sums stay small
        sx, sy, sxx, syy, sxy = (w @ np.column_stack([x, y, x * x, y * y, x * y])).T
        with np.errstate(invalid="ignore", divide="ignore"):
            covariance, x_variance, y_variance = sxy - sx * sy / n, sxx - sx**2 / n, syy - sy**2 / n
    else:  # two passes, as scipy
        with np.errstate(invalid="ignore", divide="ignore"):
            x = x - (w * x).sum(-1, keepdims=True) / n[..., None]
            y = y - (w * y).sum(-1, keepdims=True) / n[..., None]
        wx = w * x
        covariance = np.einsum("...i,...i->...", wx, y)
        x_variance = np.einsum("...i,...i->...", wx, x)
        y_variance = np.einsum("...i,...i->...", w * y, y)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = covariance / np.sqrt(x_variance * y_variance)
    return np.where(undefined, np.nan, np.clip(r, -1.0, 1.0))


def _constant(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """Whether the cells with weight all have one value (also when there are none)."""
    drawn = w > 0
    low = np.where(drawn, x, np.inf).min(-1)
    return ~(low < np.where(drawn, x, -np.inf).max(-1))


def _ties(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Along the last axis, for the data in which each cell occurs w times: the average rank of
    every cell, the number of distinct values, and the number of pairs with equal values.

    ``x`` is either one row of cells shared by every row of ``w`` (the resamples: sorted once,
    then sums per run of equal values) or one row of cells per row of ``w`` (the items)."""
    if x.ndim == 1:
        if len(x) == 0:  # a system without scored cells
            return np.zeros(w.shape), np.zeros(w.shape[:-1], np.int64), np.zeros(w.shape[:-1])
        order = np.argsort(x, kind="stable")
        starts = np.concatenate([[True], x[order][1:] != x[order][:-1]])
        run_of_cell = np.empty(len(x), np.int64)
        run_of_cell[order] = np.cumsum(starts) - 1
        run = np.add.reduceat(w[..., order], np.flatnonzero(starts), axis=-1)
        ranks = (np.cumsum(run, -1) - run + (run + 1) / 2)[..., run_of_cell]
        return ranks, (run > 0).sum(-1), (run * (run - 1) / 2).sum(-1)
    order = np.argsort(x, axis=-1, kind="stable")
    xs = np.take_along_axis(x, order, -1)
    ws = np.take_along_axis(w, order, -1)
    positions = np.arange(xs.shape[-1])
    starts = np.ones(xs.shape, bool)
    starts[..., 1:] = xs[..., 1:] != xs[..., :-1]
    ends = np.ones(xs.shape, bool)
    ends[..., :-1] = starts[..., 1:]
    first = np.maximum.accumulate(np.where(starts, positions, 0), axis=-1)
    last = np.minimum.accumulate(np.where(ends, positions, len(positions))[..., ::-1], -1)
    through = np.cumsum(ws, -1)
    before = np.take_along_axis(through, first, -1) - np.take_along_axis(ws, first, -1)
    run = np.take_along_axis(through, last[..., ::-1], -1) - before  # at each run position
    ranks = np.empty(ws.shape)
    np.put_along_axis(ranks, order, before + (run + 1) / 2, -1)
    distinct = ((run > 0) & starts).sum(-1)
    tied_pairs = np.where(starts, run * (run - 1) / 2, 0.0).sum(-1)
    return ranks, distinct, tied_pairs
