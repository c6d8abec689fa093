"""Error spans from Google's MQM TSV (google/wmt-mqm-human-evaluation): ``<v>...</v>`` marks.

mteval_core.io.mqm_tsv reads the same files as error counts for MQM scores; this reads where
each error is. Every row is one error of one rating (a rater's judgment of one system's
segment), its target written with that error's words between ``<v>`` and ``</v>``. The target
without the marks is the text the offsets index, and every row of a rating must give the same
one. An error marked in the source only (an omission) or nowhere has no place in the target
(``in_target=False``). ``No-error``, ``HOTW-test`` and, in the 2022-2024 layout, empty severities
are ratings without errors, as in mt-metrics-eval.

A ``<v>`` that is never closed (one row of Google's WMT21 TED en-de) marks the words up to the
target's end, and a note counts such rows; any other arrangement of marks is refused.

Severities are matched without regard to case. Critical, Major, Minor and Neutral become the
model's severities; where a file writes ``Non-translation!`` or ``Source issue`` as the
severity (mt-metrics-eval weighs both 0), the span is Neutral with that word as its category, so
that Google's weights give it the 0 mt-metrics-eval gives it and the drawing still names it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import Row, read_table
from mteval_core.io.mqm_tsv import (
    ATTENTION_CHECK,
    LAYOUT_2022,
    NO_ERROR,
    SEVERITIES,
    _without_header_comment,  # the Marot viewer's trailing header field, as mqm_tsv drops it
    layout_of,
)
from mteval_core.model.spans import (
    CRITICAL,
    MAJOR,
    MINOR,
    NEUTRAL,
    ErrorSpan,
    SpanAnnotation,
    SpanAnnotations,
)
from mteval_core.spans.offsets import check_offsets, split_note

MARK = re.compile("</?v>")
OPEN, CLOSE = "<v>", "</v>"
MODEL_SEVERITY = {"critical": CRITICAL, "major": MAJOR, "minor": MINOR, "neutral": NEUTRAL}
AS_CATEGORY = {"non-translation!": "Non-translation!", "source issue": "Source issue"}
NOT_ERRORS = {NO_ERROR.lower(), ATTENTION_CHECK.lower()}


def read_mqm_spans(data: bytes, origin: str) -> SpanAnnotations:
    """Every rating of the file with its spans, ratings in the order of their first row."""
    text, _comment = _without_header_comment(decode(data, origin))
    table = read_table(text, origin)
    columns = {name.lower(): name for name in table.header}
    layout = layout_of(table.header)
    needed = [*layout.required, "target"]
    missing = [name for name in needed if name.lower() not in columns]
    if missing:
        raise InputError(
            f"the MQM file has no column {', '.join(map(repr, missing))}",
            origin=origin,
            line=table.header_line,
            hint=layout.hint + " Error spans are read from the target's <v>...</v> marks.",
        )
    later = layout.name == LAYOUT_2022
    ratings: dict[tuple[str, str, str], list[tuple[Row, ErrorSpan | None]]] = {}
    for row in table.rows:
        cell = {name: row.cells[column].strip() for name, column in columns.items()}
        key = f"{cell['doc']}::{cell['docsegid']}" if later else cell[layout.global_id.lower()]
        rating = (cell["system"], key, cell["rater"])
        ratings.setdefault(rating, []).append((row, _span(row, cell, columns, origin, later)))
    read = [
        _annotation(rating, rows, columns["target"], origin) for rating, rows in ratings.items()
    ]
    annotations = [annotation for annotation, _moved in read]
    notes = [f"{origin}: error spans read from Google's MQM TSV ({layout.name} layout)"]
    unclosed = sum(MARK.findall(target) == [OPEN] for target in table.columns[columns["target"]])
    if unclosed:
        notes.append(
            f"{origin}: {unclosed:,} rows open a <v> mark that they never close; their error "
            "runs to the end of the target"
        )
    if moved := sum(count for _annotation, count in read):
        notes.append(
            f"{origin}: {moved:,} rows give their rating's target with other white space around "
            "it (a space marked inside <v>...</v>); their spans are placed on the rating's "
            "first row's text and clipped to it"
        )
    return SpanAnnotations(
        origin, tuple(annotations), tuple(notes + split_note(annotations, origin))
    )


def _span(
    row: Row, cell: dict[str, str], columns: dict[str, str], origin: str, later: bool
) -> ErrorSpan | None:
    """The row's error, or None for a row that marks none (No-error, HOTW-test, empty)."""
    severity = cell["severity"].lower()
    if severity in NOT_ERRORS or (not severity and later):
        return None
    category = cell.get("category") or None
    if severity in AS_CATEGORY:
        severity, category = NEUTRAL, AS_CATEGORY[severity]
    if severity not in MODEL_SEVERITY:
        raise InputError(
            f"unknown severity {cell['severity']!r}",
            origin=origin,
            line=row.line,
            column=columns["severity"],
            hint=f"MQM severities are {', '.join(SEVERITIES)}.",
        )
    place = _marked(row.cells[columns["target"]], origin, row.line)
    if place is None:
        return ErrorSpan(0, 0, MODEL_SEVERITY[severity], category, in_target=False, line=row.line)
    return ErrorSpan(*place, MODEL_SEVERITY[severity], category, line=row.line)


