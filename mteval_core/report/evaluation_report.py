"""What `mteval report` and the dashboard's report download hold, computed once: every system's
scores, the significance clusters of paired approximate randomization, the correlations with
human scores when the test set has them, and compare-mt's analyses of one pair (by default the
two best systems under the first metric, as the Scores page orders them; the text read as the
scores read it, so the comparison's BLEU is the scores' BLEU against its reference).

``evaluation_html`` renders it; this module only decides what goes in."""

from __future__ import annotations

from dataclasses import dataclass

from mteval_core.compare.analysis import Comparison, compare_pair
from mteval_core.compare.readings import Reading, TokenizedReading
from mteval_core.errors import InputError
from mteval_core.metrics.scoring import Progress, Scores
from mteval_core.model.testset import TestSet
from mteval_core.rankings.scored_autorank import rankable_metrics, scored_autorank
from mteval_core.rankings.table import LanguagePairRanking
from mteval_core.settings.options import Options
from mteval_core.stats.approximate_randomization import (
    RandomizationOptions,
    RandomizationResult,
    approximate_randomization,
)
from mteval_core.stats.bootstrap import DEFAULT_SEED, BootstrapOptions
from mteval_core.stats.meta import MetaEvaluation, evaluate

REPORT_TRIALS = 10_000  # of approximate randomization: sacreBLEU's --paired-ar default
REPORT_RESAMPLES = 1_000  # for the comparison's intervals, as `mteval compare`


@dataclass(frozen=True, eq=False)
class EvaluationReport:
    test_set_name: str
    n_segments: int
    reference_names: tuple[str, ...]
    scores: Scores
    options_signature: str
    randomization: RandomizationResult | None  # None: fewer than two systems
    meta: MetaEvaluation | None  # None: no human judgments
    comparison: Comparison | None  # None: fewer than two systems
    compared_reference: str | None  # the reference the comparison reads (compare-mt takes one)
    # WMT25's AutoRank over the metrics with segments, on the comparison's resamples (None: fewer
    # than two systems, or no such metric); cheap beside the randomization's 10,000 trials
    autorank: LanguagePairRanking | None = None


def ranked_systems(scores: Scores) -> list[str]:
    """The systems best first under the first metric, the order of the Scores page (ties keep
    the test set's order)."""
    if not scores.metrics:
        return list(scores.systems)
    metric = scores.metrics[0]
    corpus = scores.corpus()
    sign = -1.0 if metric.higher_is_better else 1.0
    return sorted(scores.systems, key=lambda system: sign * corpus[system][metric.name])


def top_two(scores: Scores) -> tuple[str, str] | None:
    """The two best systems under the first metric, the pair compared unless one is chosen."""
    ranked = ranked_systems(scores)
    return (ranked[0], ranked[1]) if len(ranked) >= 2 else None


def compare_systems(
    test_set: TestSet,
    pair: tuple[str, str],
    reading: Reading,
    reference: int = 0,
    bootstrap: BootstrapOptions | None = None,
) -> Comparison:
    """compare-mt's analyses of ``pair`` against reference number ``reference`` (0-based), the
    text read as ``reading`` says."""
    for name in pair:
        if name not in test_set.system_names:
            raise InputError(
                f"there is no system {name!r} to compare",
                hint=f"Choose among: {', '.join(test_set.system_names)}.",
            )
    if pair[0] == pair[1]:
        raise InputError(f"compare two different systems, not {pair[0]!r} with itself")
    return compare_pair(
        test_set.references[reference].segments,
        [(name, test_set.system(name)) for name in pair],
        reading,
        bootstrap=bootstrap,
        source=test_set.source.segments if test_set.source is not None else None,
    )


@dataclass(frozen=True)
class ReportRequest:
    """What one report holds beyond the scores: approximate randomization's trials (None: no
    significance clusters), the pair compared (None: the two best), the comparison's resamples,
    the human criterion of the correlations (None: the only one, or adequacy+fluency) and how
    the comparison reads the text (None: as the scores read it)."""

    randomization: RandomizationOptions | None = None
    pair: tuple[str, str] | None = None
    bootstrap: BootstrapOptions | None = None
    criterion: str | None = None
    reading: Reading | None = None


def evaluation_report(
    test_set: TestSet,
    scores: Scores,
    options: Options,
    request: ReportRequest = ReportRequest(),
    progress: Progress | None = None,
) -> EvaluationReport:
    """Everything the report shows for ``scores`` computed under ``options``, as ``request``
    asks; by default the comparison reads the text as the scores read it
    (``TokenizedReading(options)``), so its BLEU is theirs. ``progress`` is told the share done
    (randomization first, then the comparison)."""
    randomization, pair, bootstrap = request.randomization, request.pair, request.bootstrap
    chosen = (pair[0], pair[1]) if pair else top_two(scores)
    tested = None
    if randomization is not None and len(scores.systems) >= 2:
        tested = approximate_randomization(
            scores,
            randomization,
            progress=(lambda share: progress(0.8 * share)) if progress else None,
        )
    judged = test_set.human is not None and len(test_set.human) > 0
    meta = evaluate(test_set, scores, request.criterion) if judged else None
    comparison = None
    if chosen is not None:
        reading = request.reading or TokenizedReading(options)
        comparison = compare_systems(test_set, chosen, reading, 0, bootstrap)
    autorank = None
    if len(scores.systems) >= 2 and rankable_metrics(scores):
        resamples = bootstrap.n_resamples if bootstrap else 0
        seed = bootstrap.seed if bootstrap else DEFAULT_SEED
        autorank = scored_autorank(scores, rankable_metrics(scores), resamples, seed, test_set.name)
    if progress:
        progress(1.0)
    return EvaluationReport(
        test_set.name,
        test_set.n_segments,
        tuple(test_set.reference_names),
        scores,
        options.preprocessing_signature(),
        tested,
        meta,
        comparison,
        test_set.reference_names[0] if comparison is not None else None,
        autorank,
    )
