"""A Scores keeps its metrics for their formulas, not the test set they were scored from: the
metrics that compute every system at once (chrF, TER, METEOR) keep the text, the statistics and
the prepared references only until the last system is out. A cached Scores (the dashboard keeps
several) would otherwise hold the text and those tables too."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from mteval_core.metrics import get_metric
from mteval_core.metrics.meteor.availability import jar_path
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

METRICS = ["bleu", "chrf", "chrf++", "ter", "gtm"]


def test_the_test_set_is_freed_once_scored():
    metrics = METRICS + (["meteor"] if jar_path(None) else [])
    test_set = make_test_set(
        [["the cat sat on the mat", "a dog"], ["a cat sat on a mat", "the dog"]],
        {"one": ["the cat sat on a mat", "a dog"], "two": ["cat mat", "dog dog"]},
    )
    gone = weakref.ref(test_set)
    scores = score_test_set(test_set, metrics, Options())
    again = score_test_set(test_set, metrics, Options())
    del test_set
    gc.collect()
    assert gone() is None
    for metric in metrics:  # the same statistics as before the test set went
        for system in scores.systems:
            assert np.array_equal(
                scores.statistics[metric][system], again.statistics[metric][system]
            )


@pytest.mark.skipif(jar_path(None) is None, reason="pycocoevalcap (METEOR's data) is not installed")
def test_meteor_scores_a_second_test_set_after_forgetting_the_first():
    first = make_test_set(["the cat sat"], {"s": ["the cat sat"]})
    second = make_test_set(["a dog ran"], {"s": ["a dog sat"]})
    meteor = get_metric("meteor", Options())
    alone = score_test_set(second, ["meteor"], Options()).statistics["meteor"]["s"]
    meteor.text_statistics(first, "s")
    meteor.forget_test_set()
    assert np.array_equal(meteor.text_statistics(second, "s"), alone)
