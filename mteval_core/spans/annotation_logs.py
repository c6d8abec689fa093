"""Error spans from the annotation files WMT25 ranks systems by: its humeval JSON Lines
(``data/wmt25-genmt-humeval.jsonl``, two waves per segment) and Pearmut's logs.

Both are read by their rankings' readers (``io.wmt25_humeval``, ``io.pearmut``), with the same
checks and filters; here each rating becomes a :class:`SpanAnnotation` with its spans and its
0-100 score. Neither file holds the translation, so a span's offsets are checked against
MAX_SPAN_OFFSET only (as an ESA export's are). A humeval rating's annotator is its wave
(``wave 1``, ``wave 2``): WMT25's human1 and human2, whoever rated, so the two waves of one
segment meet as two annotators to compare. A Pearmut rating's annotator is its user.
"""

from __future__ import annotations

from collections.abc import Callable

from mteval_core.io.pearmut import pearmut_of_bytes
from mteval_core.io.wmt25_humeval import HumanAnnotation, HumanAnnotations, humeval_of_bytes
from mteval_core.model.spans import SpanAnnotation, SpanAnnotations
from mteval_core.spans.offsets import check_offsets


def read_humeval_spans(data: bytes, origin: str) -> SpanAnnotations:
    """Every annotated wave entry of a WMT25 humeval file, its annotator named by its wave."""
    read = humeval_of_bytes([(data, origin)])
    return _annotations(read, origin, "WMT25 humeval", lambda a: f"wave {a.wave}")


def read_pearmut_spans(data: bytes, origin: str) -> SpanAnnotations:
    """Every kept rating of a Pearmut log (the latest of an item rated again)."""
    read = pearmut_of_bytes([(data, origin)])
    return _annotations(read, origin, "Pearmut log", lambda a: a.annotator)


def _annotations(
    read: HumanAnnotations, origin: str, kind: str, annotator: Callable[[HumanAnnotation], str]
) -> SpanAnnotations:
    annotations = tuple(_annotation(rating, annotator(rating)) for rating in read.annotations)
    notes = (f"{origin}: error spans read from a {kind}", *read.notes)
    return SpanAnnotations(origin, annotations, notes)


def _annotation(rating: HumanAnnotation, annotator: str) -> SpanAnnotation:
    """The rating as an annotation, its offsets checked as every span file's are (the rankings
    read only the ratings' scores, so their reader leaves the offsets to the span readers)."""
    annotation = SpanAnnotation(
        system=rating.system,
        segment=rating.item,
        annotator=annotator,
        target=None,
        spans=rating.spans,
        score=rating.score,
        origin=rating.origin,
        line=rating.line,
        language_pair=rating.language_pair,
    )
    check_offsets(annotation)
    return annotation
