"""Meta-evaluation: how well each metric agrees with people.

Two entry points. ``correlate_tables`` works from system-level tables alone (the `mteval
correlate` command); its intervals resample systems. ``evaluate`` works from a scored test set
with human judgments: the human score of every judged system and every metric's correlations
with them; with bootstrap options it adds what ``stats.significance`` derives from resampling the
segments (intervals of scores and correlations, paired tests, comparisons of metrics).

``evaluate_and_compare`` is ``evaluate`` as the dashboard shows it: judgments at system level
only (e.g. WMT's DA, one score per system) have no segments to resample, so its intervals and
comparisons of metrics resample the judged systems, as ``correlate_tables`` does; and without
resamples every two metrics still get Williams' test.

A statistic without a value (a correlation over constant scores, an interval that no resample
defines, see ``stats.correlation``) is None, and its result says why under ``undefined``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from mteval_core.errors import InputError
from mteval_core.metrics.scoring import Progress, Scores
from mteval_core.model.judgment_matrices import (
    criteria_of,
    criterion_matrix,
    default_criterion,
    system_scores,
)
from mteval_core.model.testset import HumanScores, TestSet
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.correlation import (
    INTERVAL_STATISTICS,
    SystemCorrelations,
    correlations,
    pairwise_differentials,
    pearson_rows,
    with_intervals,
)
from mteval_core.stats.significance import (
    BootstrapResult,
    MetricComparison,
    bootstrap_scores,
    compare_metrics,
    metric_scores_for_human,
    orientation,
    with_segments_only,
)
from mteval_core.stats.undefined import NO_DEFINED_RESAMPLE, UNDEFINED


def criterion_choices(judgments: HumanScores) -> list[str]:
    """Every criterion a correlation can use, the default first: Lavie et al.'s adequacy+fluency
    when both are judged, else the only criterion; with several and no default, in their order."""
    try:
        default = [default_criterion(judgments)]
    except InputError:  # several criteria and none is the default: the user chooses
        default = []
    return list(dict.fromkeys([*default, *judgments.criteria]))


# ------------------------------------------------------------------------------- the results
@dataclass(frozen=True)
class HumanSystemScores:
    """The human score of every judged system under one criterion; with segment resamples, also
    its interval (None, with the reason under ``undefined``, when no resample defines it)."""

    criterion: str
    negated_on_load: bool  # the judgments counted errors, so their scores were negated
    scores: Mapping[str, float]  # system -> mean human score
    ci: Mapping[str, tuple[float, float] | None] | None = None  # system -> (low, high)
    undefined: Mapping[str, str] = field(default_factory=dict)  # system -> why its ci is None

    def to_dict(self) -> dict:
        record = {
            "criterion": self.criterion,
            "negated_on_load": self.negated_on_load,
            "scores": dict(self.scores),
        }
        if self.ci is not None:
            record["ci"] = {s: None if ci is None else list(ci) for s, ci in self.ci.items()}
            record[UNDEFINED] = dict(self.undefined)
        return record


@dataclass(frozen=True, eq=False)  # it holds arrays
class MetricAgainstHuman:
    """One metric's scores against the human scores of the same systems, system by system and
    pair by pair (Coughlin's differences): what a scatter plot shows beside the correlations."""

    metric: str
    systems: tuple[str, ...]
    metric_scores: np.ndarray
    human_scores: np.ndarray
    pair_labels: tuple[str, ...]  # "a − b" for every two systems, in the order of differences
    metric_differences: np.ndarray
    human_differences: np.ndarray
    correlations: SystemCorrelations

    def pairs_with(self, system: str) -> np.ndarray:
        """Which pairs (in the order of ``pair_labels``) have ``system`` on one side."""
        first, second = np.triu_indices(len(self.systems), k=1)
        index = self.systems.index(system) if system in self.systems else -1
        return (first == index) | (second == index)


@dataclass(frozen=True, eq=False)  # it holds arrays
class MetaEvaluation:
    """Everything `mteval score --human --bootstrap` reports (see ``to_dict``)."""

    human: HumanSystemScores | None = None  # None: the test set has no human judgments
    metric_scores: Mapping[str, np.ndarray] = field(default_factory=dict)  # metric -> per system
    correlations: Mapping[str, SystemCorrelations] = field(default_factory=dict)  # by metric
    resampled: BootstrapResult | None = None  # None: no bootstrap options were given
    # Set by ``evaluate_and_compare`` only (never in the JSON of `mteval score`): the options of
    # the system resamples behind the correlation intervals (judgments at system level only),
    # and the comparisons of metrics when they do not come from ``resampled``.
    system_resamples: BootstrapOptions | None = None
    comparisons: tuple[MetricComparison, ...] | None = None

    @property
    def resampled_units(self) -> str | None:
        """What the correlation intervals come from: "segments", "systems", or None (none)."""
        if self.system_resamples is not None:
            return "systems"
        if self.resampled is not None and self.resampled.agreement is not None:
            return "segments"
        return None

    @property
    def metric_comparisons(self) -> tuple[MetricComparison, ...]:
        """Every two metrics compared (see ``stats.significance.compare_metrics``): from the
        segment resamples, or as ``evaluate_and_compare`` made them; () when neither did."""
        if self.comparisons is not None:
            return self.comparisons
        if self.resampled is not None and self.resampled.agreement is not None:
            return self.resampled.agreement.metric_comparisons
        return ()

    def compared_with(self, metric: str) -> list[MetricComparison]:
        """``metric`` against every metric it was compared with, ``metric`` always as a."""
        found = []
        for comparison in self.metric_comparisons:
            if comparison.a == metric:
                found.append(comparison)
            elif comparison.b == metric:
                found.append(turned(comparison))
        return found

    def correlations_as_dicts(self) -> dict[str, dict]:
        """metric -> its correlations as JSON records (what ``tables.correlation_frame`` reads)."""
        return {metric: statistics.to_dict() for metric, statistics in self.correlations.items()}

    def to_dict(self) -> dict:
        """The JSON that `mteval score` adds to the scores: "human" and "correlations" with
        judgments, then what resampling adds (see ``BootstrapResult.to_dict``)."""
        report: dict = {}
        if self.human is not None:
            report["human"] = self.human.to_dict()
            report["correlations"] = self.correlations_as_dicts()
        if self.resampled is not None:
            report.update(self.resampled.to_dict())
        return report

    def against_human(self, metric: str) -> MetricAgainstHuman:
        """``metric``'s scores beside the human ones, the points its correlations are made of."""
        if self.human is None:
            raise ValueError("there are no human scores to compare a metric with")
        systems = tuple(self.human.scores)
        x, y = self.metric_scores[metric], np.array(list(self.human.scores.values()))
        dx, dy = pairwise_differentials(x, y)
        labels = tuple(f"{a} − {b}" for i, a in enumerate(systems) for b in systems[i + 1 :])
        return MetricAgainstHuman(metric, systems, x, y, labels, dx, dy, self.correlations[metric])


# ---------------------------------------------------------------------------- system tables
def correlate_tables(
    human: Mapping[str, float],
    metrics: Mapping[str, Mapping[str, float]],
    exclude: Sequence[str] = (),
    bootstrap: BootstrapOptions | None = None,
) -> dict[str, SystemCorrelations]:
    """metric -> statistics over the systems both tables share, minus ``exclude``.

    With ``bootstrap``, intervals come from resampling systems (all there is at system level).
    Over fewer than ``MIN_SYSTEMS`` systems every statistic is undefined, with the reason; a
    metric that shares no system with the human scores is refused (the names do not match).
    """
    results = {}
    for name, scores in metrics.items():
        systems = [s for s in human if s in scores and s not in set(exclude)]
        if not systems:
            raise InputError(
                f"metric {name!r} shares no system with the human scores",
                hint="Check that the two tables name the systems alike.",
            )
        x = np.array([scores[s] for s in systems])
        y = np.array([human[s] for s in systems])
        statistics = correlations(x, y)
        if bootstrap is not None:
            rng = np.random.default_rng(bootstrap.seed)
            picks = rng.integers(0, len(systems), size=(bootstrap.n_resamples, len(systems)))
            statistics = with_intervals(statistics, x[picks], y[picks], bootstrap.confidence)
        results[name] = statistics
    return results


# ------------------------------------------------------------------------- scored test sets
def evaluate(
    test_set: TestSet,
    scores: Scores,
    criterion: str | None = None,
    exclude: Sequence[str] = (),
    rated_only: bool = False,
    bootstrap: BootstrapOptions | None = None,
    negated_on_load: bool = False,
    progress: Progress | None = None,
) -> MetaEvaluation:
    """The human system scores and every metric's correlations with them, and with ``bootstrap``
    the score intervals, paired tests and (given segment-level judgments) correlation intervals.

    Human judgments come with ``test_set.human``; without them only the bootstrap part is done.
    The correlations are over the scored systems, minus ``exclude``, that have a judgment under
    ``criterion``. ``progress`` is told how much of the bootstrap is done (see
    ``bootstrap_scores``).
    """
    judgments = test_set.human
    if judgments is None or not len(judgments):
        resampled = bootstrap_scores(scores, bootstrap, progress=progress) if bootstrap else None
        return MetaEvaluation(resampled=resampled)
    criterion = criterion or default_criterion(judgments)
    systems, matrix, human_scores = _judged_systems(test_set, judgments, scores, criterion, exclude)
    by_system = dict(zip(systems, human_scores.tolist()))
    resampled = None
    if bootstrap is not None:
        resampled = bootstrap_scores(scores, bootstrap, matrix, systems, rated_only, progress)
    signs = orientation(scores)  # TER negated: higher is better for every statistic
    if resampled is not None and resampled.agreement is not None:  # correlations with intervals
        agreement = resampled.agreement
        human = HumanSystemScores(
            criterion, negated_on_load, by_system, agreement.human_ci, agreement.human_undefined
        )
        metric_scores = _system_scores(scores, systems)  # for the metrics left out of resamples
        statistics = {
            m: agreement.correlations.get(m)
            or _not_resampled(signs[m] * x, human_scores, resampled, m)
            for m, x in metric_scores.items()
        }
        metric_scores.update(agreement.metric_scores)
        return MetaEvaluation(human, metric_scores, statistics, resampled)
    metric_scores = _system_scores(scores, systems)
    if rated_only and matrix is not None:  # metrics with system scores only keep their own
        segmented = with_segments_only(scores)
        metric_scores.update(metric_scores_for_human(segmented, matrix, systems, True))
    statistics = {m: correlations(signs[m] * x, human_scores) for m, x in metric_scores.items()}
    if resampled is not None and matrix is not None:  # asked for, but nothing was resampled
        statistics = {
            m: _not_resampled(signs[m] * x, human_scores, resampled, m)
            for m, x in metric_scores.items()
        }
    human = HumanSystemScores(criterion, negated_on_load, by_system)
    return MetaEvaluation(human, metric_scores, statistics, resampled)


def _system_scores(scores: Scores, systems: Sequence[str]) -> dict[str, np.ndarray]:
    """metric -> corpus score of each of ``systems``, in the metrics' order."""
    corpus = scores.corpus()
    return {m: np.array([corpus[s][m] for s in systems]) for m in scores.metric_names}


def _not_resampled(
    metric: np.ndarray, human: np.ndarray, resampled: BootstrapResult, name: str
) -> SystemCorrelations:
    """The correlations of a metric the bootstrap left out: values, and intervals undefined
    with the reason the bootstrap gives (system scores only)."""
    statistics = correlations(metric, human)
    reason = resampled.undefined.get(name, NO_DEFINED_RESAMPLE)
    why = {f"{s}_ci": statistics.undefined.get(s, reason) for s in INTERVAL_STATISTICS}
    return replace(statistics, resampled=True, undefined={**statistics.undefined, **why})


def _judged_systems(
    test_set: TestSet,
    judgments: HumanScores,
    scores: Scores,
    criterion: str,
    exclude: Sequence[str],
) -> tuple[list[str], np.ndarray | None, np.ndarray]:
    """The scored systems, minus ``exclude``, that people judged under ``criterion``; their
    segment scores (None when the judgments of ``criterion`` are system-level only, even beside
    segment judgments of another criterion); and their human scores."""
    candidates = [s for s in scores.systems if s not in set(exclude)]
    matrix = None
    if has_segment_judgments(judgments, criterion):
        every_row = criterion_matrix(judgments, candidates, test_set.n_segments, criterion)
        judged = np.isfinite(every_row).any(axis=1)
        matrix = every_row[judged]
    else:
        every_score = system_scores(judgments, candidates, test_set.n_segments, criterion)
        judged = np.isfinite(every_score)
    systems = [s for s, j in zip(candidates, judged) if j]
    if not systems:  # fewer than MIN_SYSTEMS: each statistic is undefined, with the reason
        rows = (judgments.segment_rows, judgments.system_rows)
        raise InputError(
            f"none of the {len(candidates)} scored systems"
            + (f" (without {', '.join(exclude)})" if exclude else "")
            + f" has human judgments under {criterion!r}",
            origin=", ".join(dict.fromkeys(o for r in rows for o in r["origin"])),
            hint="Check the system names in the judgments, and the criterion.",
        )
    if matrix is not None:
        return systems, matrix, np.array([np.nanmean(row) for row in matrix])
    return systems, None, every_score[judged]


def segment_scores_against_human(
    test_set: TestSet, scores: Scores, system: str, metric: str, criterion: str
) -> tuple[np.ndarray, np.ndarray] | None:
    """One system's segment scores under ``metric`` and from people (NaN: not rated), to find
    the segments where they disagree; None when the judgments of ``criterion`` are system-level
    only."""
    judgments = test_set.human
    if not has_segment_judgments(judgments, criterion):
        return None
    human = criterion_matrix(judgments, [system], test_set.n_segments, criterion)[0]
    return scores.segment_scores(system, metric), human


# ------------------------------------------------------------------------ what a page shows
NO_RESAMPLES = "no resamples were drawn"


def has_segment_judgments(judgments: HumanScores | None, criterion: str) -> bool:
    """Whether people judged ``criterion`` (every part of a sum such as adequacy+fluency)
    segment by segment; if not, its judgments are system-level only (e.g. WMT's DA tables), and
    there is nothing for segment resamples, rated-segments-only scores, segment-level statistics
    or the reliability experiment to work on."""
    if judgments is None:
        return False
    judged = set(judgments.segment_rows["criterion"])
    return all(part in judged for part in criteria_of(criterion, judgments))


def evaluate_and_compare(
    test_set: TestSet,
    scores: Scores,
    criterion: str | None = None,
    exclude: Sequence[str] = (),
    rated_only: bool = False,
    bootstrap: BootstrapOptions | None = None,
    progress: Progress | None = None,
) -> MetaEvaluation:
    """``evaluate``, with intervals and comparisons of metrics whatever the judgments.

    With segment-level judgments under ``criterion`` it is ``evaluate`` itself (segment
    resamples). With system-level judgments only, the correlations' intervals and the comparisons
    come from resampling the judged systems (``resample_systems``, as `mteval correlate` does) and
    ``rated_only`` changes nothing (no segment was rated). Without ``bootstrap``, every two metrics
    still get Williams' test (the share of resamples is then undefined)."""
    judgments = test_set.human
    if judgments is None or not len(judgments):
        return evaluate(
            test_set, scores, criterion, exclude, bootstrap=bootstrap, progress=progress
        )
    criterion = criterion or default_criterion(judgments)
    signs = orientation(scores)
    if not has_segment_judgments(judgments, criterion):
        evaluation = evaluate(test_set, scores, criterion, exclude)
        if bootstrap is not None:
            return resample_systems(evaluation, signs, bootstrap)
    else:
        evaluation = evaluate(
            test_set, scores, criterion, exclude, rated_only, bootstrap, progress=progress
        )
    if evaluation.metric_comparisons:
        return evaluation
    return replace(evaluation, comparisons=_compare_without_resamples(evaluation, signs))


def resample_systems(
    evaluation: MetaEvaluation, signs: Mapping[str, float], bootstrap: BootstrapOptions
) -> MetaEvaluation:
    """``evaluation`` with every correlation's intervals from resampling its judged systems and
    every two metrics compared on those resamples. The resamples are ``correlate_tables``' (the
    same draws for every metric), so the two agree on the same scores; ``signs`` turn
    lower-is-better metrics round (``stats.significance.orientation``)."""
    if evaluation.human is None:
        raise ValueError("there are no human scores to resample")
    human = np.array(list(evaluation.human.scores.values()))
    n = len(human)
    picks = np.random.default_rng(bootstrap.seed).integers(0, n, size=(bootstrap.n_resamples, n))
    statistics, resampled_pearson, oriented = {}, {}, {}
    for metric, values in evaluation.metric_scores.items():
        oriented[metric] = signs[metric] * values
        x, y = oriented[metric][picks], human[picks]
        statistics[metric] = with_intervals(
            evaluation.correlations[metric], x, y, bootstrap.confidence
        )
        resampled_pearson[metric] = pearson_rows(x, y)
    comparisons = compare_metrics(oriented, human[:, None], resampled_pearson)
    return replace(
        evaluation, correlations=statistics, system_resamples=bootstrap, comparisons=comparisons
    )


def _compare_without_resamples(
    evaluation: MetaEvaluation, signs: Mapping[str, float]
) -> tuple[MetricComparison, ...]:
    """Williams' test of every two metrics; their share of resamples is undefined."""
    if evaluation.human is None:
        return ()
    human = np.array(list(evaluation.human.scores.values()))
    oriented = {m: signs[m] * values for m, values in evaluation.metric_scores.items()}
    comparisons = compare_metrics(oriented, human[:, None], dict.fromkeys(oriented, np.empty(0)))
    return tuple(
        replace(c, undefined={**c.undefined, "share_a_better": NO_RESAMPLES})
        if c.undefined.get("share_a_better") == NO_DEFINED_RESAMPLE
        else c
        for c in comparisons
    )


def turned(comparison: MetricComparison) -> MetricComparison:
    """The same comparison with b as a: the share and Williams' one-sided p of the other side
    (t changes sign when the two correlations swap, so p becomes 1 - p; ties count half in the
    share, so it becomes 1 - share)."""
    names = {"pearson_a": "pearson_b", "pearson_b": "pearson_a"}
    share, williams = comparison.share_a_better, comparison.williams_p_a_better
    return MetricComparison(
        a=comparison.b,
        b=comparison.a,
        pearson_a=comparison.pearson_b,
        pearson_b=comparison.pearson_a,
        share_a_better=None if share is None else 1.0 - share,
        williams_p_a_better=None if williams is None else 1.0 - williams,
        undefined={names.get(key, key): why for key, why in comparison.undefined.items()},
    )
