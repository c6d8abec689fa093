"""Properties of mteval_core.compare on random small inputs (hypothesis): bucket edges (a value
on an edge belongs to the bucket above, as compare-mt's ``value < edge``), NLTK's sentence BLEU
to the last bit, ties in the n-gram and example orders, and the resampling."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.compare.analysis import compare_pair
from mteval_core.compare.buckets import Buckets, bucket_labels
from mteval_core.compare.compare_mt_bleu import counted_as_compare_mt, sentence_bleu
from mteval_core.compare.ngram_differences import salient_differences
from mteval_core.compare.ngram_matches import ngram_matches
from mteval_core.compare.readings import COMPARE_MT
from mteval_core.compare.sentence_examples import differing_most
from mteval_core.compare.word_accuracy import accuracies, word_counts
from mteval_core.stats.bootstrap import BootstrapOptions

WORDS = st.sampled_from(["a", "b", "c", "d", "the", ".", ""])
SENTENCE = st.lists(WORDS, min_size=1, max_size=9)


def compare_mt_bucket(value, edges):
    """compare-mt's Bucketer.cutoff_into_bucket, as written there."""
    for i, edge in enumerate(edges):
        if value < edge:
            return i
    return len(edges)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(-30, 30), min_size=1, max_size=8, unique=True).map(sorted),
    st.lists(st.integers(-40, 40), min_size=1, max_size=20),
)
def test_a_value_on_an_edge_goes_to_the_bucket_above(edges, values):
    buckets = Buckets.whole(edges)
    assert buckets.index(values).tolist() == [compare_mt_bucket(v, edges) for v in values]
    assert len(buckets.labels) == len(edges) + 1
    for edge in edges:  # exactly on the edge: the bucket that starts there
        assert buckets.labels[int(buckets.index([edge])[0])].startswith(("[", ">=", str(edge)))


def test_labels_are_compare_mts():
    assert bucket_labels((1, 2, 3, 4, 5, 10, 100, 1000), True) == (
        "<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000",
    )  # fmt: skip
    assert bucket_labels((10.0, 20.0), False) == ("<10.0", "[10.0,20.0)", ">=20.0")


@settings(max_examples=100, deadline=None)
@given(SENTENCE, SENTENCE)
def test_sentence_bleu_is_nltks_method2_to_the_last_bit(reference, hypothesis):
    from nltk.translate.bleu_score import SmoothingFunction
    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu

    (counted,) = ngram_matches([reference], [[hypothesis]])
    expected = 100.0 * nltk_sentence_bleu(
        [reference], hypothesis, smoothing_function=SmoothingFunction().method2
    )
    assert sentence_bleu(counted_as_compare_mt(counted.statistics)[0]) == expected


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(SENTENCE, SENTENCE, SENTENCE), min_size=1, max_size=8))
def test_word_matches_are_clipped_counts(triples):
    reference = [t[0] for t in triples]
    systems = [[t[1] for t in triples], [t[2] for t in triples]]
    frequencies = Counter(word for sentence in reference for word in sentence)
    counts = word_counts(reference, systems, frequencies)
    for s, system in enumerate(systems):
        expected = sum(
            min(count, Counter(ref)[word])
            for ref, hyp in zip(reference, system)
            for word, count in Counter(hyp).items()
        )
        assert counts.matches[s].sum() == expected
        assert (counts.matches[s] <= np.minimum(counts.reference, counts.hypothesis[s])).all()
    # a system equal to the reference is perfect in every bucket it has words in
    same = word_counts(reference, [reference], frequencies)
    values = accuracies(same.matches[0].sum(0), same.reference.sum(0), same.hypothesis[0].sum(0))
    assert np.all(values[same.reference.sum(0) > 0] == 1.0)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(SENTENCE, SENTENCE, SENTENCE), min_size=1, max_size=8))
def test_ngram_ties_are_ordered_the_same_way_on_both_sides(triples):
    reference = [t[0] for t in triples]
    a, b = [t[1] for t in triples], [t[2] for t in triples]
    matched = [m.matched for m in ngram_matches(reference, [a, b])]
    a_better, b_better = salient_differences(matched[0], matched[1], length=1000)
    swapped_b, swapped_a = salient_differences(matched[1], matched[0], length=1000)
    assert [(d.ngram, d.matches_a, d.matches_b) for d in a_better] == [
        (d.ngram, d.matches_b, d.matches_a) for d in swapped_a
    ]
    keys = [(-d.salience, -(d.matches_a + d.matches_b), d.ngram) for d in a_better]
    assert keys == sorted(keys)
    assert len(b_better) == len(swapped_b) == len(set(matched[0]) | set(matched[1]))


