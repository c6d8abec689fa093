"""Scores in two parts (the metrics that read tokens under the options, those that read the raw
text under ``raw_text_options``), joined, equal one run of every metric: the dashboard's cache
shares the raw-text part between tokenizers and stemmers."""

from __future__ import annotations

import numpy as np

from mteval_core.metrics.scoring import (
    joined_scores,
    raw_text_options,
    score_test_set,
    split_by_reading,
)
from mteval_core.settings.options import Options
from tests.helpers import load_sample

METRICS = ["ter", "bleu", "chrf", "f1", "meteor"]  # raw-text metrics among token ones


def test_joined_parts_equal_one_run_under_another_tokenizer_and_stemmer():
    test_set = load_sample().test_set
    options = Options(
        tokenize="intl", stem="snowball", stem_language="english", lowercase=True,
        meteor_modules=("exact", "stem"),
    )  # fmt: skip
    tokens, raw = split_by_reading(METRICS)
    assert (tokens, raw) == (["bleu", "f1"], ["ter", "chrf", "meteor"])
    assert raw_text_options(options) == Options(lowercase=True, meteor_modules=("exact", "stem"))
    parts = [
        score_test_set(test_set, tokens, options),
        score_test_set(test_set, raw, raw_text_options(options)),
    ]
    joined = joined_scores(parts, METRICS, options, len(test_set.references))
    whole = score_test_set(test_set, METRICS, options)
    assert joined.metric_names == METRICS
    assert joined.signature == whole.signature and joined.signatures == whole.signatures
    assert joined.corpus() == whole.corpus()
    for name in METRICS:
        for system in whole.systems:
            assert np.array_equal(joined.statistics[name][system], whole.statistics[name][system])
    assert set(joined.notes) == set(whole.notes)
