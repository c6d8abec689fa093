"""Pairing two annotations of the same translations: by position or annotator name, the
items only one side has counted, the targets checked, and the language pairs averaged."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.model.spans import MAJOR, MINOR, ErrorSpan, SpanAnnotation, SpanAnnotations
from mteval_core.spans.agreement import agreement, chosen, paired


def annotation(segment: str, who: str, target: str | None, *spans, pair: str = "en-cs"):
    """``who``'s spans on system S's ``segment``, read from the file ``who``.tsv, line 1."""
    return SpanAnnotation("S", segment, who, target, tuple(spans), None, f"{who}.tsv", 1, pair)


def test_choices_by_position_and_by_name():
    item = [annotation("1", "ann", "abc"), annotation("1", "bob", "abc")]
    assert chosen(item, "#1") is item[0] and chosen(item, "#2") is item[1]
    assert chosen(item, "bob") is item[1]
    assert chosen(item, "#3") is None and chosen(item, "#0") is None and chosen(item, "eve") is None


def test_items_of_one_side_only_are_counted_in_notes():
    gold = SpanAnnotations("gold.tsv", (annotation("1", "g", "abc"), annotation("2", "g", "de")))
    predicted = SpanAnnotations(
        "pred.tsv", (annotation("2", "p", "de"), annotation("3", "p", "fgh"))
    )
    pairs, notes = paired(gold, predicted)
    assert [pair.gold.segment for pair in pairs] == ["2"]
    assert notes == [
        "gold.tsv: left out 1 of its translations (#1), which the other side does not have",
        "pred.tsv: left out 1 of its translations (#1), which the other side does not have",
    ]


def test_different_targets_are_refused_white_space_around_them_is_not():
    gold = SpanAnnotations("g.tsv", (annotation("1", "g", "a cat"),))
    other = SpanAnnotations("p.tsv", (annotation("1", "p", "a dog"),))
    with pytest.raises(
        InputError,
        match=r"p.tsv, line 1: the two files give different targets.*Compare with g.tsv, line 1",
    ):
        paired(gold, other)
    spaced = SpanAnnotations("pred.tsv", (annotation("1", "p", "a cat ", ErrorSpan(2, 6, MINOR)),))
    (pair,), notes = paired(gold, spaced)
    assert pair.length == 5  # the gold's text; the span is cut there, as WMT25's len_hyp cuts it
    assert pair.characters().predicted == 3
    assert "other white space around it" in notes[0]


def test_no_common_translation_is_an_error():
    gold = SpanAnnotations("gold.tsv", (annotation("1", "g", "abc"), annotation("1", "h", "abc")))
    with pytest.raises(
        InputError, match=r"no translation has both #1 of gold.tsv and #3 of gold.tsv"
    ):
        paired(gold, gold, "#1", "#3")


def test_language_pairs_are_scored_apart_and_averaged():
    gold = SpanAnnotations(
        "g.tsv",
        (
            annotation("en-cs:1", "g", "abcd", ErrorSpan(0, 4, MAJOR), pair="en-cs"),
            annotation("en-ja:1", "g", "abcd", ErrorSpan(0, 2, MAJOR), pair="en-ja"),
        ),
    )
    predicted = SpanAnnotations(
        "p.tsv",
        (
            annotation("en-cs:1", "p", "abcd", ErrorSpan(0, 2, MAJOR), pair="en-cs"),
            annotation("en-ja:1", "p", "abcd", ErrorSpan(0, 2, MAJOR), pair="en-ja"),
        ),
    )
    pairs, _ = paired(gold, predicted)
    result = agreement(pairs, "g", "p")
    by_name = {group.name: group.characters for group in result.groups}
    assert (by_name["en-cs"].precision, by_name["en-cs"].recall) == (1.0, 0.5)
    assert (by_name["en-ja"].precision, by_name["en-ja"].recall) == (1.0, 1.0)
    assert result.wmt25_average.recall == 0.75
    assert result.pooled.characters.recall == 4 / 6  # pooled characters: another figure


def test_one_file_of_one_annotation_per_translation_says_so():
    single = SpanAnnotations("esa.csv", (annotation("1", "a", None), annotation("2", "b", None)))
    with pytest.raises(InputError, match=r"every translation of esa.csv has one annotation"):
        paired(single, single, "#1", "#2")
