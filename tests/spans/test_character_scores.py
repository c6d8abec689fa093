"""WMT25's character score on cases small enough to check by hand, and its properties."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.model.spans import CRITICAL, MAJOR, MINOR, NEUTRAL, UNDECIDED, ErrorSpan
from mteval_core.spans.character_scores import (
    CharacterTally,
    PrecisionRecall,
    character_tally,
    macro,
    micro,
)


def test_the_right_severity_full_credit_the_wrong_one_half():
    gold = [ErrorSpan(0, 4, MAJOR)]
    # 2 characters at the right severity, 2 at the wrong one, 2 outside the gold
    predicted = [ErrorSpan(0, 2, MAJOR), ErrorSpan(2, 6, MINOR)]
    tally = character_tally(gold, predicted, 10)
    assert tally == CharacterTally(full=2, partial=2, gold=4, predicted=6)
    scores = tally.scores()
    assert scores.precision == 3 / 6 and scores.recall == 3 / 4
    assert scores.f1 == pytest.approx(2 * 0.5 * 0.75 / 1.25)


def test_critical_is_major_undecided_and_neutral_do_not_count():
    gold = [ErrorSpan(0, 3, CRITICAL), ErrorSpan(5, 7, UNDECIDED)]
    predicted = [ErrorSpan(0, 3, MAJOR), ErrorSpan(5, 7, NEUTRAL)]
    assert character_tally(gold, predicted, 8) == CharacterTally(3, 0, 3, 3)


def test_overlapping_spans_count_a_character_once_per_span():
    gold = [ErrorSpan(0, 4, MINOR), ErrorSpan(2, 4, MINOR)]
    predicted = [ErrorSpan(0, 4, MINOR)]
    assert character_tally(gold, predicted, 4) == CharacterTally(4, 0, 6, 4)


def test_nothing_predicted_and_nothing_gold_is_perfect_and_empty_spans_cover_nothing():
    assert character_tally([ErrorSpan(3, 3, MAJOR)], [], 5) == CharacterTally(0, 0, 0, 0)
    assert CharacterTally(0, 0, 0, 0).scores() == PrecisionRecall(1.0, 1.0, 1.0)
    assert CharacterTally(0, 0, 4, 0).scores() == PrecisionRecall(1.0, 0.0, 0.0)
    assert CharacterTally(0, 0, 0, 4).scores() == PrecisionRecall(0.0, 1.0, 0.0)


def test_errors_without_a_place_cover_no_character():
    missing = ErrorSpan(0, 0, MAJOR, in_target=False)
    assert character_tally([missing], [missing], 5) == CharacterTally(0, 0, 0, 0)


def test_micro_pools_characters_macro_weighs_segments_alike():
    long_good = CharacterTally(full=9, partial=0, gold=9, predicted=9)
    short_bad = CharacterTally(full=0, partial=0, gold=1, predicted=1)
    assert micro([long_good, short_bad]).precision == 0.9
    assert macro([long_good, short_bad]).precision == 0.5


def spans_on(length: int):
    offsets = st.integers(0, length)
    span = st.tuples(offsets, offsets, st.sampled_from([MAJOR, MINOR, CRITICAL, UNDECIDED]))
    return st.lists(span, max_size=6).map(
        lambda items: [ErrorSpan(min(a, b), max(a, b), sev) for a, b, sev in items]
    )


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 30).flatmap(lambda n: st.tuples(st.just(n), spans_on(n), spans_on(n))))
def test_equal_to_the_scripts_loop_over_characters(case):
    """scoring_esa.py's get_char_f1 loop, written out per character, on random spans."""
    length, gold, predicted = case
    g_major, g_minor, p_major, p_minor = (np.zeros(length) for _ in range(4))
    for spans, major, minor in ((gold, g_major, g_minor), (predicted, p_major, p_minor)):
        for span in spans:
            if span.severity in (MAJOR, CRITICAL):
                major[span.start : span.end] += 1
            elif span.severity == MINOR:
                minor[span.start : span.end] += 1
    tp = 0.0
    for gm, pm, gn, pn in zip(g_major, p_major, g_minor, p_minor):
        tp += min(gm, pm) + min(gn, pn)
        tp += min(max(0, gm - pm) + max(0, gn - pn), max(0, pm - gm) + max(0, pn - gn)) * 0.5
    tally = character_tally(gold, predicted, length)
    assert tally.matched() == tp
    assert tally.gold == g_major.sum() + g_minor.sum()
    assert tally.predicted == p_major.sum() + p_minor.sum()


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 30).flatmap(lambda n: st.tuples(st.just(n), spans_on(n), spans_on(n))))
def test_swapping_the_sides_swaps_precision_and_recall(case):
    length, gold, predicted = case
    forward = character_tally(gold, predicted, length).scores()
    backward = character_tally(predicted, gold, length).scores()
    assert (forward.precision, forward.recall) == (backward.recall, backward.precision)
    assert 0.0 <= forward.f1 <= 1.0
