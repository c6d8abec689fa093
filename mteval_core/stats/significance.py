"""How sure we can be: bootstrap intervals of system scores, paired tests between systems, and
which of two metrics agrees better with people.

``bootstrap_scores`` resamples the segments once (one seeded count matrix for every system and
metric, see ``stats.bootstrap``) and derives everything from it: an interval for every system
score, a paired test for every two systems (Holm-corrected per metric) and, given segment-level
human judgments, the intervals of every correlation and a comparison of every two metrics.

A statistic without a value is None, with its reason under ``undefined`` (see
``stats.undefined``).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from mteval_core.metrics.scoring import Progress, Scores
from mteval_core.stats.bootstrap import (
    BootstrapOptions,
    percentile_interval,
    resampled_means,
    resampled_sums,
    resampling_record,
)
from mteval_core.stats.correlation import (
    SystemCorrelations,
    correlations,
    pearson,
    pearson_rows,
    why_undefined,
    why_williams_undefined,
    williams_test,
    with_intervals,
)
from mteval_core.stats.undefined import NO_DEFINED_RESAMPLE, UNDEFINED

if TYPE_CHECKING:  # only named in a type hint
    from mteval_core.metrics.base import Metric

SIGNIFICANCE_LEVEL = 0.05  # a pair "differs" when its Holm-corrected p is below this


def fewest_paired_segments(level: float = SIGNIFICANCE_LEVEL) -> int:
    """The fewest segments on which a paired test (the bootstrap's, approximate randomization's)
    can honestly find a difference at ``level``: on n segments there are 2^n ways to give each
    segment's two outputs to the two systems, and two of them (none swapped, all swapped) always
    give the observed difference, so no exact p-value is below 2 / 2^n. At 0.05 that takes 6
    segments (2/64 = 0.031; 5 give 0.0625). On fewer, sacreBLEU's rules still give p = 1/(R + 1)
    where every resample or trial agrees (on one segment, always): a difference from nothing."""
    n = 1
    while 2 / 2**n >= level:
        n += 1
    return n


MIN_PAIRED_SEGMENTS = fewest_paired_segments()  # 6


def why_no_paired_test(n_segments: int) -> str | None:
    """Why a paired test on ``n_segments`` segments has no p-value, or None when it has one."""
    if n_segments >= MIN_PAIRED_SEGMENTS:
        return None
    ways = 2**n_segments
    return (
        f"{n_segments:,} segment{'' if n_segments == 1 else 's'}, fewer than the "
        f"{MIN_PAIRED_SEGMENTS} a paired test needs: of the {ways} ways to give each segment's "
        f"two outputs to the two systems, 2 always give the observed difference, so no p-value "
        f"below 2/{ways} = {2 / ways:.3g} means anything"
    )


# why a test set of one segment has no bootstrap interval (stats.undefined)
ONE_SEGMENT = (
    "1 segment: every resample is the test set itself, so an interval would be the score alone "
    "and a paired test would call every difference significant"
)


def why_no_interval(n_segments: int) -> str | None:
    """Why resampling ``n_segments`` segments gives no interval, or None when it gives one."""
    if n_segments >= 2:
        return None
    return ONE_SEGMENT if n_segments == 1 else "no segment to resample"


def n_segments_of(scores: Scores) -> int:
    """How many segments ``scores`` has (its statistics' rows; 0 without a metric)."""
    for by_system in scores.statistics.values():
        for statistics in by_system.values():
            return int(statistics.shape[0])
    return 0


# ------------------------------------------------------------------------ paired tests, Holm
def paired_p_values(samples: np.ndarray, observed: np.ndarray) -> np.ndarray:
    """Paired bootstrap p-values for every pair of columns (Koehn 2004), as sacreBLEU computes
    them: the share of resamples whose centred |difference| reaches the observed |difference|,
    with +1 smoothing. ``samples`` is (n_resamples, n_systems); returns (n_systems, n_systems).

    One departure from sacreBLEU: ties count against significance. sacreBLEU counts centred
    differences strictly greater than the observed one, so two identical systems (every
    difference 0, centred 0, observed 0) get the smallest p there is, 1 / (R + 1), and are
    "significantly different". Here a resample as extreme as the observed difference counts
    (>=), and an observed difference of exactly 0 has p = 1: it is no evidence of a difference.
    For any observed difference that is not 0 the two agree (bar exact float ties)."""
    n = samples.shape[1]
    p = np.ones((n, n))
    for a in range(n):
        for b in range(a + 1, n):
            real = abs(observed[a] - observed[b])
            if real == 0:
                continue
            differences = np.abs(samples[:, a] - samples[:, b])
            centred = differences - differences.mean()
            p[a, b] = p[b, a] = (np.sum(centred >= real) + 1) / (len(centred) + 1)
    return p


def smallest_reachable_p(n_resamples: int, n_pairs: int = 1) -> float:
    """The smallest p-value any pair can get: 1 / (R + 1) from R resamples (the +1 smoothing),
    times n_pairs for the pair with the smallest p after Holm's correction over n_pairs pairs
    (at most 1). When it is not below the significance level, no pair can be significant."""
    if n_resamples < 1 or n_pairs < 1:
        raise ValueError(f"need n_resamples >= 1 and n_pairs >= 1, got {n_resamples}, {n_pairs}")
    return min(1.0, n_pairs * (1 / (n_resamples + 1)))  # as Holm computes it, to the last bit


def resamples_needed(n_pairs: int = 1, level: float = SIGNIFICANCE_LEVEL) -> int:
    """The fewest resamples with which a pair can reach p < ``level`` after Holm's correction
    over ``n_pairs`` pairs: the inverse of ``smallest_reachable_p``, so that a page can say how
    many to choose before anybody has to guess. About n_pairs / level (20 systems, 190 pairs:
    3,799, as Holm's 190 x (1 / 3,800) rounds below 0.05); it lets only the most significant
    pair through, separating many pairs takes more."""
    if n_pairs < 1 or not 0 < level <= 1:
        raise ValueError(f"need n_pairs >= 1 and 0 < level <= 1, got {n_pairs}, {level}")
    needed = max(1, math.floor(n_pairs / level))
    # the division may round either way: settle on smallest_reachable_p's own arithmetic
    while smallest_reachable_p(needed, n_pairs) >= level:
        needed += 1
    while needed > 1 and smallest_reachable_p(needed - 1, n_pairs) < level:
        needed -= 1
    return needed


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment of a family of p-values (same shape, same order)."""
    flat = np.asarray(p_values, float).ravel()
    order = np.argsort(flat, kind="stable")
    m = len(flat)
    adjusted_sorted = np.maximum.accumulate((m - np.arange(m)) * flat[order])
    adjusted = np.empty(m)
    adjusted[order] = np.minimum(adjusted_sorted, 1.0)
    return adjusted.reshape(np.shape(p_values))


# ------------------------------------------------------------------------------- the results
@dataclass(frozen=True)
class PairedTest:
    """Does system a differ from system b under one metric? delta is a's score minus b's. On
    too few segments (``why_no_paired_test``) p and p_holm are None, the reason under
    ``undefined``."""

    a: str
    b: str
    metric: str
    delta: float
    p: float | None
    p_holm: float | None  # Holm-corrected over every pair of systems under this metric
    undefined: Mapping[str, str] = field(default_factory=dict)  # statistic -> why it is None

    @property
    def significant(self) -> bool:
        """Whether a and b differ at ``SIGNIFICANCE_LEVEL`` (never, without a p-value)."""
        return self.p_holm is not None and self.p_holm < SIGNIFICANCE_LEVEL

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class MetricComparison:
    """Does metric a agree better with people than metric b? None (with the reason under
    ``undefined``) where a correlation, the share or the test has no value."""

    a: str
    b: str
    pearson_a: float | None
    pearson_b: float | None
    share_a_better: float | None  # of the resamples, ties counting half
    williams_p_a_better: float | None  # one-sided p of Williams' test
    undefined: Mapping[str, str]  # statistic -> why it is None

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True, eq=False)  # it holds arrays
class ResampledAgreement:
    """What the resamples say about the agreement with segment-level human judgments."""

    metric_scores: Mapping[str, np.ndarray]  # metric -> score of each human-rated system
    correlations: Mapping[str, SystemCorrelations]  # metric -> statistics with intervals
    human_ci: Mapping[str, tuple[float, float] | None]  # system -> interval of its human score
    human_undefined: Mapping[str, str]  # system -> why its interval is None
    metric_comparisons: tuple[MetricComparison, ...]  # every two metrics


@dataclass(frozen=True, eq=False)  # it holds arrays
class BootstrapResult:
    """Resampled corpus scores and everything derived from them."""

    options: BootstrapOptions
    samples: Mapping[str, np.ndarray]  # metric -> (n_resamples, n_systems)
    ci: Mapping[str, Mapping[str, tuple[float, float]]]  # system -> metric -> (low, high)
    pairs: tuple[PairedTest, ...]  # every two systems under every metric
    agreement: ResampledAgreement | None = None  # given segment-level human judgments
    # metric -> why it was not resampled (system scores only, see Scores.without_segments; or
    # one segment, see why_no_interval)
    undefined: Mapping[str, str] = field(default_factory=dict)

    def intervals_of(self, metric: str) -> dict[str, tuple[float, float]]:
        """system -> the interval of its score under ``metric``."""
        return {system: by_metric[metric] for system, by_metric in self.ci.items()}

    def to_dict(self) -> dict:
        """As the JSON reports have it: "ci" (intervals as lists), "pairs", "metric_comparisons"
        (with human judgments) and the "bootstrap" options. The intervals of the correlations and
        of the human scores belong with them (see ``stats.meta.MetaEvaluation.to_dict``)."""
        ci = {
            system: {metric: list(interval) for metric, interval in by_metric.items()}
            for system, by_metric in self.ci.items()
        }
        report: dict = {"ci": ci, "pairs": [pair.to_dict() for pair in self.pairs]}
        if self.agreement is not None:
            comparisons = self.agreement.metric_comparisons
            report["metric_comparisons"] = [comparison.to_dict() for comparison in comparisons]
        if self.undefined:  # metrics left out of the resamples, and why
            report[UNDEFINED] = dict(self.undefined)
        report["bootstrap"] = resampling_record(self.options)
        return report


# ------------------------------------------------------------------------------ the bootstrap
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
    metrics done after each one, so a caller can show a progress bar. Metrics with system scores
    only are left out, with their reason under ``undefined``.
    """
    undefined = scores.not_resampled()
    scores = with_segments_only(scores)
    n_segments = n_segments_of(scores)
    if not scores.metrics or why_no_interval(n_segments):  # nothing to resample
        return without_resamples(scores, options, n_segments, undefined)
    products = _Products.of(scores, human, human_systems, rated_only)
    sums = resampled_sums(
        products.matrices, options.n_resamples, np.random.default_rng(options.seed)
    )
    samples, ci, pairs = intervals_and_pairs(
        scores,
        options,
        lambda metric: products.metric_scores(metric, sums),
        n_segments,
        progress,
    )
    agreement = None
    if human is not None:
        agreement = _resampled_agreement(
            scores,
            samples,
            products.human_resamples(sums),
            human,
            human_systems,
            options,
            rated_only,
        )
    return BootstrapResult(options, samples, ci, tuple(pairs), agreement, undefined)


def without_resamples(
    scores: Scores,
    options: BootstrapOptions,
    n_segments: int,
    undefined: Mapping[str, str] | None = None,
) -> BootstrapResult:
    """The result of nothing to resample: no metric with segments (``undefined`` says why), or
    one segment (no intervals, every pair's p undefined, with the reasons). The in-memory and
    the Poisson bootstrap share it."""
    reason = why_no_interval(n_segments)
    undefined = {**(undefined or {}), **{m: reason for m in scores.metric_names if reason}}
    empty = {system: {} for system in scores.systems}
    pairs = tuple(undefined_pairs(scores, n_segments))
    return BootstrapResult(options, {}, empty, pairs, None, undefined)


def intervals_and_pairs(
    scores: Scores,
    options: BootstrapOptions,
    resampled_scores: Callable[[Metric], list[np.ndarray]],
    n_segments: int,
    progress: Progress | None = None,
) -> tuple[dict[str, np.ndarray], dict[str, dict[str, tuple[float, float]]], list[PairedTest]]:
    """From each metric's resampled scores (one column per system, one row per resample): the
    samples, a percentile interval per system and metric, and the paired tests of every two
    systems (Holm-corrected per metric; undefined on fewer than ``MIN_PAIRED_SEGMENTS`` of the
    test set's ``n_segments``). The in-memory and the Poisson bootstrap share it."""
    corpus = scores.corpus()
    samples: dict[str, np.ndarray] = {}
    ci: dict[str, dict[str, tuple[float, float]]] = {system: {} for system in scores.systems}
    pairs: list[PairedTest] = []
    for done, metric in enumerate(scores.metrics, start=1):
        columns = resampled_scores(metric)
        samples[metric.name] = np.column_stack(columns)
        for system, column in zip(scores.systems, columns):
            interval = percentile_interval(column, options.confidence)
            assert interval is not None  # score_from_totals scores every resample (0 if empty)
            ci[system][metric.name] = interval
        observed = np.array([corpus[s][metric.name] for s in scores.systems])
        pairs += paired_tests(
            scores.systems, metric.name, samples[metric.name], observed, n_segments
        )
        if progress:
            progress(done / len(scores.metrics))
    return samples, ci, pairs


@dataclass(frozen=True, eq=False)
class _HumanResamples:
    """Per resample: each rated system's human mean, and (``rated_only``) each metric's score
    of it on its rated segments."""

    means: np.ndarray  # (n_resamples, n_human_systems)
    metric_scores: Mapping[str, np.ndarray]  # metric -> (n_resamples, n_human_systems)


@dataclass(frozen=True, eq=False)
class _Products:
    """Every product ``counts @ matrix`` the bootstrap needs, listed up front, so that the counts
    can be drawn and applied a block of resamples at a time (``stats.bootstrap.resampled_sums``).

    Whole-number statistics (n-gram and word counts: every metric but NIST and some GTM
    settings) are summed in one product for all systems and metrics side by side, about eight
    times faster than one thin product per system at 20 systems x 2,000 segments x 20,000
    resamples: the counts are whole numbers too, so every sum is exact and the numbers are the
    same bits. Each distinct column is summed once (``_DistinctColumns``). Other statistics keep
    one product per system, whose rounding BLAS would otherwise change.
    """

    matrices: list[np.ndarray]
    metric_slots: Mapping[str, list[int]]  # metric -> one product per system (not whole numbers)
    whole_columns: Mapping[str, np.ndarray]  # metric -> its columns of the whole-number product
    whole_slot: int | None  # the whole-number product, every system's columns side by side
    human_slot: int | None  # human scores (NaN as 0); the next slot: which segments are rated
    rated_only_slots: Mapping[str, list[int]]  # metric -> one per human system
    metrics: Sequence[Metric]
    widths: Mapping[str, list[int]]  # metric -> each system's number of statistics

    @classmethod
    def of(
        cls,
        scores: Scores,
        human: np.ndarray | None,
        human_systems: Sequence[str],
        rated_only: bool,
    ) -> _Products:
        matrices: list[np.ndarray] = []
        metric_slots: dict[str, list[int]] = {}
        whole_columns: dict[str, np.ndarray] = {}
        widths: dict[str, list[int]] = {}
        whole = _DistinctColumns()
        slots_of: dict[tuple[int, ...], list[int]] = {}  # metrics sharing statistics (GTM's)
        for metric in scores.metrics:
            statistics = [scores.statistics[metric.name][s] for s in scores.systems]
            widths[metric.name] = [s.shape[1] for s in statistics]
            if all(np.array_equal(s, np.round(s)) for s in statistics):
                whole_columns[metric.name] = whole.add(np.hstack(statistics))
                continue
            shared = tuple(map(id, statistics))
            if shared not in slots_of:
                slots_of[shared] = list(range(len(matrices), len(matrices) + len(statistics)))
                matrices += statistics
            metric_slots[metric.name] = slots_of[shared]
        whole_slot = None
        if whole_columns:
            whole_slot = len(matrices)
            matrices.append(whole.matrix())
        human_slot, rated_only_slots = None, {}
        if human is not None:
            rated = np.isfinite(human)
            human_slot = len(matrices)
            matrices += [np.where(rated, human, 0.0).T, rated.T.astype(np.float64)]
            if rated_only:
                for metric in scores.metrics:
                    start = len(matrices)
                    matrices += [
                        scores.statistics[metric.name][system] * rated[row][:, None]
                        for row, system in enumerate(human_systems)
                    ]
                    rated_only_slots[metric.name] = list(range(start, len(matrices)))
        return cls(
            matrices,
            metric_slots,
            whole_columns,
            whole_slot,
            human_slot,
            rated_only_slots,
            scores.metrics,
            widths,
        )

    def metric_scores(self, metric: Metric, sums: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Each system's score under ``metric`` in every resample."""
        if metric.name in self.whole_columns:
            assert self.whole_slot is not None
            stacked = sums[self.whole_slot][:, self.whole_columns[metric.name]]
            parts = np.split(stacked, np.cumsum(self.widths[metric.name])[:-1], axis=1)
        else:
            parts = [sums[slot] for slot in self.metric_slots[metric.name]]
        return [metric.score_from_totals(np.ascontiguousarray(part)) for part in parts]

    def human_resamples(self, sums: Sequence[np.ndarray]) -> _HumanResamples:
        assert self.human_slot is not None
        means = resampled_means(sums[self.human_slot], sums[self.human_slot + 1])
        metric_scores = {
            metric.name: np.stack(
                [metric.score_from_totals(sums[s]) for s in self.rated_only_slots[metric.name]],
                axis=-1,
            )
            for metric in self.metrics
            if metric.name in self.rated_only_slots
        }
        return _HumanResamples(means, metric_scores)


class _DistinctColumns:
    """Whole-number statistic columns, each distinct column kept once: chrF++'s character n-gram
    counts are chrF's, P's, R's, F1's and Fmean's are one set, BLEU's hypothesis length is its
    unigram total. On WMT21 en-de with all eleven built-in metrics, 1,520 whole-number columns
    are 1,184 distinct ones: a fifth less of the bootstrap's widest product."""

    def __init__(self) -> None:
        self._columns: list[np.ndarray] = []  # views of the statistics, in their own dtype
        self._by_digest: dict[bytes, list[int]] = {}  # a column's digest -> where it is kept

    def add(self, matrix: np.ndarray) -> np.ndarray:
        """Where each column of ``matrix`` is kept (added if no kept column equals it)."""
        positions = np.empty(matrix.shape[1], dtype=np.intp)
        for j in range(matrix.shape[1]):
            column = matrix[:, j]
            values = np.ascontiguousarray(column, dtype=np.float64)  # int32 and float64 alike
            digest = hashlib.blake2b(values.tobytes(), digest_size=16).digest()
            kept = self._by_digest.setdefault(digest, [])
            equal = next((k for k in kept if np.array_equal(self._columns[k], column)), None)
            if equal is None:
                equal = len(self._columns)
                self._columns.append(column)
                kept.append(equal)
            positions[j] = equal
        return positions

    def matrix(self) -> np.ndarray:
        """The kept columns side by side, as the product takes them (float64)."""
        stacked = np.empty((len(self._columns[0]), len(self._columns)))
        for j, column in enumerate(self._columns):
            stacked[:, j] = column
        return stacked


def with_segments_only(scores: Scores) -> Scores:
    """``scores`` without the metrics whose system scores are not the means of their segments:
    system scores only (nothing to resample), or their own file's (see
    ``Scores.not_resampled``)."""
    without = scores.not_resampled()
    if not without:
        return scores
    kept = [metric for metric in scores.metrics if metric.name not in without]
    statistics = {m.name: scores.statistics[m.name] for m in kept}
    return replace(scores, metrics=kept, statistics=statistics)


def paired_tests(
    systems: Sequence[str],
    metric: str,
    samples: np.ndarray,
    observed: np.ndarray,
    n_segments: int,
) -> list[PairedTest]:
    """Every two systems under one metric, Holm-corrected over those pairs; on too few of
    ``n_segments``, their p-values undefined with the reason."""
    if why_no_paired_test(n_segments):
        return undefined_tests(systems, metric, observed, n_segments)
    return holm_corrected_tests(systems, metric, paired_p_values(samples, observed), observed)


def holm_corrected_tests(
    systems: Sequence[str], metric: str, p: np.ndarray, observed: np.ndarray
) -> list[PairedTest]:
    """Every two systems' records from an (n, n) matrix of p-values of any paired test (the
    bootstrap's, approximate randomization's), Holm-corrected over the pairs."""
    index_pairs = list(combinations(range(len(systems)), 2))
    adjusted = holm(np.array([p[a, b] for a, b in index_pairs])) if index_pairs else []
    return [
        PairedTest(
            a=systems[a],
            b=systems[b],
            metric=metric,
            delta=float(observed[a] - observed[b]),
            p=float(p[a, b]),
            p_holm=float(p_holm),
        )
        for (a, b), p_holm in zip(index_pairs, adjusted)
    ]


def why_no_p_values(pairs: Sequence[PairedTest]) -> str | None:
    """Why ``pairs`` have no p-values (too few segments: then none of them has one), or None."""
    return next((pair.undefined["p"] for pair in pairs if pair.p is None), None)


def undefined_pairs(scores: Scores, n_segments: int) -> list[PairedTest]:
    """Every metric's pairs on too few of ``n_segments`` for a paired test: ``undefined_tests``.
    The bootstrap and approximate randomization share it."""
    corpus = scores.corpus()
    return [
        test
        for metric in scores.metric_names
        for test in undefined_tests(
            scores.systems,
            metric,
            np.array([corpus[s][metric] for s in scores.systems]),
            n_segments,
        )
    ]


def undefined_tests(
    systems: Sequence[str], metric: str, observed: np.ndarray, n_segments: int
) -> list[PairedTest]:
    """Every two systems' records on too few segments: the difference, no p-value, and why."""
    reason = why_no_paired_test(n_segments)
    assert reason is not None, f"{n_segments} segments are enough for a paired test"
    return [
        PairedTest(
            a=systems[a],
            b=systems[b],
            metric=metric,
            delta=float(observed[a] - observed[b]),
            p=None,
            p_holm=None,
            undefined={"p": reason, "p_holm": reason},
        )
        for a, b in combinations(range(len(systems)), 2)
    ]


def _resampled_agreement(
    scores: Scores,
    samples: Mapping[str, np.ndarray],
    resampled: _HumanResamples,
    human: np.ndarray,
    human_systems: Sequence[str],
    options: BootstrapOptions,
    rated_only: bool,
) -> ResampledAgreement:
    """On the resamples of the scores: the human scores' intervals, the correlations' intervals
    and the comparison of every two metrics."""
    observed = metric_scores_for_human(scores, human, human_systems, rated_only)
    statistics, resampled_pearson = _system_level_correlations(
        scores, samples, resampled, human, human_systems, observed, options, rated_only
    )
    human_ci: dict[str, tuple[float, float] | None] = {}
    human_undefined: dict[str, str] = {}
    for system, column in zip(human_systems, resampled.means.T):
        # None when no resample drew a segment this system was rated on
        human_ci[system] = percentile_interval(column, options.confidence)
        if human_ci[system] is None:
            human_undefined[system] = "no rated segment in any resample"
    signs = orientation(scores)
    oriented = {name: signs[name] * values for name, values in observed.items()}
    comparisons = compare_metrics(oriented, human, resampled_pearson)
    return ResampledAgreement(observed, statistics, human_ci, human_undefined, comparisons)


def _system_level_correlations(
    scores: Scores,
    samples: Mapping[str, np.ndarray],
    resampled: _HumanResamples,
    human: np.ndarray,
    human_systems: Sequence[str],
    observed: Mapping[str, np.ndarray],
    options: BootstrapOptions,
    rated_only: bool,
) -> tuple[dict[str, SystemCorrelations], dict[str, np.ndarray]]:
    """Every metric's system-level correlations with the human scores, with intervals from the
    segment resamples, and its Pearson correlation in each resample."""
    human_observed = np.array([np.nanmean(row) for row in human])
    human_samples = resampled.means
    if rated_only:
        resampled_scores = resampled.metric_scores
    else:
        columns = [scores.systems.index(s) for s in human_systems]
        resampled_scores = {m: samples[m][:, columns] for m in scores.metric_names}
    statistics, resampled_pearson = {}, {}
    signs = orientation(scores)
    for name in scores.metric_names:
        metric_samples = signs[name] * resampled_scores[name]
        statistics[name] = with_intervals(
            correlations(signs[name] * observed[name], human_observed),
            metric_samples,
            human_samples,
            options.confidence,
        )
        resampled_pearson[name] = pearson_rows(metric_samples, human_samples)
    return statistics, resampled_pearson


def orientation(scores: Scores) -> dict[str, float]:
    """metric -> +1, or -1 for a lower-is-better metric (TER): correlations, accuracies and
    rankings use every metric oriented higher-is-better, as mt-metrics-eval does with -TER."""
    return {m.name: 1.0 if m.higher_is_better else -1.0 for m in scores.metrics}


def metric_scores_for_human(
    scores: Scores,
    human: np.ndarray,
    human_systems: Sequence[str],
    rated_only: bool = False,
) -> dict[str, np.ndarray]:
    """metric -> score of each human-rated system: on all segments, or (``rated_only``) on the
    segments that system was rated on."""
    rated = np.isfinite(human)
    result = {}
    for metric in scores.metrics:
        columns = []
        for row, system in enumerate(human_systems):
            stats = scores.statistics[metric.name][system]
            weights = rated[row].astype(np.float64) if rated_only else np.ones(stats.shape[0])
            columns.append(metric.score_from_totals(weights @ stats))
        result[metric.name] = np.stack(columns, axis=-1)
    return result


# ---------------------------------------------------------------- which metric agrees better
def compare_metrics(
    values: Mapping[str, np.ndarray],
    human: np.ndarray,
    resampled_pearson: Mapping[str, np.ndarray],
) -> tuple[MetricComparison, ...]:
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
                undefined["share_a_better"] = undefined["williams_p_a_better"] = undefined_pearson(
                    metric, reason
                )
        share = williams = None
        if r["a"] is not None and r["b"] is not None:
            share = _share_of_resamples_first_higher(resampled_pearson[a], resampled_pearson[b])
            if share is None:
                undefined["share_a_better"] = NO_DEFINED_RESAMPLE
            r_ab, n = pearson(values[a], values[b]), len(human_scores)
            reason = why_williams_undefined(r["a"], r["b"], r_ab, n)
            williams = None if reason else williams_test(r["a"], r["b"], r_ab, n)
            if reason:
                undefined["williams_p_a_better"] = reason
        comparisons.append(MetricComparison(a, b, r["a"], r["b"], share, williams, undefined))
    return tuple(comparisons)


def undefined_pearson(metric: str, reason: str) -> str:
    """Why a comparison with ``metric`` has neither a share nor Williams' test: its Pearson
    correlation has no value. One wording for the JSON (the metric's name) and the dashboard's
    tables (its label)."""
    return f"the Pearson correlation of {metric} is undefined ({reason})"


def _share_of_resamples_first_higher(first: np.ndarray, second: np.ndarray) -> float | None:
    """Share of resamples where ``first`` > ``second``, ties counting half, over the resamples
    where both are defined; None if there are none."""
    both = np.isfinite(first) & np.isfinite(second)
    if not both.any():
        return None
    a, b = first[both], second[both]
    return float(np.mean(a > b) + 0.5 * np.mean(a == b))
