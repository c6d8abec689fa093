"""Bucket edges and their labels, as compare-mt draws them.

compare-mt puts a value in the first bucket whose edge it is below (``value < edge``), or in the
last one past every edge. Labels read ``<10``, ``[10,20)``, ``>=60``; whole-number buckets one
wide read as the number (``-5``), as compare-mt prints them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np

# compare-mt 0.2.10's defaults
FREQUENCY_EDGES = (1, 2, 3, 4, 5, 10, 100, 1000)
LENGTH_EDGES = (10, 20, 30, 40, 50, 60)
LENGTH_DIFFERENCE_EDGES = (-20, -10, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6, 11, 21)
SENTENCE_BLEU_EDGES = tuple(x * 100.0 / 10.0 for x in range(1, 10))  # scale 100, as its default


@dataclass(frozen=True)
class Buckets:
    """Edges (increasing) and one label per bucket (one more than the edges)."""

    edges: tuple[float, ...]
    labels: tuple[str, ...]

    @classmethod
    def whole(cls, edges: Sequence[int]) -> Buckets:
        return cls(tuple(edges), bucket_labels(edges, whole_numbers=True))

    @classmethod
    def real(cls, edges: Sequence[float]) -> Buckets:
        return cls(tuple(edges), bucket_labels(edges, whole_numbers=False))

    def __len__(self) -> int:
        return len(self.labels)

    def index(self, values: np.ndarray | Sequence[float]) -> np.ndarray:
        """The bucket of each value: the number of edges at or below it."""
        return np.searchsorted(np.asarray(self.edges), np.asarray(values), side="right")

    def one_hot(self, values: np.ndarray | Sequence[float]) -> np.ndarray:
        """(n_values, n_buckets) float: 1 in each value's bucket."""
        index = self.index(values)
        matrix = np.zeros((len(index), len(self)))
        matrix[np.arange(len(index)), index] = 1.0
        return matrix


def bucket_labels(edges: Sequence[float], whole_numbers: bool) -> tuple[str, ...]:
    """compare-mt's ``Bucketer.set_bucket_cutoffs`` labels."""
    labels = []
    for i, edge in enumerate(edges):
        if i == 0:
            labels.append(f"<{edge}")
        elif whole_numbers and edge - 1 == edges[i - 1]:
            labels.append(f"{edge - 1}")
        else:
            labels.append(f"[{edges[i - 1]},{edge})")
    labels.append(f">={edges[-1]}")
    return tuple(labels)


@dataclass(frozen=True, eq=False)  # it holds arrays
class BucketMatrices:
    """One bucket analysis before resampling: ``evaluate`` maps column sums (..., n_columns)
    of a system's matrix to (..., n_buckets, n_measures)."""

    key: str  # its key in the JSON report
    title: str
    buckets: Buckets
    measures: tuple[str, ...]  # keys in the JSON
    measure_labels: tuple[str, ...]  # how people read them
    matrices: tuple[np.ndarray, ...]  # per system, (n_sentences, n_columns)
    evaluate: Callable[[np.ndarray], np.ndarray]
    sizes: Callable[[np.ndarray], dict[str, list[int]]]  # column sums -> counts per bucket
    main_measure: int = -1  # the one drawn and compared between the systems
    # per system, each sentence's bucket (sentence buckets); None where buckets hold words
    members: tuple[np.ndarray, ...] | None = None

    def joined(self, other: BucketMatrices) -> BucketMatrices:
        """This analysis with ``other``'s systems after its own: the same buckets and
        functions (both built against the same reference), the matrices side by side."""
        members = None
        if self.members is not None and other.members is not None:
            members = self.members + other.members
        return replace(self, matrices=self.matrices + other.matrices, members=members)
