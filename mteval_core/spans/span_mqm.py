"""MQM scores from spans: Google's weights and GEMBA-MQM's.

Google's (mteval_core.loss.mqm_loss.GOOGLE_WEIGHTS, mt-metrics-eval's score_mqm.py): an error
weighs the weight of the most specific key of severity/category that matches, without regard
to case, and 0 when none does (Critical has no key: 0); a rating's points are its errors'
weights summed in file order, a segment's score minus their mean over its raters. From the
spans of Google's MQM files this equals mqm_segment_scores of the same file bit for bit
(tests/spans/test_span_mqm.py, Google's WMT23 zh-en release).

GEMBA-MQM's (MicrosoftTranslator/GEMBA, gemba/gemba_mqm_utils.py, read at a7a7eff): Critical
25, Major 5, Minor 1, a Non-translation error Critical whatever its severity; only the first
five errors count, taken Critical first, then Major, then Minor; the sum is capped at 25 and
negated (mteval_core.io.gemba_mqm.error_points, which also scores GEMBA-MQM's own error lists).
Neutral and Undecided spans are no error there and weigh nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from mteval_core.io.gemba_mqm import error_points
from mteval_core.loss.mqm_loss import GOOGLE_WEIGHTS, weight_key
from mteval_core.model.spans import CRITICAL, SpanAnnotation, SpanAnnotations

GOOGLE = "google"
GEMBA = "gemba"
SCHEMES = (GOOGLE, GEMBA)


def google_points(
    annotation: SpanAnnotation, weights: Mapping[str, float] = GOOGLE_WEIGHTS
) -> float:
    """The rating's error points under Google's weights, summed in file order."""
    lowered = {key.lower(): value for key, value in weights.items()}
    points = 0.0
    for span in annotation.spans:
        key = weight_key((span.severity.lower(), (span.category or "").lower()), lowered)
        points += lowered[key] if key is not None else 0.0
    return points


def gemba_points(annotation: SpanAnnotation) -> float:
    """GEMBA-MQM's error points: at most five errors, worst first, at most 25."""
    return error_points(
        [
            CRITICAL if "non-translation" in (span.category or "").lower() else span.severity
            for span in annotation.spans
        ]
    )


def mqm_scores(annotations: SpanAnnotations, scheme: str = GOOGLE) -> dict[tuple[str, str], float]:
    """(system, segment) -> minus the mean of its raters' points (higher is better)."""
    points_of = google_points if scheme == GOOGLE else gemba_points
    raters: dict[tuple[str, str], list[float]] = {}
    for annotation in annotations.annotations:
        raters.setdefault(annotation.item, []).append(points_of(annotation))
    return {item: -(sum(points) / len(points)) for item, points in raters.items()}
