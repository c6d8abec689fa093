"""Error spans a metric marks in a translation (xCOMET's ``errors``, GEMBA-MQM's, MQM's), kept as
plain data so that span scoring (``mteval_core.spans``, where it exists) and the viewers read
them without knowing which tool wrote them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ErrorSpan:
    """One marked span: character offsets into the translation as the tool gave them (xCOMET's
    are from 0, ``end`` exclusive, over the text it scored: the line stripped of surrounding
    whitespace), its severity as the tool names it (minor, major, critical), its category when
    the tool gives one, and which tool or file found it. ``text`` and ``confidence`` are the
    tool's own, kept to check the offsets against and to show."""

    start: int
    end: int
    severity: str
    category: str | None
    source: str
    text: str | None = None
    confidence: float | None = None
