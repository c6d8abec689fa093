"""Score every system of a test set with a list of metrics: the one call the CLI and app make."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from mteval_core.engine.ngrams import CorpusCounts, EncodedCorpus
from mteval_core.errors import InputError, Note, collected_notes, say
from mteval_core.metrics import REGISTRY, get_metric
from mteval_core.metrics.base import Metric
from mteval_core.metrics.external import ExternalMetric
from mteval_core.model.testset import TestSet
from mteval_core.settings.options import Options, scoring_options, signature


@dataclass(frozen=True, eq=False)
class Scores:
    """Corpus and segment scores of every system, with the statistics they came from."""

    signature: str
    systems: list[str]
    metrics: list[Metric]
    # metric name -> system -> (n_segments, n_stats); n_stats is 0 for a metric with system
    # scores only (see without_segments)
    statistics: dict[str, dict[str, np.ndarray]]
    notes: tuple[str, ...] = ()  # what a reader of these scores must know (errors.Note)
    # statistics kind -> the notes computing its statistics gave (kinds: statistics_kind_of)
    kind_notes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # metric name -> that metric's own signature, as sacreBLEU prints one per metric: TER's says
    # case:lc while BLEU's says case:mixed (see metric_signature)
    signatures: dict[str, str] = field(default_factory=dict)

    @property
    def metric_names(self) -> list[str]:
        return [m.name for m in self.metrics]

    def without_segments(self) -> dict[str, str]:
        """metric name -> why statistics over segments are undefined for it, for every metric
        that has system scores only (an external metric read from system scores).

        Bootstrap intervals, paired tests, document scores, segment scores and segment-level
        correlations of such a metric are undefined, with this reason; asked for anyway, its
        statistics raise an InputError that gives it. Corpus scores and system-level
        correlations are defined for every metric.
        """
        return {
            m.name: m.why_no_segments
            for m in self.metrics
            if isinstance(m, ExternalMetric) and m.why_no_segments
        }

    def not_resampled(self) -> dict[str, str]:
        """metric name -> why bootstrap intervals and paired tests are undefined for it: the
        metrics of :meth:`without_segments`, and external metrics whose system scores come from
        their own file and are not the means of their segment scores (their segment scores and
        segment-level correlations are defined)."""
        return {
            m.name: m.why_not_resampled
            for m in self.metrics
            if isinstance(m, ExternalMetric) and m.why_not_resampled
        }

    def corpus(self) -> dict[str, dict[str, float]]:
        """system -> metric -> corpus score."""
        return {
            system: {m.name: self._corpus_score(m, system) for m in self.metrics}
            for system in self.systems
        }

    def _corpus_score(self, metric: Metric, system: str) -> float:
        if isinstance(metric, ExternalMetric):  # its own number, also without segments
            return metric.system_score(system)
        return metric.corpus_score(self.statistics[metric.name][system])

    def documents(self, documents: Sequence[str]) -> dict[str, dict[str, dict[str, float]]]:
        """system -> metric -> document -> score, from the statistics summed per document.

        ``documents`` gives each segment's document id; documents keep their first-seen order.
        Like mteval and GTM 1.4, a document is scored as a small corpus, not as a mean. A
        document that an external metric scores no segment of has no score: NaN.
        """
        position = {name: k for k, name in enumerate(dict.fromkeys(documents))}
        names = list(position)
        index = np.fromiter((position[d] for d in documents), np.int64, len(documents))
        result: dict[str, dict[str, dict[str, float]]] = {}
        for system in self.systems:
            result[system] = {}
            for metric in self.metrics:
                stats = self.statistics[metric.name][system]
                sums = np.zeros((len(names), stats.shape[1]))
                np.add.at(sums, index, stats)
                document_scores = (
                    metric.scored_means(sums)
                    if isinstance(metric, ExternalMetric)
                    else metric.score_from_totals(sums)
                )
                result[system][metric.name] = dict(zip(names, document_scores.tolist()))
        return result

    def segments(self) -> dict[str, dict[str, np.ndarray]]:
        """system -> metric -> segment scores; NaN where an external metric scores none."""
        return {
            system: {name: self.segment_scores(system, name) for name in self.metric_names}
            for system in self.systems
        }

    def segment_scores(self, system: str, metric_name: str) -> np.ndarray:
        """One system's segment scores under one metric, without computing all the others."""
        metric = self.metrics[self.metric_names.index(metric_name)]
        return metric.segment_scores(self.statistics[metric_name][system])


