"""Segment-level meta-evaluation of a scored test set, as `mteval score --segment-level` reports it.

``segment_matrices`` turns scores and segment-level human judgments into what
``stats.segment_level`` takes: one (systems, segments) matrix per metric, every one oriented so
that higher is better (TER and lower-is-better external metrics negated), and the human matrix
of one criterion, over the scored systems (minus those excluded) that people rated. Metrics with
system scores only have no matrix; their reason goes under "undefined".

``segment_correlations`` flattens a ``SegmentLevelResult`` into the command line's JSON contract:
``{metric: {"pearson_none": r, "pearson_none_ci": [lo, hi], ..., "undefined": {key: reason}}}``.
``system_accuracies`` gives the two system-level accuracies that need segment scores (SPA and
pairwise accuracy with human ties), which join the system-level "correlations".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from mteval_core.errors import InputError
from mteval_core.metrics.scoring import Scores
from mteval_core.model.judgment_matrices import criterion_matrix, default_criterion
from mteval_core.model.testset import TestSet
from mteval_core.stats.segment_level import (
    ACCURACIES,
    CORRELATIONS,
    GROUPINGS,
    Estimate,
    MetricStatistics,
    SegmentLevelParams,
    SegmentLevelResult,
    segment_level_statistics,
    system_level_estimate,
)
from mteval_core.stats.undefined import UNDEFINED

if TYPE_CHECKING:
    from mteval_core.stats.ranking import MetricRanking

SYSTEM_ACCURACIES = ("spa", "pairwise_accuracy_with_ties")
NO_SEGMENT_JUDGMENTS = (
    "the human judgments are system-level only: SPA and pairwise accuracy with ties need "
    "segment scores"
)


@dataclass(frozen=True, eq=False)  # it holds arrays
class SegmentMatrices:
    """Metric and human matrices over the same rated systems and all segments."""

    criterion: str
    systems: tuple[str, ...]
    human: np.ndarray  # (systems, segments), NaN where not rated
    metrics: Mapping[str, np.ndarray]  # name -> (systems, segments), higher is better
    negated: tuple[str, ...] = ()  # metrics whose scores were negated (lower was better)
    undefined: Mapping[str, str] = field(default_factory=dict)  # metric -> why it has no matrix

    @property
    def oriented(self) -> str:
        """What the JSON's "oriented" says: which metrics were turned round."""
        turned = ", ".join(self.negated) if self.negated else "no metric"
        return f"higher is better: {turned} negated"


def segment_matrices(
    test_set: TestSet, scores: Scores, criterion: str | None = None, exclude: Sequence[str] = ()
) -> SegmentMatrices:
    """The matrices of every metric with segment scores and of the human ``criterion`` (its
    default when None), over the scored systems, minus ``exclude``, that people rated."""
    judgments = test_set.human
    if judgments is None or not len(judgments.segment_rows):
        raise InputError(
            "segment-level statistics need human judgments of segments, and "
            + ("there are none" if judgments is None else "these judgments are system-level only"),
            origin=judgment_origins(judgments),
            hint="Give a file with a segment column (system, segment_id, score), or leave out "
            "the segment-level options.",
        )
    criterion = criterion or default_criterion(judgments)
    candidates = [s for s in scores.systems if s not in set(exclude)]
    every_row = criterion_matrix(judgments, candidates, test_set.n_segments, criterion)
    rated = np.isfinite(every_row).any(axis=1)
    systems = tuple(s for s, r in zip(candidates, rated) if r)
    if not systems:  # with one or two, each statistic says whether it is defined, and why
        raise InputError(
            f"none of the {len(candidates)} scored systems has segment judgments under "
            f"{criterion!r}",
            origin=judgment_origins(judgments),
            hint="Check the system names in the judgments, and the criterion.",
        )
    without = scores.without_segments()
    metrics, negated = {}, []
    for metric in scores.metrics:
        if metric.name in without:
            continue
        matrix = np.array([_segment_row(scores, metric.name, s) for s in systems])
        if not metric.higher_is_better:
            matrix, negated = -matrix, [*negated, metric.name]
        metrics[metric.name] = matrix
    return SegmentMatrices(criterion, systems, every_row[rated], metrics, tuple(negated), without)


def _segment_row(scores: Scores, metric_name: str, system: str) -> np.ndarray:
    """One system's segment scores; NaN where an external metric scored no segment (not 0)."""
    return np.asarray(scores.segment_scores(system, metric_name), dtype=np.float64)


