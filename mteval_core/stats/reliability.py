"""Reliability against test-set size (Melamed, Green & Turian 2003, Figure 3).

A pseudo-document is k randomly chosen segments of one system (k = 1..25). It is scored by the
metric from its summed segment statistics, and by people as the mean human score of its segments.
The correlation between the two over many pseudo-documents, as k grows, shows how much text a
metric needs before it agrees with people; repeating the draw gives series that a Wilcoxon
signed-rank test can compare between two metrics (the paper's criterion). Doing this for every
combination of the available references shows what more references buy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Literal

import numpy as np

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.errors import InputError
from mteval_core.metrics import get_metric
from mteval_core.metrics.base import Metric
from mteval_core.metrics.scoring import Progress
from mteval_core.model.judgment_matrices import criterion_matrix
from mteval_core.model.testset import TestSet
from mteval_core.settings.options import Options
from mteval_core.stats.correlation import pearson_rows, spearman_rows

Statistic = Literal["pearson", "spearman"]


@dataclass(frozen=True)
class ReliabilityOptions:
    sizes: Sequence[int] = tuple(range(1, 26))
    n_documents: int = 300  # pseudo-documents per size and repetition
    repetitions: int = 10
    seed: int = 12345


@dataclass(frozen=True)
class ReliabilityCurve:
    """Correlations per size (rows) and repetition (columns)."""

    sizes: list[int]
    pearson: np.ndarray
    spearman: np.ndarray
    references: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict:
        return {
            "references": list(self.references),
            "sizes": self.sizes,
            "pearson_mean": reliability_summary(self, "pearson").mean.tolist(),
            "spearman_mean": reliability_summary(self, "spearman").mean.tolist(),
            "pearson": self.pearson.tolist(),
            "spearman": self.spearman.tolist(),
        }


@dataclass(frozen=True)
class ReliabilitySummary:
    """One statistic of a curve per size: the mean over repetitions and their range, as Melamed
    et al.'s Figure 3 draws it. Repetitions without a value (NaN) are left out."""

    sizes: list[int]
    mean: np.ndarray
    low: np.ndarray
    high: np.ndarray


def reliability_summary(
    curve: ReliabilityCurve, statistic: Statistic = "pearson"
) -> ReliabilitySummary:
    """Summarised here only, so that the figure and :meth:`ReliabilityCurve.as_dict` agree."""
    values = getattr(curve, statistic)
    return ReliabilitySummary(
        sizes=list(curve.sizes),
        mean=np.nanmean(values, axis=1),
        low=np.nanmin(values, axis=1),
        high=np.nanmax(values, axis=1),
    )


@dataclass(frozen=True, eq=False)  # it holds arrays
class PseudoDocuments:
    """The draws of the experiment: for each size (row) and repetition, which system each
    pseudo-document is of and which k rated segments it holds. They depend on the judgments
    and the seed only, so every metric and every set of references is scored on the same ones."""

    sizes: list[int]
    systems: list[list[np.ndarray]]  # [size][repetition] -> (n_documents,)
    segments: list[list[np.ndarray]]  # [size][repetition] -> (n_documents, k)


def draw_pseudo_documents(human: np.ndarray, options: ReliabilityOptions) -> PseudoDocuments:
    """k distinct rated segments of a random system per pseudo-document, seeded."""
    rng = np.random.default_rng(options.seed)
    n_systems, n_segments = human.shape
    rated = np.isfinite(human)
    sizes = [k for k in options.sizes if k <= rated.sum(axis=1).min()]
    systems: list[list[np.ndarray]] = []
    segments: list[list[np.ndarray]] = []
    for k in sizes:
        systems.append([])
        segments.append([])
        for _ in range(options.repetitions):
            system = rng.integers(0, n_systems, options.n_documents)
            keys = np.where(rated[system], rng.random((options.n_documents, n_segments)), np.inf)
            systems[-1].append(system)
            segments[-1].append(np.argpartition(keys, k - 1, axis=1)[:, :k])
    return PseudoDocuments(sizes, systems, segments)


