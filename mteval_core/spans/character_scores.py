"""WMT25 task 2's score: precision, recall and F1 of predicted spans per character.

The organisers' ``scripts/scoring/task2/scoring_esa.py`` (wmt-conference/wmt25-mteval, read at
d1f6ab9) counts, for every character of a target, how many gold and predicted spans of each
severity cover it (Critical counts as Major; Undecided and, here, Neutral are left out; a
character under two spans counts twice). A character earns full credit for each predicted span
of the gold's severity over it, and ``partial_credit`` (0.5) for each left over on either side
that the other side has at the wrong severity. Precision is the credit over the predicted
characters, recall over the gold ones, each 1.0 when there is nothing to divide by, F1 0 when
both are 0. The script pools the characters of all segments of a language pair (micro) and
then takes the plain mean of the pairs' precision, recall and F1.

Its last lines print that mean precision as ``avg_rec`` and the mean recall as ``avg_prec``
(``average_scores[0]`` is precision); the per-pair lines are labelled right. Here precision is
precision. The credit is kept as whole counts (full, partial) and multiplied once, so with the
script's 0.5 every number is the script's bit for bit (tests/spans/test_wmt25_oracle.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.model.spans import CRITICAL, MAJOR, MINOR, ErrorSpan

PARTIAL_CREDIT = 0.5  # WMT25's credit for an error found at the wrong severity
SEVERITY_ROW = {MAJOR: 0, CRITICAL: 0, MINOR: 1}  # the script's two counts; others not counted


@dataclass(frozen=True)
class PrecisionRecall:
    precision: float
    recall: float
    f1: float

    @classmethod
    def of(cls, matched: float, gold: float, predicted: float) -> PrecisionRecall:
        """scoring_esa.py's prec_rec_f1: 1.0 where nothing was predicted (or is gold)."""
        precision = matched / predicted if predicted else 1.0
        recall = matched / gold if gold else 1.0
        f1 = (2 * precision * recall) / (precision + recall) if precision + recall else 0.0
        return cls(precision, recall, f1)

    @classmethod
    def mean(cls, scores: Sequence[PrecisionRecall]) -> PrecisionRecall:
        """The plain mean of each (WMT25's average over language pairs; a macro-average)."""
        means = np.mean(np.array([[s.precision, s.recall, s.f1] for s in scores]), axis=0)
        return cls(float(means[0]), float(means[1]), float(means[2]))


@dataclass(frozen=True)
class CharacterTally:
    """One segment's (or many segments') characters: credit as whole counts, and the totals."""

    full: int  # characters under a predicted span of the gold's severity
    partial: int  # characters under spans of the other severity, on both sides
    gold: int
    predicted: int

    def matched(self, partial_credit: float = PARTIAL_CREDIT) -> float:
        return self.full + partial_credit * self.partial

    def scores(self, partial_credit: float = PARTIAL_CREDIT) -> PrecisionRecall:
        return PrecisionRecall.of(self.matched(partial_credit), self.gold, self.predicted)

    def __add__(self, other: CharacterTally) -> CharacterTally:
        return CharacterTally(
            self.full + other.full,
            self.partial + other.partial,
            self.gold + other.gold,
            self.predicted + other.predicted,
        )


def severity_counts(spans: Iterable[ErrorSpan], length: int) -> np.ndarray:
    """(2, length): how many Major (with Critical) and Minor spans cover each character."""
    counts = np.zeros((2, length), dtype=np.int64)
    for span in spans:
        row = SEVERITY_ROW.get(span.severity)
        if row is not None and span.in_target:
            counts[row, span.start : span.end] += 1
    return counts


def character_tally(
    gold: Iterable[ErrorSpan], predicted: Iterable[ErrorSpan], length: int
) -> CharacterTally:
    """The credit of one segment, as scoring_esa.py's loop over its characters gives it."""
    gold_counts, predicted_counts = (
        severity_counts(gold, length),
        severity_counts(predicted, length),
    )
    full = np.minimum(gold_counts, predicted_counts).sum()
    gold_left = np.maximum(gold_counts - predicted_counts, 0).sum(axis=0)
    predicted_left = np.maximum(predicted_counts - gold_counts, 0).sum(axis=0)
    partial = np.minimum(gold_left, predicted_left).sum()
    return CharacterTally(
        int(full), int(partial), int(gold_counts.sum()), int(predicted_counts.sum())
    )


def micro(
    tallies: Sequence[CharacterTally], partial_credit: float = PARTIAL_CREDIT
) -> PrecisionRecall:
    """Characters pooled over the segments: WMT25's score of one language pair."""
    return sum(tallies, CharacterTally(0, 0, 0, 0)).scores(partial_credit)


def macro(
    tallies: Sequence[CharacterTally], partial_credit: float = PARTIAL_CREDIT
) -> PrecisionRecall:
    """Each segment scored alone, then the mean: every segment weighs the same."""
    return PrecisionRecall.mean([tally.scores(partial_credit) for tally in tallies])
