"""Spans matched as wholes: exactly (same start and end) or by partial overlap (a shared
character), with or without the same severity.

The character score (character_scores) credits every character; this counts spans, as much of
the span-detection literature does (Perrella et al. 2026, "Span-Level Machine Translation
Meta-Evaluation", compare exact match and partial overlap): a predicted span is correct when
some gold span matches it, a gold span found when some predicted span matches it. Precision is
the share of predicted spans that are correct, recall the share of gold spans found, with
character_scores' convention (1.0 when there is nothing to divide by). Only spans that
character_scores counts take part: in the target, Critical, Major or Minor (Critical and Major
are one severity, as there). An empty span (start == end) matches only exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mteval_core.model.spans import ErrorSpan
from mteval_core.spans.character_scores import SEVERITY_ROW, PrecisionRecall

EXACT = "exact"
OVERLAP = "overlap"
MATCHINGS = (EXACT, OVERLAP)


@dataclass(frozen=True)
class SpanTally:
    """Spans of one segment (or many): how many predicted were correct, gold found."""

    correct: int
    predicted: int
    found: int
    gold: int

    def scores(self) -> PrecisionRecall:
        precision = self.correct / self.predicted if self.predicted else 1.0
        recall = self.found / self.gold if self.gold else 1.0
        f1 = (2 * precision * recall) / (precision + recall) if precision + recall else 0.0
        return PrecisionRecall(precision, recall, f1)

    def __add__(self, other: SpanTally) -> SpanTally:
        return SpanTally(
            self.correct + other.correct,
            self.predicted + other.predicted,
            self.found + other.found,
            self.gold + other.gold,
        )


def counted(spans: Sequence[ErrorSpan]) -> list[ErrorSpan]:
    return [s for s in spans if s.in_target and s.severity in SEVERITY_ROW]


def matches(gold: ErrorSpan, predicted: ErrorSpan, matching: str, severity: bool) -> bool:
    if severity and SEVERITY_ROW[gold.severity] != SEVERITY_ROW[predicted.severity]:
        return False
    if matching == EXACT or gold.start == gold.end or predicted.start == predicted.end:
        return (gold.start, gold.end) == (predicted.start, predicted.end)
    return max(gold.start, predicted.start) < min(gold.end, predicted.end)


def span_tally(
    gold: Sequence[ErrorSpan],
    predicted: Sequence[ErrorSpan],
    matching: str = OVERLAP,
    severity: bool = False,
) -> SpanTally:
    """One segment's spans matched; ``severity``: a match needs the same severity too."""
    gold, predicted = counted(gold), counted(predicted)
    correct = sum(any(matches(g, p, matching, severity) for g in gold) for p in predicted)
    found = sum(any(matches(g, p, matching, severity) for p in predicted) for g in gold)
    return SpanTally(correct, len(predicted), found, len(gold))


def micro(tallies: Sequence[SpanTally]) -> PrecisionRecall:
    return sum(tallies, SpanTally(0, 0, 0, 0)).scores()


def macro(tallies: Sequence[SpanTally]) -> PrecisionRecall:
    return PrecisionRecall.mean([tally.scores() for tally in tallies])
