"""MQM as a loss: error points under user weights, rankings, and the reversal map over two weights.

An MQM score is a weighted count of errors, i.e. a loss whose costs are the weights. A weight is
given for "severity[/category[/subcategory]]" and the most specific one that matches an error
applies, as in Google's mt-metrics-eval (converters/score_mqm.py): with the default weights a Minor
Fluency/Punctuation error costs 0.1 and every other Minor error 1. A segment's points are summed per
rater and averaged over its raters; Google publishes the negated points as the segment score
(higher is better). Here points are a loss: lower is better.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.mqm import ErrorType, MqmAnnotations
from mteval_core.loss.reversal import AffineLosses

GOOGLE_WEIGHTS: dict[str, float] = {
    "Major": 5.0,
    "Minor": 1.0,
    "Neutral": 0.0,
    "Major/Non-translation!": 25.0,
    "Minor/Fluency/Punctuation": 0.1,
}


def weight_key(error_type: ErrorType, weights: Mapping[str, float]) -> str | None:
    """The most specific key of ``weights`` that matches, or None."""
    severity, category = error_type
    parts = [severity, *category.split("/")] if category else [severity]
    while parts:
        key = "/".join(parts)
        if key in weights:
            return key
        parts.pop()
    return None


def _resolved_keys(annotations: MqmAnnotations, weights: Mapping[str, float]) -> list[str]:
    keys = []
    for error_type in annotations.error_types:
        key = weight_key(error_type, weights)
        if key is None:
            raise InputError(
                f"no weight applies to {error_type[0]} errors of category {error_type[1]!r}",
                origin=annotations.origin,
                column="severity",
                hint=f"Add a weight for {error_type[0]!r}.",
            )
        keys.append(key)
    return keys


def _mean_counts_per_segment(
    annotations: MqmAnnotations,
) -> tuple[list[tuple[str, str]], np.ndarray]:
    """Per (system, segment): error counts averaged over the segment's raters."""
    rows: dict[tuple[str, str], list[int]] = {}
    for index, (system, segment, _rater) in enumerate(annotations.ratings):
        rows.setdefault((system, segment), []).append(index)
    means = np.array([annotations.counts[indices].mean(axis=0) for indices in rows.values()])
    return list(rows), means.reshape(len(rows), len(annotations.error_types))


def segment_error_points(
    annotations: MqmAnnotations, weights: Mapping[str, float] = GOOGLE_WEIGHTS
) -> dict[tuple[str, str], float]:
    """(system, seg_id) -> MQM error points, summed per rater and averaged over raters."""
    keys = _resolved_keys(annotations, weights)
    per_rating = annotations.counts @ np.array([weights[key] for key in keys])
    totals: dict[tuple[str, str], list[float]] = {}
    for (system, segment, _rater), points in zip(annotations.ratings, per_rating):
        totals.setdefault((system, segment), []).append(float(points))
    return {pair: sum(values) / len(values) for pair, values in totals.items()}


def system_error_points(
    annotations: MqmAnnotations, weights: Mapping[str, float] = GOOGLE_WEIGHTS
) -> dict[str, float]:
    """Mean error points per rated segment of every system (lower is better)."""
    per_system: dict[str, list[float]] = {}
    for (system, _segment), points in segment_error_points(annotations, weights).items():
        per_system.setdefault(system, []).append(points)
    return {system: sum(points) / len(points) for system, points in per_system.items()}


def weight_plane_losses(
    annotations: MqmAnnotations, weights: Mapping[str, float], x_key: str, y_key: str
) -> AffineLosses:
    """Every system's mean error points as an affine function of two weights, the others held at
    ``weights``. An error counts towards the weight its most specific key names, so moving "Minor"
    leaves Minor punctuation errors (key "Minor/Fluency/Punctuation") where they are."""
    for key in (x_key, y_key):
        if key not in weights:
            raise InputError(
                f"there is no weight {key!r}", hint=f"Choose from: {', '.join(weights)}."
            )
    if x_key == y_key:
        raise InputError("choose two different weights for the map")
    keys = _resolved_keys(annotations, weights)
    pairs, means = _mean_counts_per_segment(annotations)
    systems = list(dict.fromkeys(system for system, _segment in pairs))
    owner = np.array([systems.index(system) for system, _segment in pairs])
    per_system = np.array([means[owner == index].mean(axis=0) for index in range(len(systems))])
    by_key = {key: per_system[:, [k == key for k in keys]].sum(axis=1) for key in weights}
    offset = sum(
        (weights[key] * by_key[key] for key in weights if key not in (x_key, y_key)),
        start=np.zeros(len(systems)),
    )
    coefficients = np.column_stack([offset, by_key[x_key], by_key[y_key]])
    return AffineLosses(tuple(systems), coefficients)


def weight_box(x_max: float, y_max: float) -> np.ndarray:
    """The domain of a two-weight map: both weights from 0 to their maximum (counter-clockwise)."""
    return np.array([[0.0, 0.0], [x_max, 0.0], [x_max, y_max], [0.0, y_max]])
