"""Metric scores from anywhere as AutoRank's input: the segment scores of external metrics (an
mt-metrics-eval folder's ``metric-scores/``, a user's COMET or MetricX files) aligned system by
system into the ``MetricSegments`` that WMT25's score files give.

AutoRank reads every metric as higher-is-better (WMT25's metrics all are), so a metric whose
lower scores are better enters with its sign flipped, said in a note; the recipe's robust
z-scores are invariant to a metric's shift and scale, so nothing else changes. A segment that a
metric does not score is NaN, skipped in that system's mean as WMT25's script skips ``null``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval_core.errors import InputError
from mteval_core.metrics.external import ExternalMetric
from mteval_core.model.metric_segments import MetricSegments, SegmentKey


def segments_of_metrics(
    language_pair: str, systems: Sequence[str], metrics: Sequence[ExternalMetric]
) -> tuple[MetricSegments, tuple[str, ...]]:
    """The segment scores of ``metrics`` for ``systems`` (every metric must score them at
    segment level), and the notes of what was flipped."""
    without = [m.name for m in metrics if not m.segment_level]
    if without:
        raise InputError(
            f"{language_pair}: {', '.join(without)} has system scores only, and AutoRank's "
            "system scores are the means of segment scores here",
            hint="Leave it out of the AutoRank metrics, or give its segment scores.",
        )
    n_segments = metrics[0].n_segments
    segments = tuple(SegmentKey("", "", index) for index in range(n_segments))
    scores = {}
    for metric in metrics:
        sign = 1.0 if metric.higher_is_better else -1.0
        rows = [metric.segment_scores(metric.statistics_of(system)) for system in systems]
        scores[metric.name] = sign * np.vstack(rows)
    flipped = [m.name for m in metrics if not m.higher_is_better]
    notes = (f"{', '.join(flipped)}: lower is better, entered with the sign flipped",) * bool(
        flipped
    )
    names = tuple(m.name for m in metrics)
    return MetricSegments(language_pair, tuple(systems), names, segments, scores), notes
