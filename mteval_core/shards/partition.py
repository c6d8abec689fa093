"""Score one shard: the pure function a worker runs, with no Dask in it.

The shard's systems are grouped by the segments they have in it (usually all the same); each
group becomes a small in-memory TestSet, ordered by segment id, and is scored by
``scoring.score_test_set``, the in-memory path itself. What leaves the shard is small: the
statistic sums, the Poisson-bootstrap sums, the index ``coverage`` checks and the notes; segment
scores, when asked for, go straight to a file.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np

from mteval_core.engine.ngrams import CorpusCounts
from mteval_core.errors import collected_notes
from mteval_core.metrics.scoring import Scores, score_test_set
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options
from mteval_core.shards.coverage import ShardIndex, index_of
from mteval_core.shards.poisson_bootstrap import poisson_sums
from mteval_core.shards.reading import ShardRows, read_shard
from mteval_core.shards.segment_scores import SegmentScoresOut
from mteval_core.shards.sums import Sums, exactly_summed
from mteval_core.stats.bootstrap import BootstrapOptions


@dataclass(frozen=True)
class PartitionTask:
    """Everything a worker needs to score one shard (it is pickled to the worker)."""

    path: str
    metric_names: tuple[str, ...]
    options: Options
    bootstrap: BootstrapOptions | None = None
    segment_scores: SegmentScoresOut | None = None
    corpus_counts: CorpusCounts | None = None  # for NIST: the corpus's counts of its n-grams


@dataclass(frozen=True, eq=False)
class PartitionResult:
    sums: Sums
    index: ShardIndex
    n_references: int
    notes: tuple[str, ...] = ()


@dataclass
class _SegmentColumns:
    """The segment-score rows of one shard, gathered group by group."""

    systems: list[str] = field(default_factory=list)
    segments: list[np.ndarray] = field(default_factory=list)
    scores: dict[str, list[np.ndarray]] = field(default_factory=dict)

    def add(self, scores: Scores, segments: np.ndarray) -> None:
        for system in scores.systems:
            self.systems += [system] * len(segments)
            self.segments.append(segments)
            for metric in scores.metric_names:
                values = scores.segment_scores(system, metric)
                self.scores.setdefault(metric, []).append(values)


def score_partition(task: PartitionTask) -> PartitionResult:
    """Read, check and score one shard."""
    rows = read_shard(task.path)
    sums, notes, columns = Sums(), [], _SegmentColumns()
    for segments, test_set in grouped_test_sets(rows):
        with collected_notes():  # said again when scored: they come back in scores.notes
            scores = score_test_set(
                test_set, task.metric_names, task.options, corpus_counts=task.corpus_counts
            )
        where = f"{rows.origin} (segment k here: the system's k-th segment in the shard, by id)"
        notes += [f"{where}: {note}" for note in scores.notes]
        sums = sums.plus(group_sums(scores, segments, task.bootstrap))
        if task.segment_scores is not None:
            columns.add(scores, segments)
    if task.segment_scores is not None:
        task.segment_scores.write(
            rows.origin,
            columns.systems,
            np.concatenate(columns.segments),
            {metric: np.concatenate(parts) for metric, parts in columns.scores.items()},
        )
    sums = sums.ordered(list(rows.hypotheses))  # as the shard first names them, not by group
    return PartitionResult(sums, index_of(rows), len(rows.reference_keys), tuple(notes))


def grouped_test_sets(rows: ShardRows) -> Iterator[tuple[np.ndarray, TestSet]]:
    """The shard's systems, grouped by the segments they have here: per group the segment ids
    (sorted) and a TestSet of those segments in that order."""
    groups: dict[tuple[int, ...], list[str]] = {}
    for system, hypotheses in rows.hypotheses.items():
        groups.setdefault(tuple(sorted(hypotheses)), []).append(system)
    for ids, systems in groups.items():
        references = rows.reference_columns(ids)
        columns = [
            TextColumn(name, tuple(rows.hypotheses[name][s] for s in ids), rows.origin)
            for name in systems
        ]
        test_set = TestSet(references=references, systems=columns, name=rows.origin)
        yield np.array(ids, np.int64), test_set


def group_sums(scores: Scores, segments: np.ndarray, bootstrap: BootstrapOptions | None) -> Sums:
    """The statistic sums of one group and, with ``bootstrap``, its Poisson-bootstrap sums.

    Metrics that share their statistics (P, R, F1 and Fmean; GTM and its P and R) share one
    array, resampled once; all arrays are resampled side by side in one product, so the
    weights are made once for every system and metric."""
    statistics = scores.statistics
    totals = {
        m: {s: a.sum(axis=0) for s, a in by_system.items()} for m, by_system in statistics.items()
    }
    inexact = frozenset(
        m for m, by_system in statistics.items() if not all(map(exactly_summed, by_system.values()))
    )
    if bootstrap is None:
        return Sums(totals, {}, inexact)
    distinct = list(
        {id(a): a for by_system in statistics.values() for a in by_system.values()}.values()
    )
    stacked = poisson_sums(np.hstack(distinct), segments, bootstrap.seed, bootstrap.n_resamples)
    ends = np.cumsum([a.shape[1] for a in distinct])
    parts = {
        id(a): np.ascontiguousarray(part)
        for a, part in zip(distinct, np.split(stacked, ends[:-1], axis=1))
    }
    resampled = {
        m: {s: parts[id(a)] for s, a in by_system.items()} for m, by_system in statistics.items()
    }
    return Sums(totals, resampled, inexact)