def run_signature(options: Options, metrics: Sequence[Metric], n_references: int) -> str:
    """One signature for a whole run: preprocessing plus every chosen metric's own options.

    A metric that treats case otherwise than the preprocessing says how as ``<name>-case``
    (``ter-case:lc`` by default), so the one line stays true for every number of the run.
    """
    extra: dict[str, str] = {}
    for metric in metrics:
        extra.update(metric.signature_options())
        if metric.case_label not in (None, options.case_label):
            extra[f"{metric.name}-case"] = metric.case_label
    return signature(options, n_references, extra)


def metric_signature(options: Options, metric: Metric, n_references: int) -> str:
    """One metric's signature, as sacreBLEU prints one per metric: its own case, then the
    run's preprocessing and the metric's own options."""
    return signature(
        options,
        n_references,
        metric.signature_options(),
        metric.case_label,
        tokens=metric.reads_tokens,
    )


def metric_signatures(
    options: Options, metrics: Sequence[Metric], n_references: int
) -> dict[str, str]:
    """metric name -> :func:`metric_signature`."""
    return {metric.name: metric_signature(options, metric, n_references) for metric in metrics}


Progress = Callable[[float], None]  # told the share of the work done, 0..1


def score_test_set(
    test_set: TestSet,
    metric_names: Sequence[str],
    options: Options,
    progress: Progress | None = None,
    external: Sequence[ExternalMetric] = (),
    corpus_counts: CorpusCounts | None = None,
) -> Scores:
    """Tokenize once, then extract every metric's per-segment statistics for every system.

    ``external`` metrics (scores read from files, see ``io.metric_scores``) follow the built-in
    ones, with the statistics they carry; their notes join the run's. ``corpus_counts``: the
    reference n-gram counts of the whole corpus this test set is part of (a shard's), for NIST.
    """
    if not test_set.systems:
        raise InputError("there is no system output to score", hint="Add at least one system file.")
    builtin = [get_metric(name, options) for name in metric_names]
    _check_external(external, builtin, test_set)
    statistics: dict[str, dict[str, np.ndarray]] = {}
    kind_notes: dict[str, list[str]] = {}
    with collected_notes() as said:
        if builtin:  # external scores alone need no tokenizing
            corpus = EncodedCorpus(test_set, options, corpus_counts=corpus_counts)
            statistics = _builtin_statistics(corpus, builtin, progress, said, kind_notes)
    for metric in external:
        statistics[metric.name] = {s: metric.statistics_of(s) for s in test_set.system_names}
    metrics: list[Metric] = [*builtin, *external]
    notes = [*said, *(note for metric in external for note in metric.notes)]
    for note in dict.fromkeys(notes):
        say(note, Note, stacklevel=2)
    return Scores(
        signature=run_signature(options, metrics, len(test_set.references)),
        systems=test_set.system_names,
        metrics=metrics,
        statistics=statistics,
        notes=tuple(dict.fromkeys(notes)),
        signatures=metric_signatures(options, metrics, len(test_set.references)),
        kind_notes={kind: tuple(dict.fromkeys(said)) for kind, said in kind_notes.items()},
    )


def _builtin_statistics(
    corpus: EncodedCorpus,
    metrics: Sequence[Metric],
    progress: Progress | None,
    said: list[str],
    kind_notes: dict[str, list[str]],
) -> dict[str, dict[str, np.ndarray]]:
    """Every metric's statistics, system by system: a system's n-gram tables are dropped as soon
    as its statistics are out, so memory holds one system's tables, not all of them. Metrics of
    one ``statistics_kind`` share one read-only array. The notes a kind's computation adds to
    ``said`` are also listed under it in ``kind_notes``, so that a kind's statistics can be
    kept with their own notes (``statistics_parts``)."""
    statistics: dict[str, dict[str, np.ndarray]] = {metric.name: {} for metric in metrics}
    for metric in metrics:
        kind_notes.setdefault(statistics_kind_of(metric.name), [])
    for done, system in enumerate(corpus.systems):
        if progress:
            progress(done / len(corpus.systems))
        computed: dict[str, np.ndarray] = {}  # statistics kind -> array
        for metric in metrics:
            kind = statistics_kind_of(metric.name)
            if kind not in computed:
                before = len(said)
                computed[kind] = compact(metric.statistics(corpus, system))
                computed[kind].flags.writeable = False
                kind_notes[kind].extend(said[before:])
            statistics[metric.name][system] = computed[kind]
        corpus.release(system)
    for metric in metrics:
        metric.forget_test_set()
    return statistics


