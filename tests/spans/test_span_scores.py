"""Span matching, MQM from spans (Google's weights equal to mt-metrics-eval's on Google's
release; GEMBA-MQM's rule), error-free detection and critical-error detection (the organisers'
own f1 pinned)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from mteval_core.errors import InputError
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.loss.mqm_loss import mqm_segment_scores
from mteval_core.model.spans import (
    CRITICAL,
    MAJOR,
    MINOR,
    NEUTRAL,
    ErrorSpan,
    SpanAnnotation,
    SpanAnnotations,
)
from mteval_core.spans.criticality import critical_error_f1
from mteval_core.spans.error_free import detection, gold_error_free, predicted_error_free
from mteval_core.spans.mqm_marks import read_mqm_spans
from mteval_core.spans.span_matching import EXACT, OVERLAP, SpanTally, span_tally
from mteval_core.spans.span_mqm import GEMBA, gemba_points, google_points, mqm_scores
from tests.helpers import shared_dataset

PINNED = json.loads(
    (Path(__file__).parent / "fixtures" / "wmt25_task2_oracle.json").read_text(encoding="utf-8")
)


def test_exact_and_partial_overlap_matching():
    gold = [ErrorSpan(0, 4, MAJOR), ErrorSpan(10, 12, MINOR)]
    predicted = [ErrorSpan(0, 4, MINOR), ErrorSpan(11, 15, MINOR), ErrorSpan(20, 22, MAJOR)]
    assert span_tally(gold, predicted, EXACT) == SpanTally(1, 3, 1, 2)
    assert span_tally(gold, predicted, OVERLAP) == SpanTally(2, 3, 2, 2)
    assert span_tally(gold, predicted, OVERLAP, severity=True) == SpanTally(1, 3, 1, 2)
    touching = [ErrorSpan(4, 10, MAJOR)]  # shares no character with either gold span
    assert span_tally(gold, touching, OVERLAP) == SpanTally(0, 1, 0, 2)


def test_empty_spans_match_only_exactly_and_uncounted_severities_are_left_out():
    gold = [ErrorSpan(3, 3, MAJOR), ErrorSpan(5, 8, NEUTRAL)]
    assert span_tally(gold, [ErrorSpan(3, 3, MAJOR)], OVERLAP) == SpanTally(1, 1, 1, 1)
    assert span_tally(gold, [ErrorSpan(2, 4, MAJOR)], OVERLAP) == SpanTally(0, 1, 0, 1)


def annotation(*spans: ErrorSpan, score: float | None = None) -> SpanAnnotation:
    return SpanAnnotation("S", "1", "a", "x" * 40, tuple(spans), score)


def test_google_weights_from_spans():
    spans = (
        ErrorSpan(0, 1, MAJOR, "Accuracy/Mistranslation"),
        ErrorSpan(1, 2, MINOR, "Fluency/Punctuation"),
        ErrorSpan(2, 3, MINOR, "Style/Awkward"),
        ErrorSpan(3, 4, CRITICAL, "Accuracy"),  # no Critical key: 0, as mt-metrics-eval
        ErrorSpan(0, 0, MAJOR, "Non-translation!", in_target=False),
    )
    assert google_points(annotation(*spans)) == 5 + 0.1 + 1 + 0 + 25


def test_gemba_counts_five_errors_worst_first_and_caps_at_25():
    assert gemba_points(annotation(ErrorSpan(0, 1, MINOR), ErrorSpan(1, 2, MAJOR))) == 6
    six = [ErrorSpan(i, i + 1, MINOR) for i in range(5)] + [ErrorSpan(9, 10, MAJOR)]
    assert gemba_points(annotation(*six)) == 5 + 4  # the Major and four of the six Minors
    assert gemba_points(annotation(*[ErrorSpan(i, i + 1, MAJOR) for i in range(6)])) == 25
    assert gemba_points(annotation(ErrorSpan(0, 1, MINOR, "Non-translation"))) == 25
    assert gemba_points(annotation(ErrorSpan(0, 1, NEUTRAL))) == 0
    read = SpanAnnotations("f", (annotation(ErrorSpan(0, 1, MAJOR)), annotation()))
    assert mqm_scores(read, GEMBA) == {("S", "1"): -2.5}


def test_google_scores_from_spans_equal_mt_metrics_eval_on_google_wmt23_zhen(wmt23_zhen_mqm):
    ours = mqm_scores(wmt23_zhen_mqm.spans)
    theirs = mqm_segment_scores(read_mqm(wmt23_zhen_mqm.data, wmt23_zhen_mqm.name))
    assert ours == theirs  # bit for bit
    assert len(ours) == 3770


def test_error_free_gold_prediction_and_detection():
    assert gold_error_free(annotation(score=85))
    assert not gold_error_free(annotation(score=84.9))
    assert not gold_error_free(annotation(ErrorSpan(0, 1, MINOR), score=100))
    with pytest.raises(InputError, match="has no score; error-free gold needs ESA scores"):
        gold_error_free(annotation())
    assert predicted_error_free(annotation())
    assert not predicted_error_free(annotation(score=70), threshold=85)
    found = detection([True, True, False, False, True], [True, False, False, True, True])
    assert (found.true_positives, found.false_positives, found.false_negatives) == (2, 1, 1)
    assert found.precision == found.recall == found.f1 == 2 / 3
    assert found.mcc == pytest.approx((2 * 1 - 1 * 1) / math.sqrt(3 * 3 * 2 * 2))
    assert detection([True, True], [True, True]).mcc == 0.0  # a margin is empty: 0, not NaN


@pytest.mark.parametrize("case", PINNED["criticality"], ids=lambda c: f"{len(c['human'])}")
def test_critical_error_f1_equals_the_organisers_f1(case):
    assert critical_error_f1(case["human"], case["metric"]) == case["f1"]


def test_critical_error_f1_needs_two_scored_translations():
    with pytest.raises(InputError, match="two or more translations"):
        critical_error_f1([3.0], [0.1])
    with pytest.raises(InputError, match="not NaN"):
        critical_error_f1([3.0, float("nan")], [0.1, 0.2])


def test_google_wmt21_ted_ende_with_its_unclosed_mark():
    """Google's WMT21 TED en-de (2020-2021 layout): line 6,444 opens a <v> it never closes; it
    is read to the target's end, and every segment's score equals mt-metrics-eval's."""
    path = shared_dataset("wmt21-ted-mqm-ende") / "human" / "original" / "mqm_ted_ende.tsv"
    data = path.read_bytes()
    read = read_mqm_spans(data, path.name)
    assert "1 rows open a <v> mark that they never close" in read.notes[1]
    (row,) = [span for a in read.annotations for span in a.spans if span.line == 6444]
    (annotation,) = [a for a in read.annotations if row in a.spans]
    assert annotation.target[row.start : row.end] == "?" and row.end == len(annotation.target)
    assert mqm_scores(read) == mqm_segment_scores(read_mqm(data, path.name))
    assert len(read.annotations) == 7406


def test_google_wmt21_ted_zhen_reads_and_scores_as_mt_metrics_eval():
    path = shared_dataset("wmt21-ted-mqm-zhen") / "human" / "original" / "mqm_ted_zhen.tsv"
    data = path.read_bytes()
    read = read_mqm_spans(data, path.name)
    assert "1 rows open a <v> mark that they never close" in read.notes[1]
    assert mqm_scores(read) == mqm_segment_scores(read_mqm(data, path.name))
    assert len(read.annotations) == 7935