def judgment_origins(judgments: object) -> str | None:
    """The files the judgments were read from, for a message; None without judgments."""
    if judgments is None:
        return None
    frames = (judgments.segment_rows, judgments.system_rows)  # type: ignore[attr-defined]
    return ", ".join(dict.fromkeys(o for frame in frames for o in frame["origin"])) or None


def segment_statistics(
    matrices: SegmentMatrices, n_resamples: int = 0, seed: int = 0, confidence: float = 0.95
) -> SegmentLevelResult:
    """Every segment-level statistic of every metric, with intervals from ``n_resamples``
    segment resamples (none when 0) drawn with ``seed``."""
    params = SegmentLevelParams(n_resamples=n_resamples, confidence=confidence)
    rng = np.random.default_rng(seed)
    return segment_level_statistics(matrices.metrics, matrices.human, rng, params)


# ------------------------------------------------------------------------ the JSON contract
def segment_level_header(matrices: SegmentMatrices, result: SegmentLevelResult) -> dict:
    """The top-level "segment_level": what the statistics were computed on, and how oriented."""
    return {
        "oriented": matrices.oriented,
        "criterion": matrices.criterion,
        "systems": list(matrices.systems),
        "n_systems": result.n_systems,
        "n_segments": result.n_segments,
        "n_cells": result.n_cells,
        "n_resamples": result.params.n_resamples,
    }


def segment_correlations(matrices: SegmentMatrices, result: SegmentLevelResult) -> dict:
    """metric -> flat statistics (see the module docstring); metrics without segment scores
    get every key null, with their reason."""
    resampled = result.params.n_resamples > 0
    keys = statistic_keys(result.params.groupings)
    report = {}
    for metric in matrices.metrics:
        cells = np.isfinite(matrices.metrics[metric]) & np.isfinite(matrices.human)
        record = _flatten(result.metric(metric), result.constant_baseline, resampled)
        report[metric] = {**record, "n_rated": int(cells.sum())}
    for metric, reason in matrices.undefined.items():
        nulls = {key: None for key in keys}
        if resampled:
            nulls.update({f"{key}_ci": None for key in keys})
        report[metric] = {**nulls, "n_rated": 0, UNDEFINED: dict.fromkeys(nulls, reason)}
    return report


def statistic_keys(groupings: Sequence[str]) -> list[str]:
    """Every flat key with a value: "<statistic>_<grouping>", thresholds and the baseline."""
    keys = [f"{name}_{g}" for g in groupings for name in (*CORRELATIONS, *ACCURACIES)]
    keys += [f"acc_eq_{g}_threshold" for g in groupings]
    return keys + [f"constant_baseline_{name}_{g}" for g in groupings for name in ACCURACIES]


def _flatten(metric: MetricStatistics, baseline: MetricStatistics, resampled: bool) -> dict:
    record: dict = {}
    undefined: dict[str, str] = {}
    for group in metric.groupings:
        for name, estimate in group.estimates().items():
            _put(record, undefined, f"{name}_{group.grouping}", estimate, resampled)
        threshold = f"acc_eq_{group.grouping}_threshold"
        record[threshold] = group.acc_eq_threshold
        if group.acc_eq_threshold is None:
            undefined[threshold] = group.acc_eq.undefined or "acc_eq is undefined"
        record[f"n_groups_{group.grouping}"] = group.n_groups
    for group in baseline.groupings:
        for name in ACCURACIES:
            key = f"constant_baseline_{name}_{group.grouping}"
            _put(record, undefined, key, getattr(group, name), resampled)
    return {**record, UNDEFINED: undefined}


def _put(record: dict, undefined: dict, key: str, estimate: Estimate, resampled: bool) -> None:
    record[key] = estimate.value
    if estimate.value is None:
        undefined[key] = estimate.undefined or "undefined"
    if resampled:
        record[f"{key}_ci"] = None if estimate.interval is None else list(estimate.interval)
        if estimate.interval is None:
            undefined[f"{key}_ci"] = estimate.interval_undefined or "undefined"


def system_accuracies(
    matrices: SegmentMatrices, result: SegmentLevelResult | None = None
) -> dict[str, dict]:
    """metric -> {"spa", "pairwise_accuracy_with_ties" (and its "_ci" when ``result`` was
    resampled), "undefined"} for the system-level "correlations". Without ``result`` they are
    computed alone (no segment-level statistics, no intervals); a metric without segment scores
    gets nulls with its reason."""
    resampled = result is not None and result.params.n_resamples > 0
    report: dict[str, dict] = {}
    for name, matrix in matrices.metrics.items():
        spa, ties = (
            _accuracies(matrix, matrices.human)
            if result is None
            else (result.metric(name).soft_pairwise_accuracy, result.metric(name).pairwise_accuracy)
        )
        record: dict = {}
        undefined: dict[str, str] = {}
        _put(record, undefined, "spa", spa, False)
        _put(record, undefined, "pairwise_accuracy_with_ties", ties, resampled)
        report[name] = {**record, UNDEFINED: undefined}
    keys = [*SYSTEM_ACCURACIES, *(["pairwise_accuracy_with_ties_ci"] if resampled else [])]
    for name, reason in matrices.undefined.items():
        report[name] = {**dict.fromkeys(keys), UNDEFINED: dict.fromkeys(keys, reason)}
    return report


