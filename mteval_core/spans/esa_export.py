"""Error spans from Appraise's ESA exports (WMT24's ``humeval/esa_generalMT2024_wave*.csv``).

mteval_core.io.appraise_esa reads the export and applies the WMT24 organisers' filters; its
tenth field holds the rating's spans as a JSON list, ``[{"start_i": 8, "end_i": 11,
"severity": "minor", "error_type": null}]``. ``start_i``/``end_i`` are a Python slice of the
target, as WMT25's ``create_tsv_from_wmt24_esa.py`` passes them on unchanged; ``"missing"``
(both) is an error without a place in the target, and ``start_i == end_i`` an omission marked
between two characters. The export holds no target text, so offsets are checked against
MAX_SPAN_OFFSET only. A segment is keyed ``language pair:segment id`` with its system, so that
two annotators of one item (human1, human2) meet on it.
"""

from __future__ import annotations

import json

from mteval_core.errors import InputError
from mteval_core.io.appraise_esa import ESAExport, ESARating, read_esa_export
from mteval_core.io.strings import refuse_lone_surrogates
from mteval_core.model.spans import SEVERITIES, ErrorSpan, SpanAnnotation, SpanAnnotations
from mteval_core.spans.offsets import check_offsets

MISSING = "missing"
SPANS_FIELD = "error_spans (10th field)"


def read_esa_spans(data: bytes, origin: str) -> SpanAnnotations:
    """Every rating the organisers' filters keep, with its spans and its 0-100 score."""
    export: ESAExport = read_esa_export(data, origin)
    annotations = tuple(_annotation(rating, origin) for rating in export.ratings)
    notes = (f"{origin}: error spans read from an Appraise ESA export", *export.notes)
    return SpanAnnotations(origin, annotations, notes)


def _annotation(rating: ESARating, origin: str) -> SpanAnnotation:
    written = rating.error_spans.strip() or "[]"
    try:
        found = json.loads(written)
    except json.JSONDecodeError as error:
        raise InputError(
            f"the error spans are not a JSON list ({error.msg})",
            origin=origin,
            line=rating.line,
            column=SPANS_FIELD,
            hint='Appraise writes [{"start_i": 8, "end_i": 11, "severity": "minor"}].',
        ) from None
    refuse_lone_surrogates(found, origin, rating.line)
    if not isinstance(found, list):
        raise InputError(
            "the error spans are not a list", origin=origin, line=rating.line, column=SPANS_FIELD
        )
    spans = tuple(_span(item, origin, rating.line) for item in found)
    annotation = SpanAnnotation(
        rating.system,
        f"{rating.language_pair}:{rating.segment}",
        rating.annotator,
        None,
        spans,
        rating.score,
        origin,
        rating.line,
        rating.language_pair,
    )
    check_offsets(annotation)
    return annotation


def _span(item: object, origin: str, line: int) -> ErrorSpan:
    where = {"origin": origin, "line": line, "column": SPANS_FIELD}
    if not isinstance(item, dict) or not {"start_i", "end_i", "severity"} <= item.keys():
        raise InputError(
            f"an error span is {json.dumps(item, ensure_ascii=False)[:80]}, not an object "
            "with start_i, end_i and severity",
            **where,
        )
    severity = item["severity"]
    if severity not in SEVERITIES:
        raise InputError(
            f"unknown severity {severity!r} in the error spans",
            hint=f"ESA's severities are {', '.join(SEVERITIES)}.",
            **where,
        )
    category = item.get("error_type")
    category = None if category is None else str(category)
    start, end = item["start_i"], item["end_i"]
    if start == MISSING and end == MISSING:
        return ErrorSpan(0, 0, severity, category, in_target=False, line=line)
    if not (_whole(start) and _whole(end)):
        raise InputError(
            f"the error span's offsets {start!r}, {end!r} are not whole numbers",
            hint='Offsets are whole numbers, or "missing" for both.',
            **where,
        )
    return ErrorSpan(start, end, severity, category, line=line)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