def test_example_ties_go_by_score_then_line_and_repeats_are_dropped():
    reference = [("x",)] * 5
    a = [("x",), ("y",), ("x",), ("y",), ("x",)]
    b = [("y",), ("x",), ("y",), ("x",), ("x",)]
    scores_a = np.array([100.0, 0.0, 100.0, 0.0, 100.0])
    scores_b = np.array([0.0, 100.0, 0.0, 100.0, 100.0])
    a_better, b_better = differing_most(reference, a, b, scores_a, scores_b, length=2)
    assert [e.line for e in a_better] == [1, 5]  # line 3 repeats line 1's triple
    assert [e.line for e in b_better] == [2, 5]  # line 4 repeats line 2's


def test_intervals_are_seeded_shared_and_bracket_the_value():
    reference = ["a b c d e", "f g h i", "i j k l", "m n o p q r", "s t u v"] * 8
    a = ["a b c x e", "f g h", "i q k l", "m n o p q", "s t u"] * 8
    options = BootstrapOptions(200, 11)
    first = compare_pair(
        reference, [("a", a), ("b", list(reference))], COMPARE_MT, bootstrap=options
    )
    again = compare_pair(
        reference, [("a", a), ("b", list(reference))], COMPARE_MT, bootstrap=options,
        rng=np.random.default_rng(11),
    )  # fmt: skip
    for one, two in zip(first.analyses, again.analyses):
        np.testing.assert_array_equal(one.intervals, two.intervals)
        low, high = one.intervals[..., 0], one.intervals[..., 1]
        assert np.all(low <= high)
    # b is the reference itself (every sentence of 4 words or more: compare-mt's BLEU gives a
    # shorter sentence a count of 1 for the orders it lacks): BLEU 100 in every resample
    assert first.analysis("scores").intervals[1, 0, 0].tolist() == [100.0, 100.0]


def test_lines_of_a_bucket_and_of_an_ngram_add_up_to_the_analyses():
    reference = ["a b c d e", "f g h i", "i j k l", "m n o p q r", "s t u v"] * 3
    a = ["a b c x e", "f g h", "i q k l", "m n o p q", "s t u"] * 3
    b = ["a b c d", "f g h i", "i j k", "m n", "s t u v w x y"] * 3
    comparison = compare_pair(reference, [("a", a), ("b", b)], COMPARE_MT)
    for key in ("length_buckets", "length_difference_buckets", "sentence_bleu_buckets"):
        analysis = comparison.analysis(key)
        for s in (0, 1):
            lines = [comparison.lines_in(key, k, s) for k in range(len(analysis.labels))]
            assert sorted(x for bucket in lines for x in bucket) == list(range(1, 16))
            assert [len(x) for x in lines] == analysis.sizes[s]["sentences"]
    for d in (*comparison.ngrams[0], *comparison.ngrams[1]):
        found = comparison.lines_with_ngram(d.ngram)
        assert sum(x[1] for x in found) == d.matches_a
        assert sum(x[2] for x in found) == d.matches_b


@settings(max_examples=60, deadline=None)
@given(SENTENCE, SENTENCE, SENTENCE)
def test_highlights_mark_every_word_and_own_only_what_the_other_lacks(reference, a, b):
    from mteval_core.compare.highlights import OWN, UNCONFIRMED, highlights

    ref_text, a_text, b_text = (" ".join(x) for x in (reference, a, b))
    marked = highlights(ref_text, a_text, b_text)
    assert [w for w, _ in marked.a] == a_text.strip().split(" ")
    assert [w for w, _ in marked.b] == b_text.strip().split(" ")
    same = highlights(ref_text, a_text, a_text)
    assert same.own_a == same.own_b == ()
    assert all(mark != OWN for _, mark in same.a)
    words_in_reference = set(ref_text.strip().split(" "))
    for word, mark in marked.a:  # a word the reference lacks is never confirmed
        assert mark == UNCONFIRMED or word in words_in_reference
    assert set(marked.own_a).isdisjoint(marked.own_b)


def test_highlights_as_mt_compareval_shows_them():
    from mteval_core.compare.highlights import highlights

    marked = highlights("the cat sat on the mat", "the cat sat on a mat", "a cat is on the mat")
    assert [m for _, m in marked.a] == ["own", "own", "own", "own", "unconfirmed", "confirmed"]
    assert [m for _, m in marked.b] == [
        "unconfirmed", "confirmed", "unconfirmed", "own", "own", "own",
    ]  # fmt: skip
    assert marked.own_b == ("on the", "on the mat", "the mat")  # b's "improving" n-grams
