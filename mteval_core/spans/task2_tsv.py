"""WMT25 task 2's TSV: gold spans (``task2_refs.tsv``) and a submission (``predictions.tsv``).

One row per translation: ``doc_id, segment_id, source_lang, target_lang, set_id, system_id,
source_segment, hypothesis_segment, reference_segment, domain_name, method`` and the spans as
three space-separated lists, ``start_indices``, ``end_indices``, ``error_types`` (``-1 -1
no-error`` for none; ``missing`` for an error without a place). The organisers' scoring_esa.py
reads it with pandas (``sep="\\t"``, so a field may be quoted as pandas writes it) and scores
only ``set_id == official``; so do we, and count the rows of other sets in a note.

Where their script is lenient we refuse, naming the line: lists of different lengths (it zips
them, dropping the tail), an empty item (it drops every span of the row with a warning), a
severity other than major, minor, critical, undecided (it stops with a ValueError), offsets
that are not whole numbers, and two rows for one translation. The target is
``hypothesis_segment`` where the file has it; a translation is keyed by its system and
``source-target:doc_id::segment_id``.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import PurePath

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.model.spans import (
    CRITICAL,
    MAJOR,
    MINOR,
    UNDECIDED,
    ErrorSpan,
    SpanAnnotation,
    SpanAnnotations,
)
from mteval_core.spans.offsets import check_offsets, split_note

KEYS = ("doc_id", "segment_id", "source_lang", "target_lang", "set_id", "system_id")
SPAN_COLUMNS = ("start_indices", "end_indices", "error_types")
TASK2_SEVERITIES = (MAJOR, MINOR, CRITICAL, UNDECIDED)
NO_ERROR = "no-error"
MISSING = "missing"
SCORED_SET = "official"
HINT = (
    "WMT25 task 2's TSV has the columns doc_id, segment_id, source_lang, target_lang, set_id, "
    "system_id, ..., start_indices, end_indices, error_types."
)


def is_task2_header(header: list[str]) -> bool:
    return set(SPAN_COLUMNS) <= {name.strip() for name in header}


def read_task2_spans(data: bytes, origin: str) -> SpanAnnotations:
    """Every official row as one annotation (annotator: the file's name without suffix)."""
    records = csv.reader(io.StringIO(decode(data, origin), newline=""), delimiter="\t")
    header = next(records, None)
    if header is None or not set(KEYS + SPAN_COLUMNS) <= set(header):
        missing = sorted(set(KEYS + SPAN_COLUMNS) - set(header or []))
        raise InputError(f"no column {', '.join(missing)}", origin=origin, line=1, hint=HINT)
    annotator = PurePath(origin).name.split(".")[0] or origin
    annotations, other_sets, seen = [], Counter(), {}
    line = 2
    for fields in records:
        row_line, line = line, records.line_num + 1
        if not fields:
            continue
        if len(fields) != len(header):
            raise InputError(
                f"this row has {len(fields)} fields, the header {len(header)}",
                origin=origin,
                line=row_line,
                hint=HINT,
            )
        cells = dict(zip(header, fields))
        if cells["set_id"] != SCORED_SET:
            other_sets[cells["set_id"]] += 1
            continue
        key = tuple(cells[name] for name in KEYS)
        if key in seen:
            raise InputError(
                f"a second row for the translation of line {seen[key]} ({', '.join(key)})",
                origin=origin,
                line=row_line,
            )
        seen[key] = row_line
        annotations.append(_annotation(cells, annotator, origin, row_line))
    notes = [f"{origin}: error spans read as WMT25 task 2's TSV"]
    if other_sets:
        said = ", ".join(f"{count:,} of set {name!r}" for name, count in other_sets.items())
        notes.append(
            f"{origin}: only set_id {SCORED_SET!r} is scored, as WMT25 does; {said} left out"
        )
    return SpanAnnotations(
        origin, tuple(annotations), tuple(notes + split_note(annotations, origin))
    )


def _annotation(cells: dict[str, str], annotator: str, origin: str, line: int) -> SpanAnnotation:
    target = cells.get("hypothesis_segment")
    language_pair = f"{cells['source_lang']}-{cells['target_lang']}"
    annotation = SpanAnnotation(
        cells["system_id"],
        f"{language_pair}:{cells['doc_id']}::{cells['segment_id']}",
        annotator,
        target,
        _spans(cells, origin, line),
        None,
        origin,
        line,
        language_pair,
    )
    check_offsets(annotation)
    return annotation


def _spans(cells: dict[str, str], origin: str, line: int) -> tuple[ErrorSpan, ...]:
    if cells["error_types"] == NO_ERROR:
        return ()
    starts, ends, types = (cells[name].split(" ") for name in SPAN_COLUMNS)
    if not len(starts) == len(ends) == len(types):
        raise InputError(
            f"{len(starts)} start indices, {len(ends)} end indices and {len(types)} error types",
            origin=origin,
            line=line,
            hint="Give one start, one end and one type per error, separated by single spaces.",
        )
    return tuple(_span(*item, origin, line) for item in zip(starts, ends, types))


def _span(start: str, end: str, severity: str, origin: str, line: int) -> ErrorSpan:
    if not (start and end and severity):
        raise InputError(
            "an empty item in start_indices, end_indices or error_types",
            origin=origin,
            line=line,
            hint="Separate items by one space; WMT25's script would drop every span of the row.",
        )
    if severity not in TASK2_SEVERITIES:
        raise InputError(
            f"unknown error type {severity!r}",
            origin=origin,
            line=line,
            column="error_types",
            hint=f"WMT25 task 2's types are {', '.join(TASK2_SEVERITIES)} and {NO_ERROR}.",
        )
    if start == MISSING:
        return ErrorSpan(0, 0, severity, None, in_target=False, line=line)
    try:
        return ErrorSpan(int(start), int(end), severity, None, line=line)
    except ValueError:
        raise InputError(
            f"the offsets {start!r}, {end!r} are not whole numbers",
            origin=origin,
            line=line,
            hint=f"Offsets are whole numbers, or {MISSING!r}.",
        ) from None
