"""Error-free detection, WMT26's task 3: is a translation free of errors?

The gold label (https://www2.statmt.org/wmt26/mteval-subtask3.html) is 1, error-free, when the
human ESA score is at least 85 and the annotation has no error span; 0 otherwise. A prediction
is error-free when it marks no span (a span system converted, as WMT26 converts task 1
submissions) and, where it carries a score and a threshold is given, that score reaches it.
Error-free is the positive class of precision, recall and F1; Matthews' correlation uses all
four cells. A ratio with nothing to divide is 0, and MCC is 0 when a row or column of the
table is empty (scikit-learn's conventions), so no figure is NaN.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from mteval_core.errors import InputError
from mteval_core.model.spans import SpanAnnotation

GOLD_THRESHOLD = 85.0  # WMT26: an ESA score at least this, and no span


def gold_error_free(annotation: SpanAnnotation, threshold: float = GOLD_THRESHOLD) -> bool:
    if annotation.score is None:
        raise InputError(
            f"the gold annotation of system {annotation.system!r}, segment "
            f"{annotation.segment!r} has no score; error-free gold needs ESA scores",
            origin=annotation.origin,
            line=annotation.line,
        )
    return annotation.score >= threshold and not annotation.spans


def predicted_error_free(annotation: SpanAnnotation, threshold: float | None = None) -> bool:
    if annotation.spans:
        return False
    return threshold is None or annotation.score is None or annotation.score >= threshold


@dataclass(frozen=True)
class Detection:
    true_positives: int
    false_positives: int
    false_negatives: int
    true_negatives: int
    precision: float
    recall: float
    f1: float
    mcc: float


def detection(gold: Sequence[bool], predicted: Sequence[bool]) -> Detection:
    """Precision, recall, F1 (error-free the positive class) and Matthews' correlation."""
    tp = sum(g and p for g, p in zip(gold, predicted))
    fp = sum(p and not g for g, p in zip(gold, predicted))
    fn = sum(g and not p for g, p in zip(gold, predicted))
    tn = len(gold) - tp - fp - fn
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    margins = (tp + fp) * (tp + fn) * (tn + fp) * (tn + fn)
    mcc = (tp * tn - fp * fn) / math.sqrt(margins) if margins else 0.0
    return Detection(tp, fp, fn, tn, precision, recall, f1, mcc)
