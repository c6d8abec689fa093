"""Checking a span's offsets against its target, before anything counts characters.

Offsets are code points (mteval_core.model.spans): a decoded file holds no lone surrogate, so no
offset can fall inside a surrogate pair; a tool that counted UTF-16 units (JavaScript) gives
offsets past an emoji one too large, and the last ones then fall beyond the target, which is
refused here with a hint that says so. A boundary between a letter and its combining accent
(``e`` + U+0301), or inside an emoji joined by U+200D, is a place no person could click: it is
kept, scored per code point as WMT25's script scores it, and counted in a note.

Refused, naming the file and line: a negative offset, an end before its start, an end beyond
the target (or above MAX_SPAN_OFFSET where the file gives no target), and more than
MAX_SPANS_PER_ANNOTATION spans on one segment. Overlapping spans are not refused: Google's MQM
raters mark two errors on the same words (a mistranslation that is also ungrammatical), and
WMT25's script counts a character once per span that covers it; so do we.
"""

from __future__ import annotations

import unicodedata

from mteval_core.errors import InputError
from mteval_core.model.spans import ErrorSpan, SpanAnnotation
from mteval_core.settings.limits import MAX_SPAN_OFFSET, MAX_SPANS_PER_ANNOTATION

JOINER = "\u200d"
UTF16_HINT = (
    "Offsets count code points of the target, as Python and WMT25's scoring_esa.py do; a tool "
    "that counts UTF-16 units (JavaScript) counts a character such as an emoji twice."
)


def check_offsets(annotation: SpanAnnotation) -> None:
    """Refuse offsets no target can have; the message names the file and the span's line."""
    if len(annotation.spans) > MAX_SPANS_PER_ANNOTATION:
        raise InputError(
            f"{len(annotation.spans):,} error spans on one segment (system {annotation.system!r}, "
            f"segment {annotation.segment!r}); at most {MAX_SPANS_PER_ANNOTATION:,} are read "
            "(MAX_SPANS_PER_ANNOTATION)",
            origin=annotation.origin,
            line=annotation.line,
        )
    for span in annotation.spans:
        if span.in_target:
            _check_span(span, annotation)


def _check_span(span: ErrorSpan, annotation: SpanAnnotation) -> None:
    where = {"origin": annotation.origin, "line": span.line or annotation.line}
    if span.start < 0 or span.end < 0:
        raise InputError(
            f"the error span [{span.start}, {span.end}) has a negative offset",
            hint="Offsets count characters of the target from 0.",
            **where,
        )
    if span.end < span.start:
        raise InputError(
            f"the error span [{span.start}, {span.end}) ends before it starts",
            hint="A span is [start, end): its end is one past its last character.",
            **where,
        )
    if annotation.target is None:
        if span.end > MAX_SPAN_OFFSET:
            raise InputError(
                f"the error span [{span.start}, {span.end}) reaches past character "
                f"{MAX_SPAN_OFFSET:,}, the most a target may have (MAX_SPAN_OFFSET)",
                **where,
            )
        return
    if span.end > len(annotation.target):
        raise InputError(
            f"the error span [{span.start}, {span.end}) ends past the target, which has "
            f"{len(annotation.target):,} characters (system {annotation.system!r}, segment "
            f"{annotation.segment!r})",
            hint=UTF16_HINT,
            **where,
        )


def splits_a_character(target: str, offset: int) -> bool:
    """Whether ``offset`` falls between a character and the marks or joiner that belong to it."""
    if offset <= 0 or offset >= len(target):
        return False
    after, before = target[offset], target[offset - 1]
    return (
        unicodedata.category(after) in ("Mn", "Mc", "Me")
        or JOINER in (after, before)
        or 0xFE00 <= ord(after) <= 0xFE0F  # a variation selector
    )


def split_characters(annotation: SpanAnnotation) -> int:
    """How many span boundaries of ``annotation`` fall inside a character (see the module)."""
    if annotation.target is None:
        return 0
    return sum(
        splits_a_character(annotation.target, offset)
        for span in annotation.spans
        if span.in_target
        for offset in (span.start, span.end)
    )


def split_note(annotations: list[SpanAnnotation], origin: str) -> list[str]:
    """The note for spans that begin or end inside a character, when there are any."""
    count = sum(split_characters(a) for a in annotations)
    if not count:
        return []
    return [
        f"{origin}: {count:,} span boundaries fall between a character and its combining mark "
        "or joiner; they are drawn and scored per code point, as WMT25's scoring_esa.py scores"
    ]
