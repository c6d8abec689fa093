"""Everything `mteval spans` and the Spans page report for two annotations of the same
translations: the span scores (agreement), each side's MQM scores from its spans, error-free
detection (WMT26 task 3) where the gold has ESA scores, and critical-error detection (WMT25)
of the predicted side's scores, or of its MQM points where it has no scores of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from mteval_core.model.spans import SpanAnnotation, SpanAnnotations
from mteval_core.spans.agreement import FIRST, Pair, SpanAgreement, agreement, paired
from mteval_core.spans.character_scores import PARTIAL_CREDIT
from mteval_core.spans.criticality import critical_error_f1
from mteval_core.spans.error_free import (
    GOLD_THRESHOLD,
    Detection,
    detection,
    gold_error_free,
    predicted_error_free,
)
from mteval_core.spans.span_mqm import gemba_points, google_points

OWN_SCORES = "the predicted annotations' own scores"
MQM_POINTS = "minus the predicted spans' MQM points (Google's weights)"


@dataclass(frozen=True)
class SideMqm:
    """Mean MQM score (minus the points, higher is better) of one side over the pairs."""

    google: float
    gemba: float


@dataclass(frozen=True)
class SpanEvaluation:
    spans: SpanAgreement
    mqm: dict[str, SideMqm]  # "gold", "predicted"
    error_free: Detection | None  # None: the gold has no ESA scores
    critical_f1: dict[str, float] | None  # per language pair, and "mean"; None without scores
    critical_from: str | None

    def as_dict(self) -> dict:
        return asdict(self)


def _mqm(annotations: Sequence[SpanAnnotation]) -> SideMqm:
    count = len(annotations)
    return SideMqm(
        -sum(google_points(a) for a in annotations) / count,
        -sum(gemba_points(a) for a in annotations) / count,
    )


def _critical(pairs: Sequence[Pair]) -> tuple[dict[str, float] | None, str | None]:
    """WMT25's critical-error F1 per language pair (two or more translations) and their mean."""
    if any(pair.gold.score is None for pair in pairs):
        return None, None
    own = all(pair.predicted.score is not None for pair in pairs)
    groups: dict[str, tuple[list[float], list[float]]] = {}
    for pair in pairs:
        human, metric = groups.setdefault(pair.language_pair or "all", ([], []))
        human.append(pair.gold.score)
        metric.append(pair.predicted.score if own else -google_points(pair.predicted))
    found = {
        name: critical_error_f1(human, metric)
        for name, (human, metric) in sorted(groups.items())
        if len(human) >= 2
    }
    if not found:
        return None, None
    found["mean"] = sum(found.values()) / len(found)
    return found, OWN_SCORES if own else MQM_POINTS


def evaluate_spans(
    gold: SpanAnnotations,
    predicted: SpanAnnotations,
    gold_choice: str = FIRST,
    predicted_choice: str = FIRST,
    partial_credit: float = PARTIAL_CREDIT,
    error_free_threshold: float = GOLD_THRESHOLD,
) -> SpanEvaluation:
    """The evaluation of ``predicted`` against ``gold`` on the translations both have."""
    pairs, notes = paired(gold, predicted, gold_choice, predicted_choice)
    scores = agreement(
        pairs,
        f"{gold.origin} {gold_choice}",
        f"{predicted.origin} {predicted_choice}",
        partial_credit,
        [*gold.notes, *(predicted.notes if predicted is not gold else ()), *notes],
    )
    has_scores = all(pair.gold.score is not None for pair in pairs)
    error_free = (
        detection(
            [gold_error_free(pair.gold, error_free_threshold) for pair in pairs],
            [predicted_error_free(pair.predicted) for pair in pairs],
        )
        if has_scores
        else None
    )
    critical, critical_from = _critical(pairs)
    return SpanEvaluation(
        scores,
        {
            "gold": _mqm([pair.gold for pair in pairs]),
            "predicted": _mqm([pair.predicted for pair in pairs]),
        },
        error_free,
        critical,
        critical_from,
    )
