"""Per-segment statistics of the metrics sacreBLEU computes on raw text (chrF, chrF++, TER).

chrF counts character n-grams of the untokenized text and TER tokenizes with its own Tercom rules,
so neither can use the shared token arrays of
:class:`~mteval_core.engine.ngrams.EncodedCorpus`. Their statistics come from our compiled code
(chrf_statistics.py, ter_statistics.py); where it was not built, from sacreBLEU itself, through
this module, which makes them sacreBLEU's by construction; the scores computed from summed
statistics are ours (vectorised, see chrf.py and ter.py).

sacreBLEU has no public API for per-segment statistics. This module uses four private members of
``sacrebleu.metrics.base.Metric`` -- ``_cache_references``, ``_preprocess_segment``,
``_compute_segment_statistics`` (the loop body of ``_extract_corpus_statistics``) and the layout of
the lists they return -- which are unchanged from sacreBLEU 2.3.2 (TER's empty-reference fix) to
2.6.0. The tests compare every score with sacreBLEU's public ``corpus_score`` and
``sentence_score``, so a change in a later version shows up there.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.metrics.base import Metric
from mteval_core.model.testset import TestSet
from mteval_core.settings.options import Options

if TYPE_CHECKING:  # sacreBLEU is imported when a raw-text metric is used, not with the registry
    from sacrebleu.metrics.base import Metric as SacrebleuMetric


# sacreBLEU's preprocessed references are held for this many segments at a time: chrF's are
# Counters of character n-grams, tens of kilobytes a segment (5 GB for 100,000 segments at once).
REFERENCE_BLOCK = 2_000


def segment_statistics(
    scorer: SacrebleuMetric,
    references: Sequence[Sequence[str]],
    systems: Mapping[str, Sequence[str]],
) -> dict[str, np.ndarray]:
    """Every system's (n_segments, n_stats) statistics, as floats, a block of segments at a time.

    Each block's references are preprocessed once for all systems and dropped after the block,
    so memory does not grow with the test set. A hypothesis that several systems share in one
    segment is scored once: systems often agree on short segments, and TER's shift search costs
    milliseconds per segment."""
    n_segments = len(references[0]) if references else 0
    for name, hypotheses in systems.items():
        if len(hypotheses) != n_segments:
            raise ValueError(f"{name}: {len(hypotheses)} hypotheses for {n_segments} segments")
    if n_segments == 0:
        return {name: np.array([], dtype=np.float64) for name in systems}
    result: dict[str, np.ndarray] = {}
    for start in range(0, n_segments, REFERENCE_BLOCK):
        stop = min(start + REFERENCE_BLOCK, n_segments)
        cached = scorer._cache_references([reference[start:stop] for reference in references])
        rows: dict[str, list[list[float]]] = {name: [] for name in systems}
        for index in range(start, stop):
            known: dict[str, list[float]] = {}
            for name, hypotheses in systems.items():
                hypothesis = hypotheses[index]
                if hypothesis not in known:
                    known[hypothesis] = scorer._compute_segment_statistics(
                        scorer._preprocess_segment(hypothesis), cached[index - start]
                    )
                rows[name].append(known[hypothesis])
        for name, block in rows.items():
            values = np.array(block, dtype=np.float64)
            if name not in result:
                result[name] = np.empty((n_segments, values.shape[1]))
            result[name][start:stop] = values
    return result


class RawTextMetric(Metric):
    """A metric whose statistics sacreBLEU computes from the raw text of the test set."""

    reads_tokens = False

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._statistics_for: tuple[TestSet, dict[str, np.ndarray]] | None = None

    def forget_test_set(self) -> None:
        self._statistics_for = None

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
            systems = {column.name: column.segments for column in test_set.systems}
            computed = self.compute_statistics(references, systems)
            self._statistics_for = (test_set, computed)
        return self._statistics_for[1][system]

    def compute_statistics(
        self, references: Sequence[Sequence[str]], systems: Mapping[str, Sequence[str]]
    ) -> dict[str, np.ndarray]:
        """Every system's statistics from sacreBLEU; a metric with its own counting (chrF's
        compiled one) overrides this and keeps sacreBLEU's as its fallback."""
        return segment_statistics(self.scorer(), references, systems)
