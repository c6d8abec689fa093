"""Segment-level scores of several automatic metrics for the systems of one language pair,
aligned segment by segment: what AutoRank ranks from, and what its bootstrap resamples.

A segment is what the scores file scores one at a time (a WMT25 paragraph); segments are named
by their domain, document and position in the document, so that every system's score of one
segment sits in one column. A missing score (``null`` in the file) is NaN: a system's mean over
a metric skips it, as the organisers' script does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class SegmentKey:
    """Where one segment is: its domain, its document and its place in the document."""

    domain: str
    document: str
    index: int


@dataclass(frozen=True)
class MetricSegments:
    """``scores[metric]`` is a float array of systems x segments (NaN where none was given)."""

    language_pair: str
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    segments: tuple[SegmentKey, ...]
    scores: Mapping[str, np.ndarray]

    def system_means(self) -> np.ndarray:
        """Systems x metrics: each system's mean over the segments it has a score for."""
        return np.column_stack([_nanmean_rows(self.scores[m]) for m in self.metrics])

    def only(self, systems: tuple[str, ...] | None = None, metrics: tuple[str, ...] | None = None):
        """The same scores for some of the systems and metrics (in the order given)."""
        systems = self.systems if systems is None else systems
        metrics = self.metrics if metrics is None else metrics
        rows = [self.systems.index(s) for s in systems]
        return MetricSegments(
            self.language_pair,
            tuple(systems),
            tuple(metrics),
            self.segments,
            {m: self.scores[m][rows] for m in metrics},
        )


def _nanmean_rows(matrix: np.ndarray) -> np.ndarray:
    """Row means skipping NaN; a row with no score at all is NaN (said by the caller)."""
    counts = np.sum(~np.isnan(matrix), axis=1)
    sums = np.nansum(matrix, axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
