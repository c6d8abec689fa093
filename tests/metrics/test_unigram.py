"""Unigram precision, recall, F1 and Fmean on hand-checked cases (Lavie et al. 2004, 2.2)."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

UNIGRAM = ["precision", "recall", "f1", "fmean"]


def scores(references, systems, **options):
    result = score_test_set(
        make_test_set(references, systems), UNIGRAM, Options.from_flags(**options)
    )
    return result.corpus(), result.segments()


def test_single_reference_by_hand():
    # "the" twice in both, "cat", "on", "mat": m = 5 of 6 candidate and 7 reference words
    corpus, _ = scores(["the cat is on the mat today"], {"s": ["the cat sat on the mat"]})
    p, r = 5 / 6, 5 / 7
    assert corpus["s"]["precision"] == pytest.approx(p)
    assert corpus["s"]["recall"] == pytest.approx(r)
    assert corpus["s"]["f1"] == pytest.approx(2 * p * r / (p + r))
    assert corpus["s"]["fmean"] == pytest.approx(10 * p * r / (9 * p + r))


def test_matching_is_one_to_one():
    # three "the" in the candidate, one in the reference: only one of them matches
    corpus, _ = scores(["the dog"], {"s": ["the the the"]})
    assert corpus["s"]["precision"] == pytest.approx(1 / 3)
    assert corpus["s"]["recall"] == pytest.approx(1 / 2)


def test_best_fmean_reference_is_kept_per_segment():
    # reference 1 gives P = 1, R = 2/6; reference 2 gives P = 1/2, R = 1/2.
    # Fmean(1) = 10 * 1 * (1/3) / (9 + 1/3) = 0.357; Fmean(2) = 0.5: reference 2 is kept,
    # and P, R, F1 all come from it although reference 1 has the better precision.
    refs = [["a b x y z w"], ["a c"]]
    _, segments = scores(refs, {"s": ["a b"]})
    assert segments["s"]["precision"][0] == pytest.approx(1 / 2)
    assert segments["s"]["recall"][0] == pytest.approx(1 / 2)
    assert segments["s"]["fmean"][0] == pytest.approx(0.5)
    # Fmean = 1 / (alpha / R + (1 - alpha) / P): with alpha = 0 it is precision, and reference 1
    # wins instead
    _, precision_first = scores(refs, {"s": ["a b"]}, fmean_alpha=0.0)
    assert precision_first["s"]["precision"][0] == pytest.approx(1.0)


def test_corpus_scores_are_micro_averages():
    # segment 1: m = 1 of 1 candidate word, 4 reference words; segment 2: m = 2 of 4 and 2
    corpus, segments = scores(["a b c d", "e f"], {"s": ["a", "e f g h"]})
    assert corpus["s"]["precision"] == pytest.approx(3 / 5)  # not the mean of 1 and 1/2
    assert corpus["s"]["recall"] == pytest.approx(3 / 6)
    np.testing.assert_allclose(segments["s"]["precision"], [1.0, 0.5])
    np.testing.assert_allclose(segments["s"]["recall"], [0.25, 1.0])


def test_alpha_half_gives_f1():
    corpus, _ = scores(["a b c d"], {"s": ["a b x"]}, fmean_alpha=0.5)
    assert corpus["s"]["fmean"] == pytest.approx(corpus["s"]["f1"])


def test_empty_segments_score_zero_not_nan():
    corpus, segments = scores(["a b", ""], {"s": ["", "x"]})
    for metric in UNIGRAM:
        assert corpus["s"][metric] == 0.0
        assert not np.isnan(segments["s"][metric]).any()


def test_porter_stemming_matches_word_forms():
    refs = ["the dogs were running quickly"]
    system = {"s": ["the dog runs quick"]}
    plain, _ = scores(refs, system)
    stemmed, _ = scores(refs, system, stem="porter")
    assert plain["s"]["precision"] == pytest.approx(1 / 4)  # only "the"
    # porter: dogs->dog, running/runs->run, quickly->quickli vs quick->quick (no match)
    assert stemmed["s"]["precision"] == pytest.approx(3 / 4)


def test_snowball_german_stemming():
    refs = ["die kleinen Häuser"]
    system = {"s": ["die kleine Häuser"]}
    plain, _ = scores(refs, system)
    stemmed, _ = scores(refs, system, stem="snowball", stem_language="german")
    assert plain["s"]["recall"] == pytest.approx(2 / 3)
    assert stemmed["s"]["recall"] == pytest.approx(1.0)


def test_lowercase_and_tokenization_change_matches():
    refs = ["The end."]
    corpus, _ = scores(refs, {"s": ["the end ."]})
    assert corpus["s"]["precision"] == pytest.approx(2 / 3)  # 13a splits "end." but "The" != "the"
    corpus, _ = scores(refs, {"s": ["the end ."]}, lowercase=True)
    assert corpus["s"]["precision"] == pytest.approx(1.0)
    corpus, _ = scores(refs, {"s": ["the end ."]}, tokenize="none")
    assert corpus["s"]["precision"] == pytest.approx(0.0)  # "end." and "The" stay as they are
