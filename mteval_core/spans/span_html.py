"""A segment's spans drawn in its text as HTML: each error's characters on its severity's
colour, its severity and category in the title, overlaps drawn as both.

The text is cut at every span boundary, so that each piece is covered by the same spans all
along; a piece under several spans takes the worst severity's colour and a double underline,
and its title lists every error. An empty span (an omission between two characters) is a
caret at its place; an error with no place in the target is listed under the text. Every piece
of user text, the target, a category, an annotator's name, is escaped with ``html.escape``
(quotes too, since titles are attributes), so a span's text is only ever shown as text; the
target and the annotator's name sit in ``<bdi>``, so that a right-to-left override in them
turns no text after them around. Only
severities from mteval_core.model.spans become class names; categories never do.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from mteval_core.model.spans import (
    CRITICAL,
    MAJOR,
    MINOR,
    NEUTRAL,
    SEVERITIES,
    UNDECIDED,
    ErrorSpan,
    SpanAnnotation,
)

COLOURS = {
    CRITICAL: "#c0392b",
    MAJOR: "#f1948a",
    MINOR: "#f9e79f",
    NEUTRAL: "#d5dbdb",
    UNDECIDED: "#aed6f1",
}
WORST_FIRST = (CRITICAL, MAJOR, MINOR, UNDECIDED, NEUTRAL)
NO_CATEGORY = "(no category)"


def filtered(
    spans: Sequence[ErrorSpan],
    severities: Collection[str] | None = None,
    categories: Collection[str] | None = None,
) -> list[ErrorSpan]:
    """The spans of the chosen severities and categories (None: all); NO_CATEGORY chooses the
    spans without one."""
    return [
        span
        for span in spans
        if (severities is None or span.severity in severities)
        and (categories is None or (span.category or NO_CATEGORY) in categories)
    ]


def _title(spans: Sequence[ErrorSpan]) -> str:
    return "; ".join(
        f"{span.severity}: {span.category}" if span.category else span.severity for span in spans
    )


def _piece(text: str, covering: list[ErrorSpan]) -> str:
    if not covering:
        return escape(text)
    worst = min(covering, key=lambda span: WORST_FIRST.index(span.severity))
    line = "underline double" if len(covering) > 1 else "none"
    return (
        f'<span class="span-error severity-{worst.severity}" data-errors="{len(covering)}" '
        f'title="{escape(_title(covering))}" style="background:{COLOURS[worst.severity]};'
        f'text-decoration:{line};border-radius:2px">{escape(text)}</span>'
    )


def _omission(span: ErrorSpan) -> str:
    return (
        f'<span class="span-omission severity-{span.severity}" title="{escape(_title([span]))}" '
        f'style="color:{COLOURS[span.severity]};font-weight:bold">&#8248;</span>'
    )


def target_html(target: str, spans: Sequence[ErrorSpan]) -> str:
    """The target with ``spans`` drawn in it, every piece of it escaped."""
    placed = [span for span in spans if span.in_target and span.severity in SEVERITIES]
    cuts = sorted({0, len(target), *(s.start for s in placed), *(s.end for s in placed)})
    parts = []
    for start, end in zip(cuts, [*cuts[1:], None]):
        parts += [_omission(s) for s in placed if s.start == s.end == start]
        if end is not None and end > start:
            covering = [s for s in placed if s.start <= start and end <= s.end]
            parts.append(_piece(target[start:end], covering))
    return "".join(parts)


def annotation_html(annotation: SpanAnnotation, spans: Sequence[ErrorSpan] | None = None) -> str:
    """One annotation as a block: its annotator, the target drawn, errors without a place."""
    shown = annotation.spans if spans is None else spans
    header = f"<div class='span-annotator'><b><bdi>{escape(annotation.annotator)}</bdi></b>"
    if annotation.score is not None:
        header += f" &middot; score {annotation.score:g}"
    header += f" &middot; {len(shown)} of {len(annotation.spans)} errors shown</div>"
    if annotation.target is None:
        body = "<div class='span-target'><i>the file gives no target text; offsets:</i> " + (
            ", ".join(f"[{s.start}, {s.end}) {escape(_title([s]))}" for s in shown if s.in_target)
            or "none"
        )
        body += "</div>"
    else:
        drawn = target_html(annotation.target, shown)
        body = f"<div class='span-target' style='line-height:1.8'><bdi>{drawn}</bdi></div>"
    unplaced = [s for s in shown if not s.in_target]
    if unplaced:
        items = "".join(f"<li>{escape(_title([s]))}</li>" for s in unplaced)
        body += f"<div class='span-unplaced'>not in the target:<ul>{items}</ul></div>"
    return f"<div class='span-annotation' style='margin-bottom:0.8em'>{header}{body}</div>"


def legend_html() -> str:
    """The severities' colours, as a line of HTML."""
    return " ".join(
        f'<span class="severity-{severity}" style="background:{COLOURS[severity]};'
        f'border-radius:3px;padding:0 4px">{severity}</span>'
        for severity in WORST_FIRST
    )


DrawnAnnotation = tuple[str, SpanAnnotation, Sequence[ErrorSpan]]  # label, annotation, spans


def _output_rows(name: str, text: str, drawn: Sequence[DrawnAnnotation]) -> list[tuple[str, str]]:
    """One row per annotation of an output (its label under the system's name), or one row of
    the output as plain text where it has none."""
    if not drawn:
        return [(escape(name), f"<bdi>{escape(text)}</bdi> <i>(no spans)</i>")]
    rows = []
    for label, annotation, spans in drawn:
        cell = f"<bdi>{target_html(annotation.target or '', spans)}</bdi>"
        cell += f" <small>{len(spans)} of {len(annotation.spans)} errors shown</small>"
        unplaced = [span for span in spans if not span.in_target]
        if unplaced:
            cell += " <small>not in the target: " + escape(_title(unplaced)) + "</small>"
        rows.append((f"{escape(name)}<br><small><bdi>{escape(label)}</bdi></small>", cell))
    return rows


def sentence_spans_html(
    line: int,
    reference: str,
    outputs: Sequence[tuple[str, str, Sequence[DrawnAnnotation]]],
    source: str | None = None,
) -> str:
    """A table of line ``line``: source (when given), reference and each output (its shown
    name, its text, its annotations) drawn with the spans chosen, one row per annotation, so
    that several annotations of one translation are read one above the other."""
    rows = [("source", escape(source))] if source is not None else []
    rows.append(("reference", f"<bdi>{escape(reference)}</bdi>"))
    for name, text, drawn in outputs:
        rows += _output_rows(name, text, drawn)
    cells = "".join(
        f'<tr><th style="text-align:left;vertical-align:top;padding:2px 8px">{name}</th>'
        f'<td style="padding:2px 8px;line-height:1.8">{text}</td></tr>'
        for name, text in rows
    )
    return (
        f'<div class="sentence sentence-spans"><div style="font-weight:bold">Line {int(line)}'
        f'</div><table style="border-collapse:collapse;margin-bottom:0.8em">{cells}</table></div>'
    )
