"""Meta-evaluation: how well each metric agrees with people, and how sure we can be.

Two entry points. ``correlate_tables`` works from system-level tables alone (the `mteval
correlate` command); its intervals resample systems. ``bootstrap_scores`` works from a scored test
set: it resamples segments once (one seeded matrix for every system and metric) and gives an
interval for every system score, a Holm-corrected paired test for every system pair, and, with
human judgments, an interval for every correlation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from mteval_core.errors import InputError
from mteval_core.human import criterion_matrix, default_criterion, system_scores
from mteval_core.scoring import Progress, Scores
from mteval_core.stats.bootstrap import (
    BootstrapOptions,
    holm,
    paired_p_values,
    percentile_interval,
    resample_counts,
    resampled_means,
)
from mteval_core.stats.correlation import (
    differential_correlation,
    kendall,
    kendall_rows,
    pairwise_accuracy,
    pearson,
    pearson_rows,
    spearman,
    spearman_rows,
    williams_test,
)
from mteval_core.testset import TestSet


def correlations(metric: np.ndarray, human: np.ndarray) -> dict[str, float | int]:
    """Every system-level statistic of one metric against the human scores."""
    return {
        "pearson": pearson(metric, human),
        "spearman": spearman(metric, human),
        "kendall": kendall(metric, human, "b"),
        "kendall_like": kendall(metric, human, "like"),
        "pairwise_accuracy": pairwise_accuracy(metric, human),
        "differential_pearson": differential_correlation(metric, human),
        "n": len(human),
    }


def _intervals(metric: np.ndarray, human: np.ndarray, confidence: float) -> dict[str, list]:
    """CIs of Pearson, Spearman and Kendall from (resamples, systems) arrays."""
    return {
        "pearson_ci": list(percentile_interval(pearson_rows(metric, human), confidence)),
        "spearman_ci": list(percentile_interval(spearman_rows(metric, human), confidence)),
        "kendall_ci": list(percentile_interval(kendall_rows(metric, human), confidence)),
    }


def correlate_tables(
    human: Mapping[str, float],
    metrics: Mapping[str, Mapping[str, float]],
    exclude: Sequence[str] = (),
    bootstrap: BootstrapOptions | None = None,
) -> dict[str, dict]:
    """metric -> statistics over the systems both tables share, minus ``exclude``.

    With ``bootstrap``, intervals come from resampling systems (all there is at system level).
    """
    results = {}
    for name, scores in metrics.items():
        systems = [s for s in human if s in scores and s not in set(exclude)]
        if len(systems) < 3:
            raise InputError(
                f"metric {name!r} shares only {len(systems)} systems with the human scores",
                hint="A correlation needs at least 3 systems; check the system names.",
            )
        x = np.array([scores[s] for s in systems])
        y = np.array([human[s] for s in systems])
        results[name] = correlations(x, y)
        if bootstrap is not None:
            rng = np.random.default_rng(bootstrap.seed)
            picks = rng.integers(0, len(systems), size=(bootstrap.n_resamples, len(systems)))
            results[name].update(_intervals(x[picks], y[picks], bootstrap.confidence))
    return results


def evaluate(
    test_set: TestSet,
    scores: Scores,
    criterion: str | None = None,
    exclude: Sequence[str] = (),
    rated_only: bool = False,
    bootstrap: BootstrapOptions | None = None,
    negated_on_load: bool = False,
    progress: Progress | None = None,
) -> dict:
    """Everything `mteval score --human --bootstrap` reports, as JSON-ready data: the human system
    scores, every metric's correlations (with intervals), score intervals and paired tests.

    Human judgments come with ``test_set.human``; without them only the bootstrap part is done.
    ``progress`` is told how much of the bootstrap is done (see ``bootstrap_scores``).
    """
    result: dict = {}
    human_matrix, human_systems = None, []
    judgments = test_set.human
    if judgments is not None and len(judgments):
        criterion = criterion or default_criterion(judgments)
        rated = set(judgments.segment_rows["system"]) | set(judgments.system_rows["system"])
        human_systems = [s for s in scores.systems if s not in set(exclude) and s in rated]
        if len(human_systems) < 3:
            raise InputError(
                f"only {len(human_systems)} scored systems have human judgments",
                hint="A correlation needs at least 3 systems.",
            )
        if len(judgments.segment_rows):
            human_matrix = criterion_matrix(
                judgments, human_systems, test_set.n_segments, criterion
            )
            human_scores = np.nanmean(human_matrix, axis=1)
        else:
            human_scores = system_scores(judgments, human_systems, test_set.n_segments, criterion)
        result["human"] = {
            "criterion": criterion,
            "negated_on_load": negated_on_load,
            "scores": dict(zip(human_systems, human_scores.tolist())),
        }
        if rated_only and human_matrix is not None:
            observed = metric_scores_for_human(scores, human_matrix, human_systems, True)
        else:
            corpus = scores.corpus()
            observed = {
                m: np.array([corpus[s][m] for s in human_systems]) for m in scores.metric_names
            }
        result["correlations"] = {m: correlations(observed[m], human_scores) for m in observed}
    if bootstrap is not None:
        resampled = bootstrap_scores(
            scores, bootstrap, human_matrix, human_systems, rated_only, progress
        )
        result["ci"] = resampled.ci
        result["pairs"] = resampled.pairs
        for metric, statistics in resampled.correlations.items():
            result["correlations"][metric].update(statistics)
        if resampled.metric_comparisons:
            result["metric_comparisons"] = resampled.metric_comparisons
            result["human"]["ci"] = resampled.human_ci
    return result


@dataclass(frozen=True)
class BootstrapResult:
    """Resampled corpus scores and everything derived from them."""

    samples: dict[str, np.ndarray]  # metric -> (n_resamples, n_systems)
    ci: dict[str, dict[str, list[float]]]  # system -> metric -> [low, high]
    pairs: list[dict]  # {"a", "b", "metric", "delta", "p", "p_holm"}
    correlations: dict[str, dict] = field(default_factory=dict)  # metric -> statistics and CIs
    metric_comparisons: list[dict] = field(default_factory=list)  # is metric a better than b?
    human_ci: dict[str, list[float]] = field(default_factory=dict)  # system -> [low, high]


def bootstrap_scores(
    scores: Scores,
    options: BootstrapOptions,
    human: np.ndarray | None = None,
    human_systems: Sequence[str] = (),
    rated_only: bool = False,
    progress: Progress | None = None,
) -> BootstrapResult:
    """Resample segments once and derive intervals, paired tests and correlation intervals.

    ``human`` is an (n_human_systems, n_segments) matrix of segment scores (NaN: not rated) for
    ``human_systems``; metric scores are correlated with it over those systems, computed on the
    segments each system was rated on when ``rated_only``. ``progress`` is told the share of
    metrics done after each one, so a caller can show a progress bar.
    """
    first = scores.statistics[scores.metrics[0].name][scores.systems[0]]
    counts = resample_counts(
        first.shape[0], options.n_resamples, np.random.default_rng(options.seed)
    )
    corpus = scores.corpus()
    samples: dict[str, np.ndarray] = {}
    ci: dict[str, dict[str, list[float]]] = {system: {} for system in scores.systems}
    pairs: list[dict] = []
    for done, metric in enumerate(scores.metrics, start=1):
        columns = [
            metric.score_from_totals(counts @ scores.statistics[metric.name][s])
            for s in scores.systems
        ]
        samples[metric.name] = np.column_stack(columns)
        for system, column in zip(scores.systems, columns):
            ci[system][metric.name] = list(percentile_interval(column, options.confidence))
        observed = np.array([corpus[s][metric.name] for s in scores.systems])
        p = paired_p_values(samples[metric.name], observed)
        index_pairs = list(combinations(range(len(scores.systems)), 2))
        adjusted = holm(np.array([p[a, b] for a, b in index_pairs])) if index_pairs else []
        for (a, b), p_holm in zip(index_pairs, adjusted):
            pairs.append(
                {
                    "a": scores.systems[a],
                    "b": scores.systems[b],
                    "metric": metric.name,
                    "delta": float(observed[a] - observed[b]),
                    "p": float(p[a, b]),
                    "p_holm": float(p_holm),
                }
            )
        if progress:
            progress(done / len(scores.metrics))
    result = BootstrapResult(samples, ci, pairs)
    if human is not None:
        statistics, resampled = _segment_level_correlations(
            scores, samples, counts, human, human_systems, options, rated_only
        )
        result.correlations.update(statistics)
        for system, row in zip(human_systems, human):
            interval = percentile_interval(resampled_means(row, counts), options.confidence)
            result.human_ci[system] = list(interval)
        observed = metric_scores_for_human(scores, human, human_systems, rated_only)
        result.metric_comparisons.extend(compare_metrics(observed, human, resampled))
    return result


def metric_scores_for_human(
    scores: Scores,
    human: np.ndarray,
    human_systems: Sequence[str],
    rated_only: bool = False,
    counts: np.ndarray | None = None,
) -> dict[str, np.ndarray]:
    """metric -> score of each human-rated system: on all segments, or (``rated_only``) on the
    segments that system was rated on; per resample (rows) when ``counts`` are given."""
    rated = np.isfinite(human)
    result = {}
    for metric in scores.metrics:
        columns = []
        for row, system in enumerate(human_systems):
            stats = scores.statistics[metric.name][system]
            weights = np.ones(stats.shape[0]) if counts is None else counts
            if rated_only:
                weights = weights * rated[row]
            columns.append(metric.score_from_totals(weights @ stats))
        result[metric.name] = np.stack(columns, axis=-1)
    return result


def compare_metrics(
    values: dict[str, np.ndarray], human: np.ndarray, resampled_pearson: dict[str, np.ndarray]
) -> list[dict]:
    """For every pair of metrics: the share of resamples in which a's Pearson correlation with
    the human scores beats b's, and Williams' test that a correlates better than b."""
    human_scores = np.array([np.nanmean(row) for row in human])
    comparisons = []
    for a, b in combinations(values, 2):
        r_a, r_b = pearson(values[a], human_scores), pearson(values[b], human_scores)
        comparisons.append(
            {
                "a": a,
                "b": b,
                "pearson_a": r_a,
                "pearson_b": r_b,
                "share_a_better": float(np.mean(resampled_pearson[a] > resampled_pearson[b])),
                "williams_p_a_better": williams_test(
                    r_a, r_b, pearson(values[a], values[b]), len(human_scores)
                ),
            }
        )
    return comparisons


def _segment_level_correlations(
    scores: Scores,
    samples: dict[str, np.ndarray],
    counts: np.ndarray,
    human: np.ndarray,
    human_systems: Sequence[str],
    options: BootstrapOptions,
    rated_only: bool,
) -> tuple[dict[str, dict], dict[str, np.ndarray]]:
    """Correlations with intervals, and each metric's resampled Pearson correlations."""
    human_observed = np.array([np.nanmean(row) for row in human])
    human_samples = np.column_stack([resampled_means(row, counts) for row in human])
    observed = metric_scores_for_human(scores, human, human_systems, rated_only)
    if rated_only:
        resampled_scores = metric_scores_for_human(scores, human, human_systems, True, counts)
    else:
        columns = [scores.systems.index(s) for s in human_systems]
        resampled_scores = {m: samples[m][:, columns] for m in scores.metric_names}
    results, resampled = {}, {}
    for name in scores.metric_names:
        results[name] = correlations(observed[name], human_observed)
        metric_samples = resampled_scores[name]
        results[name].update(_intervals(metric_samples, human_samples, options.confidence))
        resampled[name] = pearson_rows(metric_samples, human_samples)
    return results, resampled
