"""Spans drawn in the text: overlaps, omissions, errors without a place, and hostile text in
the target, a category and an annotator's name, all escaped."""

from __future__ import annotations

import html
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.model.spans import CRITICAL, MAJOR, MINOR, ErrorSpan, SpanAnnotation
from mteval_core.spans.span_html import NO_CATEGORY, annotation_html, filtered, target_html

HOSTILE = "<script>alert(1)</script> **bold** \"q\" 's' & $x$ [l](javascript:x) 😀e\u0301"


def visible_text(fragment: str) -> str:
    """What a browser shows: tags dropped, entities decoded (the caret marks included)."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_hostile_target_and_category_are_escaped():
    spans = (ErrorSpan(0, 8, MAJOR, '"><img src=x onerror=alert(1)>'), ErrorSpan(30, 35, MINOR))
    drawn = target_html(HOSTILE, spans)
    assert "<script>" not in drawn and "<img" not in drawn
    assert "&lt;script&gt;" in drawn and "&quot;&gt;&lt;img" in drawn
    assert visible_text(drawn) == HOSTILE
    whole = annotation_html(SpanAnnotation("S", "1", "<b>rater</b>", HOSTILE, spans))
    assert "<b>rater</b>" not in whole and "&lt;b&gt;rater&lt;/b&gt;" in whole


def test_overlaps_take_the_worst_colour_and_list_every_error():
    drawn = target_html("abcdef", (ErrorSpan(0, 4, MINOR, "Fluency"), ErrorSpan(2, 6, CRITICAL)))
    pieces = re.findall(
        r'class="span-error severity-(\w+)" data-errors="(\d)" title="([^"]*)"', drawn
    )
    assert pieces == [
        ("minor", "1", "minor: Fluency"),
        ("critical", "2", "minor: Fluency; critical"),
        ("critical", "1", "critical"),
    ]


def test_omissions_and_errors_without_a_place():
    annotation = SpanAnnotation(
        "S", "1", "r", "ab", (ErrorSpan(1, 1, MAJOR), ErrorSpan(0, 0, MINOR, "Omission", False))
    )
    drawn = annotation_html(annotation)
    assert drawn.count("span-omission") == 1
    assert "not in the target:<ul><li>minor: Omission</li></ul>" in drawn


def test_filters_by_severity_and_category():
    spans = [
        ErrorSpan(0, 1, MAJOR, "Accuracy"),
        ErrorSpan(1, 2, MINOR),
        ErrorSpan(2, 3, MINOR, "Style"),
    ]
    assert filtered(spans, {MINOR}) == spans[1:]
    assert filtered(spans, None, {NO_CATEGORY, "Accuracy"}) == spans[:2]


@settings(max_examples=200, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("<>&\"'ab😀\u0301 \n*")), max_size=20).flatmap(
        lambda text: st.tuples(
            st.just(text),
            st.lists(st.tuples(st.integers(0, len(text)), st.integers(0, len(text))), max_size=5),
        )
    )
)
def test_every_character_is_drawn_once_and_escaped(case):
    text, offsets = case
    spans = [ErrorSpan(min(a, b), max(a, b), MINOR) for a, b in offsets]
    drawn = target_html(text, spans)
    assert visible_text(drawn).replace("\u2038", "") == text
    assert not re.search(r"<(?!/?span\b)", drawn)  # no tag but the drawing's own