def reliability_curve(
    metric: Metric,
    stats: np.ndarray,
    human: np.ndarray,
    options: ReliabilityOptions,
    progress: Progress | None = None,
    documents: PseudoDocuments | None = None,
) -> ReliabilityCurve:
    """``stats``: (n_systems, n_segments, n_stats); ``human``: (n_systems, n_segments), NaN where
    a segment is not rated (never drawn). ``documents``: the draws (made here when None).
    ``progress`` is told the share of sizes done. An error rate (TER) is turned round, as for
    every correlation, so that a metric that agrees with people always has a positive curve."""
    documents = documents or draw_pseudo_documents(human, options)
    sign = 1.0 if metric.higher_is_better else -1.0
    shape = (len(documents.sizes), options.repetitions)
    pearson, spearman = np.full(shape, np.nan), np.full(shape, np.nan)
    for row in range(len(documents.sizes)):
        for repetition in range(options.repetitions):
            system = documents.systems[row][repetition]
            chosen = documents.segments[row][repetition]
            totals = stats[system[:, None], chosen].sum(axis=1)
            metric_scores = sign * metric.score_from_totals(totals)
            human_scores = human[system[:, None], chosen].mean(axis=1)
            pearson[row, repetition] = pearson_rows(metric_scores[None], human_scores[None])[0]
            spearman[row, repetition] = spearman_rows(metric_scores[None], human_scores[None])[0]
        if progress:
            progress((row + 1) / len(documents.sizes))
    return ReliabilityCurve(documents.sizes, pearson, spearman)


def reliability_by_references(
    test_set: TestSet,
    metric_name: str,
    human: np.ndarray,
    options: Options,
    reliability: ReliabilityOptions,
    progress: Progress | None = None,
) -> list[ReliabilityCurve]:
    """One curve for every non-empty combination of the test set's references; the text is
    tokenized once, and each combination's statistics come from the same encoded corpus."""
    curves = []
    names = test_set.reference_names
    subsets = [s for k in range(1, len(names) + 1) for s in combinations(range(len(names)), k)]
    corpus = EncodedCorpus(test_set, options)
    metric = get_metric(metric_name, options)
    documents = draw_pseudo_documents(human, reliability)
    for done, subset in enumerate(subsets):
        reduced = corpus.with_references(subset)
        stats = np.stack([metric.statistics(reduced, s) for s in test_set.system_names])

        def curve_progress(share: float, done: int = done) -> None:
            if progress:
                progress((done + share) / len(subsets))

        curve = reliability_curve(metric, stats, human, reliability, curve_progress, documents)
        curves.append(
            ReliabilityCurve(
                curve.sizes, curve.pearson, curve.spearman, tuple(names[i] for i in subset)
            )
        )
    return curves


def reliability_of_test_set(
    test_set: TestSet,
    metric_name: str,
    criterion: str,
    options: Options,
    reliability: ReliabilityOptions,
    exclude: Sequence[str] = (),
    progress: Progress | None = None,
) -> list[ReliabilityCurve]:
    """Melamed et al.'s experiment on a test set's own segment judgments: the systems rated on
    segments (minus ``exclude``), their human scores under ``criterion``, every reference set."""
    if test_set.human is None or not len(test_set.human.segment_rows):
        raise InputError(
            "the reliability experiment needs segment-level human judgments",
            hint="Upload judgments with a segment column (system, segment_id, score).",
        )
    rated = set(test_set.human.segment_rows["system"]) - set(exclude)
    systems = [column for column in test_set.systems if column.name in rated]
    if not systems:
        raise InputError("no scored system has segment-level human judgments")
    only_rated = test_set.with_human(None).with_systems(systems)
    human = criterion_matrix(
        test_set.human, only_rated.system_names, test_set.n_segments, criterion
    )
    return reliability_by_references(only_rated, metric_name, human, options, reliability, progress)


QUICK_CURVE_CELLS = 20_000  # reference combinations x rated cells drawn without being asked


def is_quick(test_set: TestSet) -> bool:
    """Whether the experiment takes about a second or less, so a page can run it unasked: its
    cost grows with the combinations of references (each is scored and drawn again) times the
    rated (system, segment) cells (WMT21 TED en-de, 1 reference x 6,877 cells: quick; WMT21
    news en-de, 7 combinations of 3 references x 5,797 cells: about 6 s)."""
    if test_set.human is None:
        return False
    rated = len(test_set.human.segment_rows[["system", "segment"]].drop_duplicates())
    return (2 ** len(test_set.references) - 1) * rated <= QUICK_CURVE_CELLS


def compare_curves(
    a: ReliabilityCurve, b: ReliabilityCurve, statistic: Statistic = "pearson"
) -> float:
    """Wilcoxon signed-rank p-value that two metrics' correlation series differ (two-sided)."""
    x, y = getattr(a, statistic).ravel(), getattr(b, statistic).ravel()
    keep = np.isfinite(x) & np.isfinite(y)
    if not np.any(x[keep] != y[keep]):
        return 1.0
    from scipy.stats import wilcoxon  # imported where needed: scipy.stats takes ~1 s

    return float(wilcoxon(x[keep], y[keep]).pvalue)
