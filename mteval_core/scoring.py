"""Score every system of a test set with a list of metrics: the one call the CLI and app make."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.config import Options, signature
from mteval_core.errors import InputError, Note
from mteval_core.metrics import get_metric
from mteval_core.metrics.base import Metric
from mteval_core.ngrams import EncodedCorpus
from mteval_core.testset import TestSet


@dataclass(frozen=True, eq=False)
class Scores:
    """Corpus and segment scores of every system, with the statistics they came from."""

    signature: str
    systems: list[str]
    metrics: list[Metric]
    statistics: dict[str, dict[str, np.ndarray]]  # metric name -> system -> (n_segments, n_stats)
    notes: tuple[str, ...] = ()  # what a reader of these scores must know (errors.Note)

    @property
    def metric_names(self) -> list[str]:
        return [m.name for m in self.metrics]

    def corpus(self) -> dict[str, dict[str, float]]:
        """system -> metric -> corpus score."""
        return {
            system: {m.name: m.corpus_score(self.statistics[m.name][system]) for m in self.metrics}
            for system in self.systems
        }

    def documents(self, documents: Sequence[str]) -> dict[str, dict[str, dict[str, float]]]:
        """system -> metric -> document -> score, from the statistics summed per document.

        ``documents`` gives each segment's document id; documents keep their first-seen order.
        Like mteval and GTM 1.4, a document is scored as a small corpus, not as a mean.
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
                result[system][metric.name] = dict(
                    zip(names, metric.score_from_totals(sums).tolist())
                )
        return result

    def segments(self) -> dict[str, dict[str, np.ndarray]]:
        """system -> metric -> segment scores."""
        return {
            system: {name: self.segment_scores(system, name) for name in self.metric_names}
            for system in self.systems
        }

    def segment_scores(self, system: str, metric_name: str) -> np.ndarray:
        """One system's segment scores under one metric, without computing all the others."""
        metric = self.metrics[self.metric_names.index(metric_name)]
        return metric.segment_scores(self.statistics[metric_name][system])


def run_signature(options: Options, metrics: Sequence[Metric], n_references: int) -> str:
    """One signature for a whole run: preprocessing plus every chosen metric's own options."""
    extra: dict[str, str] = {}
    for metric in metrics:
        extra.update(metric.signature_options())
    return signature(options, n_references, extra)


Progress = Callable[[float], None]  # told the share of the work done, 0..1


def score_test_set(
    test_set: TestSet,
    metric_names: Sequence[str],
    options: Options,
    progress: Progress | None = None,
) -> Scores:
    """Tokenize once, then extract every metric's per-segment statistics for every system."""
    if not test_set.systems:
        raise InputError("there is no system output to score", hint="Add at least one system file.")
    metrics = [get_metric(name, options) for name in metric_names]
    corpus = EncodedCorpus(test_set, options)
    statistics: dict[str, dict[str, np.ndarray]] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", Note)
        for done, metric in enumerate(metrics):
            if progress:
                progress(done / len(metrics))
            statistics[metric.name] = {s: metric.statistics(corpus, s) for s in corpus.systems}
    notes = []
    for warning in caught:  # notes are kept (once each, e.g. gtm and gtm_precision say the same)
        if issubclass(warning.category, Note):
            notes.append(str(warning.message))
        else:  # anything else goes on as if it had not been caught
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    for note in dict.fromkeys(notes):
        warnings.warn(note, Note, stacklevel=2)
    return Scores(
        signature=run_signature(options, metrics, corpus.n_references),
        systems=test_set.system_names,
        metrics=metrics,
        statistics=statistics,
        notes=tuple(dict.fromkeys(notes)),
    )
