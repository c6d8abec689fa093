"""MQM as a loss: error points under user weights, rankings, and the reversal map over two weights.

An MQM score is a weighted count of errors, i.e. a loss whose costs are the weights. A weight is
given for "severity[/category[/subcategory]]" and the most specific one that matches an error
applies, as in Google's mt-metrics-eval (converters/score_mqm.py): with the default weights a Minor
Fluency/Punctuation error costs 0.1 and every other Minor error 1. A segment's points are summed per
rater and averaged over its raters; Google publishes the negated points as the segment score
(higher is better). Here points are a loss: lower is better.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.loss.annotations import ErrorType, MqmAnnotations
from mteval_core.loss.reversal import AffineLosses

GOOGLE_WEIGHTS: dict[str, float] = {
    "Major": 5.0,
    "Minor": 1.0,
    "Neutral": 0.0,
    "Major/Non-translation!": 25.0,
    "Minor/Fluency/Punctuation": 0.1,
}
# Severities with no key in GOOGLE_WEIGHTS: mt-metrics-eval's score_mqm.py weighs them 0. Google's
# scheme has no Critical severity (google/wmt-mqm-human-evaluation's README: Major, Minor and
# Neutral, and the Non-translation category), so a Critical error, where a file has one, weighs 0
# in the MQM judgments; the Loss page's weights start there too, so that its first ranking is
# the Correlation page's, and its slider is what counts them.
UNWEIGHTED_SEVERITIES = ("Critical", "Source issue", "Non-translation!")


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


@dataclass(frozen=True)
class ErrorsPerSegment:
    """Per system, the mean number of errors per rated segment that each weight key charges
    (errors summed per rating, averaged over a segment's raters, then over segments). They do not
    depend on the weights' values, so mean error points at any weights are one matrix product."""

    systems: tuple[str, ...]
    keys: tuple[str, ...]
    counts: np.ndarray  # (systems, keys)

    def points(self, weights: Mapping[str, float]) -> dict[str, float]:
        """Mean error points per rated segment (lower is better), as system_error_points."""
        values = self.counts @ np.array([weights[key] for key in self.keys])
        return {system: float(value) for system, value in zip(self.systems, values)}

    def plane(
        self,
        weights: Mapping[str, float],
        x_key: str,
        y_key: str,
        systems: Sequence[str] | None = None,
    ) -> AffineLosses:
        """Mean error points as an affine function of two weights, the others held at
        ``weights``; only ``systems`` (all by default), e.g. to keep a map readable."""
        for key in (x_key, y_key):
            if key not in self.keys:
                raise InputError(
                    f"there is no weight {key!r}", hint=f"Choose from: {', '.join(self.keys)}."
                )
        if x_key == y_key:
            raise InputError("choose two different weights for the map")
        rows = [self.systems.index(system) for system in (systems or self.systems)]
        counts = self.counts[rows]
        fixed = [index for index, key in enumerate(self.keys) if key not in (x_key, y_key)]
        offset = counts[:, fixed] @ np.array([weights[self.keys[index]] for index in fixed])
        x, y = self.keys.index(x_key), self.keys.index(y_key)
        coefficients = np.column_stack([offset, counts[:, x], counts[:, y]])
        return AffineLosses(tuple(self.systems[row] for row in rows), coefficients)


def errors_per_segment(annotations: MqmAnnotations, keys: Iterable[str]) -> ErrorsPerSegment:
    """Charge every error to the most specific of ``keys`` that matches it (see weight_key)."""
    keys = tuple(keys)
    resolved = _resolved_keys(annotations, dict.fromkeys(keys, 0.0))
    pairs, means = _mean_counts_per_segment(annotations)
    systems = tuple(dict.fromkeys(system for system, _segment in pairs))
    owner = np.array([systems.index(system) for system, _segment in pairs])
    per_system = np.array([means[owner == index].mean(axis=0) for index in range(len(systems))])
    counts = np.column_stack(
        [per_system[:, [found == key for found in resolved]].sum(axis=1) for key in keys]
    )
    return ErrorsPerSegment(systems, keys, counts)


def weight_plane_losses(
    annotations: MqmAnnotations, weights: Mapping[str, float], x_key: str, y_key: str
) -> AffineLosses:
    """Every system's mean error points as an affine function of two weights, the others held at
    ``weights``. An error counts towards the weight its most specific key names, so moving "Minor"
    leaves Minor punctuation errors (key "Minor/Fluency/Punctuation") where they are."""
    return errors_per_segment(annotations, weights).plane(weights, x_key, y_key)


def starting_weights(annotations: MqmAnnotations) -> dict[str, float]:
    """Google's weights, plus a weight of 0 for each severity the annotations have that no key
    of them matches (Critical; ``Source issue`` or ``Non-translation!`` written as a severity):
    the weight mt-metrics-eval's scorer gives them, and so the MQM judgments', which the user
    can then raise."""
    weights = dict(GOOGLE_WEIGHTS)
    for severity in unweighted_errors(annotations):
        weights[severity] = 0.0
    return weights


def unweighted_errors(annotations: MqmAnnotations) -> dict[str, int]:
    """Severity -> how many errors of it no key of GOOGLE_WEIGHTS matches, in the order of
    UNWEIGHTED_SEVERITIES: they weigh 0 in mt-metrics-eval's scores, and a note says so."""
    per_type = annotations.counts.sum(axis=0) if len(annotations.ratings) else ()
    found = dict.fromkeys(UNWEIGHTED_SEVERITIES, 0)
    for (severity, category), count in zip(annotations.error_types, per_type):
        if severity in found and weight_key((severity, category), GOOGLE_WEIGHTS) is None:
            found[severity] += int(count)
    return {severity: count for severity, count in found.items() if count}


def weight_box(x_max: float, y_max: float) -> np.ndarray:
    """The domain of a two-weight map: both weights from 0 to their maximum (counter-clockwise)."""
    return np.array([[0.0, 0.0], [x_max, 0.0], [x_max, y_max], [0.0, y_max]])


def mqm_segment_scores(
    annotations: MqmAnnotations, weights: Mapping[str, float] = GOOGLE_WEIGHTS
) -> dict[tuple[str, str], float]:
    """(system, segment key) -> MQM score, bit for bit as mt-metrics-eval computes it.

    The rules of google-research/mt-metrics-eval ``mt_metrics_eval/converters/score_mqm.py``
    (commit 68a481a, read for this; its defaults are GOOGLE_WEIGHTS): an error weighs the
    weight of the longest prefix of [severity, *category.split('/')] that is a key, compared
    without regard to case, and 0 when none is (so Critical, ``HOTW-test``, ``No-error`` and a
    ``Source issue`` or ``Non-translation!`` severity weigh 0; a ``Source issue`` *category*
    weighs its severity's weight, and Major/``Non-translation!`` 25). A rater's points are the sum
    of their rows' weights in file order; every rater with a row for the segment counts, one
    with only ``No-error`` or ``HOTW-test`` rows with 0 points; the segment's points are the
    mean over its raters (``sum(rater points) / raters``, raters in the order of their first
    row) and its score is minus that: higher is better, 0 for a flawless segment.
    """
    lowered = {key.lower(): value for key, value in weights.items()}
    type_weights = [_path_weight(error_type, lowered) for error_type in annotations.error_types]
    per_rating = [0.0] * len(annotations.ratings)
    for rating, error_type in annotations.error_rows.tolist():
        per_rating[rating] += type_weights[error_type]
    raters: dict[tuple[str, str], list[float]] = {}
    for (system, segment, _rater), points in zip(annotations.ratings, per_rating):
        raters.setdefault((system, segment), []).append(points)
    return {pair: -(sum(points) / len(points)) for pair, points in raters.items()}


def _path_weight(error_type: ErrorType, lowered: Mapping[str, float]) -> float:
    """score_mqm.py's Score(): the most specific matching key's weight, else 0."""
    severity, category = error_type
    parts = [severity.lower(), *category.lower().split("/")]
    while parts:
        key = "/".join(parts)
        if key in lowered:
            return lowered[key]
        parts.pop()
    return 0.0
