"""Meta-evaluation: how well each metric agrees with people, and how sure we can be.

Two entry points. ``correlate_tables`` works from system-level tables alone (the `mteval
correlate` command); its intervals resample systems. ``bootstrap_scores`` works from a scored test
set: it resamples segments once (one seeded matrix for every system and metric) and gives an
interval for every system score, a Holm-corrected paired test for every system pair, and, with
human judgments, an interval for every correlation.

A statistic without a value (a correlation over constant scores, an interval that no resample
defines, see ``stats.correlation``) is None, and the dict that holds it says why under
"undefined": ``{"pearson": None, ..., "undefined": {"pearson": "constant human scores"}}``
(see ``stats.undefined``, whose ``format_statistic`` turns either into text for people).
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
    CORRELATIONS,
    MIN_SYSTEMS,
    SYSTEM_STATISTICS,
    pearson,
    pearson_rows,
    why_undefined,
    why_williams_undefined,
    williams_test,
)
from mteval_core.stats.undefined import NO_DEFINED_RESAMPLE, UNDEFINED
from mteval_core.testset import TestSet


def correlations(metric: np.ndarray, human: np.ndarray) -> dict:
    """Every system-level statistic of one metric against the human scores: each a number, or
    None with its reason under "undefined"; and n, the number of systems."""
    result: dict = {}
    undefined: dict[str, str] = {}
    for name, statistic in SYSTEM_STATISTICS.items():
        reason = why_undefined(name, metric, human)
        result[name] = None if reason else statistic(metric, human)
        if reason:
            undefined[name] = reason
    return {**result, "n": len(human), UNDEFINED: undefined}


def _with_intervals(
    statistics: dict, metric: np.ndarray, human: np.ndarray, confidence: float
) -> dict:
    """``statistics`` plus the intervals of Pearson, Spearman and Kendall from (resamples,
    systems) arrays; an interval is None where its statistic is undefined, or undefined in every
    resample (resamples where it is undefined are left out of the others)."""
    intervals: dict[str, list[float] | None] = {}
    undefined = dict(statistics[UNDEFINED])
    for name, rows in CORRELATIONS.items():
        reason = undefined.get(name)
        interval = None if reason else percentile_interval(rows(metric, human), confidence)
        intervals[f"{name}_ci"] = None if interval is None else list(interval)
        if interval is None:
            undefined[f"{name}_ci"] = reason or NO_DEFINED_RESAMPLE
    rest = {key: value for key, value in statistics.items() if key != UNDEFINED}
    return {**rest, **intervals, UNDEFINED: undefined}


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
        if len(systems) < MIN_SYSTEMS:
            raise InputError(
                f"metric {name!r} shares only {len(systems)} systems with the human scores",
                hint=f"A correlation needs at least {MIN_SYSTEMS} systems; check the system names.",
            )
        x = np.array([scores[s] for s in systems])
        y = np.array([human[s] for s in systems])
        results[name] = correlations(x, y)
        if bootstrap is not None:
            rng = np.random.default_rng(bootstrap.seed)
            picks = rng.integers(0, len(systems), size=(bootstrap.n_resamples, len(systems)))
            results[name] = _with_intervals(results[name], x[picks], y[picks], bootstrap.confidence)
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
    The correlations are over the scored systems, minus ``exclude``, that have a judgment under
    ``criterion``. ``progress`` is told how much of the bootstrap is done (see
    ``bootstrap_scores``).
    """
    result: dict = {}
    human_matrix, human_systems = None, []
    judgments = test_set.human
    if judgments is not None and len(judgments):
        criterion = criterion or default_criterion(judgments)
        candidates = [s for s in scores.systems if s not in set(exclude)]
        if len(judgments.segment_rows):
            matrix = criterion_matrix(judgments, candidates, test_set.n_segments, criterion)
            judged = np.isfinite(matrix).any(axis=1)
            human_matrix = matrix[judged]
        else:
            all_scores = system_scores(judgments, candidates, test_set.n_segments, criterion)
            judged = np.isfinite(all_scores)
        human_systems = [s for s, j in zip(candidates, judged) if j]
        if len(human_systems) < MIN_SYSTEMS:
            rows = (judgments.segment_rows, judgments.system_rows)
            raise InputError(
                f"{len(human_systems)} of the {len(candidates)} scored systems"
                + (f" (without {', '.join(exclude)})" if exclude else "")
                + f" have human judgments under {criterion!r}",
                origin=", ".join(dict.fromkeys(o for r in rows for o in r["origin"])),
                hint=f"A correlation needs at least {MIN_SYSTEMS} systems; check the system "
                "names in the judgments.",
            )
        if human_matrix is not None:
            human_scores = np.array([np.nanmean(row) for row in human_matrix])
        else:
            human_scores = all_scores[judged]
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
        if human_matrix is not None:
            result["correlations"] = resampled.correlations
            result["human"]["ci"] = resampled.human_ci
            result["human"][UNDEFINED] = resampled.human_undefined
            result["metric_comparisons"] = resampled.metric_comparisons
    return result


