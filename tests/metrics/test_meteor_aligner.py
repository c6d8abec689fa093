"""METEOR's beam aligner: its result is always a valid alignment, and its defaults are the jar's.

The jar's exact numbers are checked in test_meteor_jar.py; here the properties that hold for any
input: no word is used twice, every span lies inside its line, every chosen match is one a matcher
proposed, and the chunk count is that of the chosen matches.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.aligner import align, count_chunks, search_weights
from mteval_core.metrics.meteor.configuration import configure, default_language
from mteval_core.metrics.meteor.java_strings import java_tokenize as java_words
from mteval_core.metrics.meteor.matchers import match_exact
from mteval_core.metrics.meteor.optimal import align_optimally, weighted_coverage
from mteval_core.metrics.meteor.stage import Match, Stage

WORDS = st.lists(st.sampled_from(["a", "b", "c", "the", "d"]), max_size=12)


def span_matcher(spans: list[tuple[int, int, int, int]]):
    """A matcher proposing the given (reference start, length, hypothesis start, length) spans
    that fit the lines: many-word matches, as the paraphrase module makes."""

    def match(stage: Stage, module: int) -> None:
        for start, length, match_start, match_length in spans:
            if start + length <= len(stage.reference) and (
                match_start + match_length <= len(stage.hypothesis)
            ):
                stage.add(Match(start, length, match_start, match_length, 0.5, module))

    return match


SPANS = st.lists(
    st.tuples(*(st.integers(0, 11), st.integers(1, 3)) * 2).map(lambda t: (t[0], t[1], t[2], t[3])),
    max_size=6,
)


@settings(max_examples=100, deadline=None)
@given(hypothesis=WORDS, reference=WORDS, spans=SPANS, beam=st.sampled_from([1, 2, 40]))
def test_the_beam_alignment_is_valid(hypothesis, reference, spans, beam):
    proposed: list[Match] = []

    def recording(matcher):
        def match(stage: Stage, module: int) -> None:
            before = {id(m) for ms in stage.matches for m in ms}
            matcher(stage, module)
            proposed.extend(m for ms in stage.matches for m in ms if id(m) not in before)

        return match

    alignment = align(
        hypothesis,
        reference,
        [recording(match_exact), recording(span_matcher(spans))],
        ("exact", "paraphrase"),
        frozenset({"the"}),
        beam_size=beam,
    )
    used_hypothesis: set[int] = set()
    used_reference: set[int] = set()
    for match in alignment.matches:
        assert match in proposed
        hyp = set(range(match.match_start, match.match_start + match.match_length))
        ref = set(range(match.start, match.start + match.length))
        assert max(hyp) < len(hypothesis) and max(ref) < len(reference)
        assert not hyp & used_hypothesis and not ref & used_reference
        used_hypothesis |= hyp
        used_reference |= ref
    assert [m.start for m in alignment.matches] == sorted(m.start for m in alignment.matches)
    assert alignment.chunks == count_chunks(alignment.matches)
    matched = sum(alignment.hypothesis_content) + sum(alignment.hypothesis_function)
    assert matched == len(used_hypothesis)
    assert alignment.hypothesis_function_words == hypothesis.count("the")


def test_identical_lines_are_matched_by_the_first_module_alone():
    called = []

    def second(stage: Stage, module: int) -> None:
        called.append(module)

    words = ["a", "b", "a"]
    alignment = align(words, words, [match_exact, second], ("exact", "stem"), frozenset())
    assert called == []
    assert [(m.start, m.match_start) for m in alignment.matches] == [(0, 0), (1, 1), (2, 2)]
    assert alignment.chunks == 1
    align(words, ["a", "b"], [match_exact, second], ("exact", "stem"), frozenset())
    assert called == [1]


def test_a_repeated_word_is_aligned_to_keep_one_chunk():
    # "a" twice on each side: the search must pair them in order (one chunk), not crosswise
    alignment = align(["a", "x", "a"], ["a", "x", "a"][::1], [match_exact], ("exact",), frozenset())
    assert alignment.chunks == 1
    alignment = align(["b", "a", "c", "a"], ["a", "c"], [match_exact], ("exact",), frozenset())
    assert [(m.start, m.match_start) for m in alignment.matches] == [(0, 1), (1, 2)]
    assert alignment.chunks == 1


def test_words_are_split_as_javas_string_tokenizer_splits_them():
    assert java_words(" a\tb\u00a0c\fd\r\ne ") == ["a", "b\u00a0c", "d", "e"]


def test_language_defaults_are_the_jars():
    german = configure("de")
    assert german.modules == ("exact", "stem", "paraphrase")
    assert german.parameters.weights == (1.0, 0.8, 0.2)  # positional: the table's 3rd entry
    assert (german.parameters.alpha, german.parameters.delta) == (0.95, 0.55)
    assert configure(
        "de", modules=("exact", "stem", "synonym", "paraphrase")
    ).parameters.weights == (
        1.0,
        0.8,
        0.2,
        0.0,
    )
    assert configure("en").parameters.weights == (1.0, 0.6, 0.8, 0.6)
    portuguese = configure("pt")
    assert portuguese.task == "li" and portuguese.parameters.alpha == 0.75
    assert configure("other").modules == ("exact",)
    assert configure("en", task="hter").parameters.beta == 1.5
    assert default_language("de") == "german"
    assert default_language("zh") == "other"
    assert default_language(None) == "english"


@pytest.mark.parametrize(
    "arguments",
    [
        {"language": "xx-klingon"},
        {"language": "en", "task": "util"},
        {"language": "en", "modules": ("exact", "lemma")},
        {"language": "en", "modules": ("exact", "exact")},
        {"language": "en", "modules": ()},
        {"language": "en", "modules": ("exact",), "weights": (1.0, 0.5)},
        {"language": "en", "parameters": (0.5, 1.0)},
        {"language": "en", "parameters": (0.5, float("nan"), 0.5, 0.5)},
    ],
)
def test_bad_configurations_are_refused(arguments):
    with pytest.raises(InputError):
        configure(**arguments)


@settings(max_examples=100, deadline=None)
@given(hypothesis=WORDS, reference=WORDS, spans=SPANS, beam=st.sampled_from([1, 40]))
def test_the_exact_alignment_is_never_worse_than_the_beam(hypothesis, reference, spans, beam):
    """More weighted coverage, or as much with no more chunks; and a valid alignment."""
    matchers = [match_exact, span_matcher(spans)]
    modules = ("exact", "paraphrase")
    weights = search_weights(modules)
    beam_alignment = align(hypothesis, reference, matchers, modules, frozenset(), beam)
    exact, found = align_optimally(hypothesis, reference, matchers, modules, frozenset())
    assert found
    beam_coverage = weighted_coverage(beam_alignment.matches, weights)
    exact_coverage = weighted_coverage(exact.matches, weights)
    assert exact_coverage >= beam_coverage
    if exact_coverage == beam_coverage:
        assert exact.chunks <= beam_alignment.chunks
    hyp = [i for m in exact.matches for i in range(m.match_start, m.match_start + m.match_length)]
    ref = [j for m in exact.matches for j in range(m.start, m.start + m.length)]
    assert len(set(hyp)) == len(hyp) and len(set(ref)) == len(ref)


def test_the_exact_alignment_finds_fewer_chunks_where_the_beam_does_not():
    # a beam of 1 takes the first "a" of the hypothesis for the first "a" of the reference and
    # breaks the run "a b" that the exact search keeps whole
    hypothesis, reference = ["a", "x", "a", "b"], ["a", "b"]
    beam_alignment = align(hypothesis, reference, [match_exact], ("exact",), frozenset(), 1)
    exact, _ = align_optimally(hypothesis, reference, [match_exact], ("exact",), frozenset())
    assert (beam_alignment.chunks, exact.chunks) == (2, 1)
