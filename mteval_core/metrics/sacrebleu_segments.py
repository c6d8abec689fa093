"""Per-segment statistics of the metrics sacreBLEU computes on raw text (chrF, chrF++, TER).

chrF counts character n-grams of the untokenized text and TER tokenizes with its own Tercom rules,
so neither can use the shared token arrays of :class:`~mteval_core.ngrams.EncodedCorpus`. Their
statistics come from sacreBLEU itself, which makes them sacreBLEU's by construction; only the
scores computed from summed statistics are ours (vectorised, see chrf.py and ter.py).

sacreBLEU has no public API for per-segment statistics. This module uses four private members of
``sacrebleu.metrics.base.Metric`` -- ``_cache_references``, ``_preprocess_segment``,
``_compute_segment_statistics`` (the loop body of ``_extract_corpus_statistics``) and the layout of
the lists they return -- which are unchanged from sacreBLEU 2.3.2 (TER's empty-reference fix) to
2.6.0. The tests compare every score with sacreBLEU's public ``corpus_score`` and
``sentence_score``, so a change in a later version shows up there.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from mteval_core.config import Options
from mteval_core.metrics.base import Metric
from mteval_core.ngrams import EncodedCorpus
from mteval_core.testset import TestSet

if TYPE_CHECKING:  # sacreBLEU is imported when a raw-text metric is used, not with the registry
    from sacrebleu.metrics.base import Metric as SacrebleuMetric


class SegmentStatistics:
    """One sacreBLEU metric's statistics against fixed references, each distinct (segment,
    hypothesis) pair computed once: systems often agree on short segments, and TER's shift search
    costs milliseconds per segment."""

    def __init__(self, scorer: SacrebleuMetric, references: Sequence[Sequence[str]]) -> None:
        self._scorer = scorer
        self._references = scorer._cache_references(references)  # per segment, preprocessed
        self._known: dict[tuple[int, str], list[float]] = {}

    def __call__(self, hypotheses: Sequence[str]) -> np.ndarray:
        """(n_segments, n_stats) statistics of one system's hypotheses, as floats."""
        if len(hypotheses) != len(self._references):
            raise ValueError(f"{len(hypotheses)} hypotheses for {len(self._references)} segments")
        rows = []
        for key in enumerate(hypotheses):
            if key not in self._known:
                index, hypothesis = key
                self._known[key] = self._scorer._compute_segment_statistics(
                    self._scorer._preprocess_segment(hypothesis), self._references[index]
                )
            rows.append(self._known[key])
        return np.array(rows, dtype=np.float64)


class RawTextMetric(Metric):
    """A metric whose statistics sacreBLEU computes from the raw text of the test set."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._statistics_for: tuple[TestSet, SegmentStatistics] | None = None

    @abstractmethod
    def scorer(self) -> SacrebleuMetric:
        """The sacreBLEU metric object that matches this metric and its options."""

    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        return self.text_statistics(corpus.test_set, system)

    def text_statistics(self, test_set: TestSet, system: str) -> np.ndarray:
        """(n_segments, n_stats) statistics of one system, from the raw text: chrF and TER do
        their own preprocessing. Reference information is extracted once per test set."""
        if self._statistics_for is None or self._statistics_for[0] is not test_set:
            references = [reference.segments for reference in test_set.references]
            self._statistics_for = (test_set, SegmentStatistics(self.scorer(), references))
        return self._statistics_for[1](test_set.system(system))