def _accuracies(metric: np.ndarray, human: np.ndarray) -> tuple[Estimate, Estimate]:
    """SPA and pairwise accuracy with ties as ``segment_level_statistics`` computes them, alone:
    the same permutation signs (mt-metrics-eval's fixed seed), no resamples."""
    return (
        system_level_estimate("spa", metric, human),
        system_level_estimate("pairwise_accuracy", metric, human),
    )


def without_segment_judgments(metrics: Sequence[str]) -> dict[str, dict]:
    """The accuracies of ``system_accuracies`` for judgments without segments: null, and why."""
    reasons = dict.fromkeys(SYSTEM_ACCURACIES, NO_SEGMENT_JUDGMENTS)
    return {
        name: {**dict.fromkeys(SYSTEM_ACCURACIES), UNDEFINED: dict(reasons)} for name in metrics
    }


# ----------------------------------------------------------------------------- ranking
RANKABLE_SYSTEM_LEVEL = {"spa": "spa", "pairwise_accuracy_with_ties": "pairwise_accuracy"}


def rankable_statistics(groupings: Sequence[str] = GROUPINGS) -> list[str]:
    """Every name --rank-metrics takes: "<statistic>_<grouping>", "spa" and
    "pairwise_accuracy_with_ties"."""
    names = [f"{name}_{g}" for name in (*CORRELATIONS, *ACCURACIES) for g in groupings]
    return [*names, *RANKABLE_SYSTEM_LEVEL]


def parse_rank_statistic(text: str) -> tuple[str, str]:
    """'acc_eq_item' -> ('acc_eq', 'item'); 'spa' -> ('spa', 'none'): what ``rank_metrics``
    takes (the grouping of a system-level statistic is ignored there)."""
    if text in RANKABLE_SYSTEM_LEVEL:
        return RANKABLE_SYSTEM_LEVEL[text], "none"
    statistic, _, grouping = text.rpartition("_")
    if statistic not in (*CORRELATIONS, *ACCURACIES) or grouping not in GROUPINGS:
        raise InputError(
            f"cannot rank metrics by {text!r}",
            hint=f"Give one of: {', '.join(rankable_statistics())}.",
        )
    return statistic, grouping


def rank_oriented_metrics(
    matrices: SegmentMatrices,
    statistic: str,
    grouping: str,
    n_permutations: int,
    seed: int,
    result: SegmentLevelResult | None = None,
) -> MetricRanking:
    """The metrics of ``matrices`` in mt-metrics-eval's significance clusters (``stats.ranking``),
    with intervals from ``result``'s resamples when it has any."""
    from mteval_core.stats.ranking import PermutationParams, rank_metrics

    return rank_metrics(
        matrices.metrics,
        matrices.human,
        statistic,
        grouping,
        np.random.default_rng(seed),
        PermutationParams(n_permutations=n_permutations),
        result=result if result is not None and result.params.n_resamples else None,
    )


def metric_ranking(
    matrices: SegmentMatrices,
    statistic: str,
    n_permutations: int,
    seed: int,
    result: SegmentLevelResult | None = None,
) -> list[dict]:
    """[{"metric", "value", "rank", "ci", "undefined"}], best first, in mt-metrics-eval's
    significance clusters; "ci" from ``result``'s resamples, else null. A metric whose statistic
    is undefined is not ranked: "value" and "rank" are null, with the reason under "undefined",
    and the clusters are those of the other metrics. Metrics without segment scores are not
    ranked at all (see ``matrices.undefined``)."""
    name, grouping = parse_rank_statistic(statistic)
    ranking = rank_oriented_metrics(matrices, name, grouping, n_permutations, seed, result)
    return [
        {
            "metric": ranked.name,
            "value": ranked.value,
            "rank": ranked.rank,
            "ci": None if ranked.interval is None else list(ranked.interval),
            UNDEFINED: {}
            if ranked.undefined is None
            else {"value": ranked.undefined, "rank": f"not ranked: {statistic} is undefined"},
        }
        for ranked in ranking.metrics
    ]
