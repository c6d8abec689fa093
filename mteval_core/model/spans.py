"""Error spans: where in a translation an annotator (a person or a metric) marked an error.

Every reader of spans (Google's MQM TSV with ``<v>...</v>`` marks, Appraise's ESA exports,
WMT25 task 2's TSV, WMT25's humeval JSON Lines, Pearmut's logs, xCOMET's output in comet-score's
JSON) gives this one shape, so that scoring
(mteval_core.spans) and drawing never know which file a span came from.

Offsets are code points of the target as Python indexes a ``str`` (``target[start:end]`` is the
marked text), as WMT25's ``scoring_esa.py`` counts them (``len(hypothesis_segment)``): a
character outside the Basic Multilingual Plane (an emoji) is one position, not the two UTF-16
units a JavaScript tool would count. ``start == end`` is an error without marked text (ESA's
omission marker). An error that a file records without any place in the target (ESA's
``"missing"``, an MQM error marked only in the source) has ``in_target=False`` and covers no
character.
"""

from __future__ import annotations

from dataclasses import dataclass

# Severities as WMT's files spell them (lower case); readers map their own spelling onto these.
CRITICAL = "critical"
MAJOR = "major"
MINOR = "minor"
NEUTRAL = "neutral"  # MQM's Neutral (and Source issue): an error that weighs nothing
UNDECIDED = "undecided"  # ESA's severity not chosen: WMT25's script skips it
SEVERITIES = (CRITICAL, MAJOR, MINOR, NEUTRAL, UNDECIDED)


@dataclass(frozen=True)
class ErrorSpan:
    """One error: characters ``[start, end)`` of the target, its severity and category."""

    start: int  # first code point of the target in the error
    end: int  # one past the last (a Python slice); start == end: nothing marked
    severity: str  # one of SEVERITIES
    category: str | None = None  # MQM's "Accuracy/Mistranslation"; None where a file has none
    in_target: bool = True  # False: the error has no place in the target (start == end == 0)
    line: int | None = None  # the file line the span was read from, for messages
    # What a metric's own output adds (xCOMET's errors): which tool or file found the span, the
    # text the tool says it marked (to check the offsets against) and its confidence.
    source: str | None = None
    text: str | None = None
    confidence: float | None = None

    @property
    def length(self) -> int:
        """How many characters of the target the span covers."""
        return self.end - self.start if self.in_target else 0


@dataclass(frozen=True)
class SpanAnnotation:
    """One annotator's spans on one system's translation of one segment.

    ``annotator`` is a rater ("rater2", an ESA account) or a metric ("xCOMET-XL"); ``target`` is
    the text the offsets index, or None where the file does not hold it (Appraise's exports
    give offsets only). ``score`` is the annotation's own segment score where it has one (ESA's
    0-100); None for MQM, whose score is computed from the spans.
    """

    system: str
    segment: str  # the segment's key in its file (seg_id, "doc::docSegId", a line number)
    annotator: str
    target: str | None
    spans: tuple[ErrorSpan, ...]
    score: float | None = None
    origin: str = ""  # the file, for messages
    line: int | None = None  # its first line for this annotation
    language_pair: str = ""  # "en-cs" where the file says; WMT25 averages its scores per pair

    @property
    def item(self) -> tuple[str, str]:
        """(system, segment): what two annotations must share to be compared."""
        return (self.system, self.segment)


@dataclass(frozen=True)
class SpanAnnotations:
    """Everything one file gives: annotations in file order, and notes on how it was read."""

    origin: str
    annotations: tuple[SpanAnnotation, ...]
    notes: tuple[str, ...] = ()

    @property
    def annotators(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(a.annotator for a in self.annotations))

    def by_item(self) -> dict[tuple[str, str], list[SpanAnnotation]]:
        """(system, segment) -> its annotations, in file order."""
        items: dict[tuple[str, str], list[SpanAnnotation]] = {}
        for annotation in self.annotations:
            items.setdefault(annotation.item, []).append(annotation)
        return items