@dataclass(frozen=True)
class BootstrapResult:
    """Resampled corpus scores and everything derived from them."""

    samples: dict[str, np.ndarray]  # metric -> (n_resamples, n_systems)
    ci: dict[str, dict[str, list[float]]]  # system -> metric -> [low, high]
    pairs: list[dict]  # {"a", "b", "metric", "delta", "p", "p_holm"}
    correlations: dict[str, dict] = field(default_factory=dict)  # metric -> statistics and CIs
    metric_comparisons: list[dict] = field(default_factory=list)  # is metric a better than b?
    human_ci: dict[str, list[float] | None] = field(default_factory=dict)  # system -> [low, high]
    human_undefined: dict[str, str] = field(default_factory=dict)  # system -> why ci is None


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
            interval = percentile_interval(column, options.confidence)
            assert interval is not None  # score_from_totals scores every resample (0 if empty)
            ci[system][metric.name] = list(interval)
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
            # None when no resample drew a segment this system was rated on
            interval = percentile_interval(resampled_means(row, counts), options.confidence)
            result.human_ci[system] = None if interval is None else list(interval)
            if interval is None:
                result.human_undefined[system] = "no rated segment in any resample"
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
    the human scores beats b's, and Williams' test that a correlates better than b.

    The share counts a tie as half (two identical metrics get 0.5, not 0: a tie is no evidence
    either way) and leaves out resamples where either correlation is undefined. Where a's or b's
    correlation is undefined, so are the share and the test, with the reason under "undefined"."""
    human_scores = np.array([np.nanmean(row) for row in human])
    comparisons = []
    for a, b in combinations(values, 2):
        undefined: dict[str, str] = {}
        r = {}
        for side, metric in (("a", a), ("b", b)):
            reason = why_undefined("pearson", values[metric], human_scores)
            r[side] = None if reason else pearson(values[metric], human_scores)
            if reason:
                undefined[f"pearson_{side}"] = reason
                undefined["share_a_better"] = undefined["williams_p_a_better"] = (
                    f"the Pearson correlation of {metric} is undefined ({reason})"
                )
        share = williams = None
        if r["a"] is not None and r["b"] is not None:
            share = _share_better(resampled_pearson[a], resampled_pearson[b])
            if share is None:
                undefined["share_a_better"] = NO_DEFINED_RESAMPLE
            r_ab, n = pearson(values[a], values[b]), len(human_scores)
            reason = why_williams_undefined(r["a"], r["b"], r_ab, n)
            williams = None if reason else williams_test(r["a"], r["b"], r_ab, n)
            if reason:
                undefined["williams_p_a_better"] = reason
        comparisons.append(
            {
                "a": a,
                "b": b,
                "pearson_a": r["a"],
                "pearson_b": r["b"],
                "share_a_better": share,
                "williams_p_a_better": williams,
                UNDEFINED: undefined,
            }
        )
    return comparisons


def _share_better(first: np.ndarray, second: np.ndarray) -> float | None:
    """Share of resamples where ``first`` > ``second``, ties counting half, over the resamples
    where both are defined; None if there are none."""
    both = np.isfinite(first) & np.isfinite(second)
    if not both.any():
        return None
    a, b = first[both], second[both]
    return float(np.mean(a > b) + 0.5 * np.mean(a == b))


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
        metric_samples = resampled_scores[name]
        results[name] = _with_intervals(
            correlations(observed[name], human_observed),
            metric_samples,
            human_samples,
            options.confidence,
        )
        resampled[name] = pearson_rows(metric_samples, human_samples)
    return results, resampled