# ------------------------------------------------------------- statistics kept kind by kind
def statistics_kind_of(metric_name: str) -> str:
    """The statistics a built-in metric reads: its ``statistics_kind`` (P, R, F1 and Fmean share
    "unigram"), else its own name."""
    return REGISTRY[metric_name].statistics_kind or metric_name


def kind_scoring_options(kind_metric: str, options: Options) -> Options:
    """The options that change the statistics of ``kind_metric``'s kind (settings.options
    ``scoring_options``): equal for two runs, equal statistics."""
    metric = REGISTRY[kind_metric]
    return scoring_options(options, metric.family, metric.reads_tokens)


@dataclass(frozen=True, eq=False)
class StatisticsPart:
    """One statistics kind's per-segment statistics of every system, with the notes computing
    them gave: what the dashboard keeps of a kind under its scoring options, so that a change of
    one metric's parameter re-scores that metric's kind alone."""

    by_system: dict[str, np.ndarray]
    notes: tuple[str, ...]


def statistics_parts(scores: Scores) -> dict[str, StatisticsPart]:
    """Each built-in statistics kind of ``scores`` as a StatisticsPart."""
    parts = {}
    for metric in scores.metrics:
        if isinstance(metric, ExternalMetric):
            continue
        kind = statistics_kind_of(metric.name)
        if kind not in parts:
            by_system = scores.statistics[metric.name]
            parts[kind] = StatisticsPart(by_system, scores.kind_notes.get(kind, ()))
    return parts


def assembled_scores(
    parts: dict[str, StatisticsPart],
    metric_names: Sequence[str],
    options: Options,
    test_set: TestSet,
    external: Scores | None = None,
) -> Scores:
    """The Scores ``score_test_set(test_set, metric_names, options, external=...)`` gives, from
    statistics kept kind by kind (``parts``, by kind) and, for the external metrics, a Scores
    of them alone: the built-in metrics in the given order, made under ``options`` (so their
    signatures are the run's), then the external ones; the same statistics and notes."""
    metrics: list[Metric] = [get_metric(name, options) for name in metric_names]
    statistics = {name: parts[statistics_kind_of(name)].by_system for name in metric_names}
    notes = [note for name in metric_names for note in parts[statistics_kind_of(name)].notes]
    if external is not None:
        metrics += external.metrics
        statistics.update(external.statistics)
        notes += external.notes
    n_references = len(test_set.references)
    return Scores(
        signature=run_signature(options, metrics, n_references),
        systems=test_set.system_names,
        metrics=metrics,
        statistics=statistics,
        notes=tuple(dict.fromkeys(notes)),
        signatures=metric_signatures(options, metrics, n_references),
        kind_notes={kind: parts[kind].notes for kind in map(statistics_kind_of, metric_names)},
    )


WHOLE_NUMBER_TYPES = (np.int8, np.int16, np.int32)  # narrowest first; signed, so differences
# of two statistics stay right


def compact(statistics: np.ndarray) -> np.ndarray:
    """Statistics that are all whole numbers (counts: BLEU, P, R, F, chrF, GTM at e = 1) in the
    narrowest signed integer type that holds them all: int16 for nearly every test set (segments
    under 32,768 tokens), an eighth of float64's memory, int8 where every count is under 128.
    Their sums and scores do not change: float64 adds whole numbers exactly too, sums of small
    integers are int64 in numpy, and every metric turns its statistics into float64 before
    dividing."""
    whole = (
        statistics.size > 0
        and np.issubdtype(statistics.dtype, np.floating)
        and np.array_equal(statistics, np.trunc(statistics))  # False for NaN and infinities
    )
    if not whole:
        return statistics
    low, high = statistics.min(), statistics.max()
    for dtype in WHOLE_NUMBER_TYPES:
        if np.iinfo(dtype).min <= low and high <= np.iinfo(dtype).max:
            return statistics.astype(dtype)
    return statistics


def _check_external(
    external: Sequence[ExternalMetric], builtin: Sequence[Metric], test_set: TestSet
) -> None:
    """Unique names, and scores read for this test set (its segments, all its systems)."""
    seen = {metric.name: "a built-in metric" for metric in builtin}
    for metric in external:
        if metric.name in seen:
            raise InputError(
                f"two metrics are named {metric.name!r} ({seen[metric.name]} and the scores "
                f"of {metric.origin})",
                hint="Give every metric its own name.",
            )
        seen[metric.name] = f"the scores of {metric.origin}"
        metric.check_fits(test_set)
