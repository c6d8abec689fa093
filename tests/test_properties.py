"""Properties every metric must keep, on random small test sets (hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.metrics import REGISTRY
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

ALL = list(REGISTRY)
WORDS = st.sampled_from(["a", "b", "c", "0", "the", "The", "x.", "dogs", "dog", ",", "é"])
SEGMENT = st.lists(WORDS, max_size=9).map(" ".join)


@st.composite
def random_test_sets(draw, n_systems=2):
    n = draw(st.integers(1, 6))
    k = draw(st.integers(1, 3))
    references = [draw(st.lists(SEGMENT, min_size=n, max_size=n)) for _ in range(k)]
    systems = {f"s{i}": draw(st.lists(SEGMENT, min_size=n, max_size=n)) for i in range(n_systems)}
    return references, systems


OPTIONS = st.builds(
    Options.from_flags,
    tokenize=st.sampled_from(["13a", "none", "mteval"]),
    lowercase=st.booleans(),
    stem=st.sampled_from(["none", "porter"]),
    fmean_alpha=st.sampled_from([0.0, 0.5, 0.9, 1.0]),
    bleu_bp=st.sampled_from(["closest", "shortest"]),
)


@settings(max_examples=150, deadline=None)
@given(random_test_sets(), OPTIONS)
def test_scores_stay_in_range(data, options):
    references, systems = data
    result = score_test_set(make_test_set(references, systems), ALL, options)
    for scope in (result.corpus(), result.segments()):
        for by_metric in scope.values():
            for metric, values in by_metric.items():
                values = np.atleast_1d(values)
                assert np.isfinite(values).all(), metric
                upper = {"bleu": 100, "bleu_arith": 100, "chrf": 100, "chrf++": 100}.get(metric, 1)
                upper = np.inf if metric in ("nist", "ter") else upper
                assert ((values >= 0) & (values <= upper + 1e-9)).all(), (metric, values)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(WORDS, min_size=4, max_size=9).map(" ".join), min_size=1, max_size=5))
def test_identical_candidate_gets_the_maximum(segments):
    result = score_test_set(make_test_set(segments, {"copy": segments}), ALL, Options())
    corpus = result.corpus()["copy"]
    for metric in ("precision", "recall", "f1", "fmean"):
        assert corpus[metric] == 1.0
    assert abs(corpus["bleu"] - 100) < 1e-9
    assert abs(corpus["bleu_arith"] - 100) < 1e-9


@settings(max_examples=60, deadline=None)
@given(random_test_sets(n_systems=3), OPTIONS)
def test_system_order_does_not_change_scores(data, options):
    references, systems = data
    forward = score_test_set(make_test_set(references, systems), ALL, options).corpus()
    backward_systems = dict(reversed(list(systems.items())))
    backward = score_test_set(make_test_set(references, backward_systems), ALL, options).corpus()
    assert forward == backward


@settings(max_examples=100, deadline=None)
@given(random_test_sets(n_systems=1), random_test_sets(n_systems=1), OPTIONS)
def test_summed_statistics_equal_the_concatenated_test_set(first, second, options):
    """Scoring two test sets and adding their statistics is scoring their concatenation.

    NIST is left out: its information weights come from the whole test set's references.
    """
    (refs_a, sys_a), (refs_b, sys_b) = first, second
    k = min(len(refs_a), len(refs_b))
    refs_a, refs_b = refs_a[:k], refs_b[:k]
    metrics = [m for m in ALL if m != "nist"]
    part_a = score_test_set(make_test_set(refs_a, sys_a), metrics, options)
    part_b = score_test_set(make_test_set(refs_b, sys_b), metrics, options)
    joined_refs = [a + b for a, b in zip(refs_a, refs_b)]
    whole = score_test_set(
        make_test_set(joined_refs, {"s0": sys_a["s0"] + sys_b["s0"]}), metrics, options
    )
    for metric in part_a.metrics:
        stats = part_a.statistics[metric.name]["s0"].sum(0) + part_b.statistics[metric.name][
            "s0"
        ].sum(0)
        expected = whole.corpus()["s0"][metric.name]
        # GTM's mean reference lengths are fractions: summation order may move the last bit
        assert float(metric.score_from_totals(stats)) == pytest.approx(
            expected, rel=1e-12, abs=1e-15
        )


def test_nist_corpus_score_is_the_score_of_summed_statistics():
    result = score_test_set(
        make_test_set(["a b c d", "b c"], {"s": ["a b", "b c d"]}), ["nist"], Options()
    )
    metric = result.metrics[0]
    stats = result.statistics["nist"]["s"]
    assert metric.corpus_score(stats) == float(metric.score_from_totals(stats.sum(axis=0)))
    # and a bootstrap-style weighted sum is the same arithmetic
    weights = np.array([[2, 0], [1, 1]])
    np.testing.assert_allclose(
        metric.score_from_totals(weights @ stats)[1], metric.corpus_score(stats)
    )
