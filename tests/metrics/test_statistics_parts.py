"""Statistics kept kind by kind, each scored under only the options that change it
(``kind_scoring_options``), assemble into the Scores of one run of every metric: what lets the
dashboard re-score one metric's kind when only its parameter changes."""

from __future__ import annotations

import numpy as np

from mteval_core.metrics.scoring import (
    assembled_scores,
    kind_scoring_options,
    score_test_set,
    statistics_kind_of,
    statistics_parts,
)
from mteval_core.settings.limits import METEOR_MAX_WORDS
from mteval_core.settings.options import Options
from mteval_core.settings.parameters import GTMParameters, METEORParameters, TERParameters
from tests.helpers import load_sample, make_test_set

METRICS = ["ter", "bleu", "chrf", "f1", "precision", "gtm", "meteor"]
OPTIONS = Options.from_flags(
    tokenize="intl",
    stem="snowball",
    stem_language="english",
    lowercase=True,
    gtm_exponent=2.0,
    ter_case_sensitive=True,
    meteor_modules=("exact", "stem"),
)


def test_each_kind_keeps_only_what_changes_its_statistics():
    tokens = {"tokenize": "intl", "stem": "snowball", "stem_language": "english"}
    assert kind_scoring_options("bleu", OPTIONS) == Options(lowercase=True, **tokens)
    assert kind_scoring_options("f1", OPTIONS) == Options(lowercase=True, **tokens)
    assert kind_scoring_options("gtm", OPTIONS) == Options(
        lowercase=True, gtm=GTMParameters(exponent=2.0), **tokens
    )
    # the raw-text metrics: no tokenizer or stemmer, their own parameters alone
    assert kind_scoring_options("chrf", OPTIONS) == Options(lowercase=True)
    assert kind_scoring_options("ter", OPTIONS) == Options(
        lowercase=True, ter=TERParameters(case_sensitive=True)
    )
    assert kind_scoring_options("meteor", OPTIONS) == Options(
        lowercase=True, meteor=METEORParameters(modules=("exact", "stem"))
    )
    # P and F1 are one kind, GTM and its precision another
    assert statistics_kind_of("precision") == statistics_kind_of("f1") == "unigram matches"
    assert statistics_kind_of("gtm_precision") == statistics_kind_of("gtm") == "gtm matching"


def test_a_changed_parameter_changes_only_its_kinds_options():
    changed = OPTIONS.updated(gtm_exponent=3.0)
    for name in METRICS:
        same = kind_scoring_options(name, changed) == kind_scoring_options(name, OPTIONS)
        assert same == (name != "gtm"), name


def test_parts_scored_apart_assemble_into_one_run():
    test_set = load_sample().test_set
    parts = {}
    for name in METRICS:
        alone = score_test_set(test_set, [name], kind_scoring_options(name, OPTIONS))
        parts.update(statistics_parts(alone))
    assembled = assembled_scores(parts, METRICS, OPTIONS, test_set)
    whole = score_test_set(test_set, METRICS, OPTIONS)
    assert assembled.metric_names == METRICS
    assert assembled.signature == whole.signature and assembled.signatures == whole.signatures
    assert assembled.corpus() == whole.corpus()
    for name in METRICS:
        for system in whole.systems:
            assert np.array_equal(
                assembled.statistics[name][system], whole.statistics[name][system]
            )
    assert set(assembled.notes) == set(whole.notes)


def test_a_kinds_notes_stay_with_its_statistics():
    """A segment past METEOR's bound on words: its note is METEOR's, not BLEU's."""
    words = " ".join(["word"] * (METEOR_MAX_WORDS + 1))
    test_set = make_test_set(["a small cat", words], {"s": ["a small cat", words]})
    parts = statistics_parts(score_test_set(test_set, ["bleu", "meteor"], Options()))
    assert any("METEOR leaves out 1 segment" in note for note in parts["meteor"].notes)
    assert parts["bleu"].notes == ()