def _marked(target: str, origin: str, line: int) -> tuple[int, int] | None:
    """The code points between the target's ``<v>`` and ``</v>``, counted without the marks."""
    marks = MARK.findall(target)
    if not marks:
        return None
    if marks == [OPEN]:  # Google's WMT21 TED en-de has one: the mark runs to the target's end
        start = target.index(OPEN)
        return start, len(target) - len(OPEN)
    if marks != [OPEN, CLOSE]:
        raise InputError(
            f"the target's error marks are {' '.join(marks)}; one error is one <v>...</v>",
            origin=origin,
            line=line,
            column="target",
            hint="Google's files mark each error's words once, between <v> and </v>.",
        )
    start = target.index("<v>")
    end = target.index("</v>") - len("<v>")
    return start, end


def _annotation(
    rating: tuple[str, str, str],
    rows: list[tuple[Row, ErrorSpan | None]],
    target_column: str,
    origin: str,
) -> tuple[SpanAnnotation, int]:
    """The rating's annotation, and how many of its rows had a target that differs from the
    first row's in surrounding white space only (their spans moved onto the first's text)."""
    first = rows[0][0]
    target = MARK.sub("", first.cells[target_column])
    spans, moved = [], 0
    for row, span in rows:
        written = MARK.sub("", row.cells[target_column])
        if written != target:
            if written.strip() != target.strip():
                raise InputError(
                    f"this row's target differs from the one line {first.line} gives for the "
                    f"same rating (system {rating[0]!r}, segment {rating[1]!r}, rater "
                    f"{rating[2]!r})",
                    origin=origin,
                    line=row.line,
                    column=target_column,
                    hint="Every row of one rating holds the same target, its marks aside.",
                )
            moved += 1
            span = _moved(span, written, target)
        if span is not None:
            spans.append(span)
    annotation = SpanAnnotation(
        rating[0], rating[1], rating[2], target, tuple(spans), None, origin, first.line
    )
    check_offsets(annotation)
    return annotation, moved


def _moved(span: ErrorSpan | None, written: str, target: str) -> ErrorSpan | None:
    """``span`` of ``written`` placed on ``target``, the same text but for the white space
    around it: shifted by the difference in leading white space, clipped to the target."""
    if span is None or not span.in_target:
        return span
    shift = (len(written) - len(written.lstrip())) - (len(target) - len(target.lstrip()))
    start = min(max(span.start - shift, 0), len(target))
    end = min(max(span.end - shift, start), len(target))
    return replace(span, start=start, end=end)
