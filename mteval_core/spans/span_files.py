"""Which span reader a file needs, by its content (never by its name): Google's MQM TSV and
WMT25 task 2's TSV by their header; JSON Lines by their first object's keys (WMT25's humeval:
``doc_id`` and ``scores``; Pearmut's log: ``user_id`` and ``item_i``); without a header,
GEMBA-MQM's error lists (every line ``defaultdict(<class 'list'>, {...})`` or None), placed on
the translations given with them, or Appraise's ESA export."""

from __future__ import annotations

import json
from collections.abc import Sequence

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode, split_lines
from mteval_core.io.gemba_mqm import is_gemba_mqm, read_gemba_mqm_spans
from mteval_core.io.mqm_tsv import is_mqm_header
from mteval_core.model.spans import SpanAnnotations
from mteval_core.spans.annotation_logs import read_humeval_spans, read_pearmut_spans
from mteval_core.spans.esa_export import read_esa_spans
from mteval_core.spans.mqm_marks import read_mqm_spans
from mteval_core.spans.task2_tsv import is_task2_header, read_task2_spans

ESA_FIELDS = 12
FORMATS = (
    "Google's MQM TSV (target with <v>...</v> marks), WMT25 task 2's TSV (start_indices, "
    "end_indices, error_types), an Appraise ESA export (CSV, 12 fields, no header), WMT25's "
    "humeval JSON Lines (doc_id, scores) or a Pearmut log (JSON Lines: user_id, item_i, "
    "annotation)"
)
GEMBA_NEEDS_TRANSLATIONS = (
    "GEMBA-MQM's error lists quote each error's text without its place in the translation: "
    "give the translations the file judged (one per line, in its order) with it to place them"
)


def read_span_file(
    data: bytes,
    origin: str,
    translations: Sequence[str] | None = None,
    system: str | None = None,
) -> SpanAnnotations:
    """The annotations of one file in any of the formats above; ``translations`` (of
    ``system``) are what a GEMBA-MQM file's quotes are placed on, and are needed for it."""
    text = decode(data, origin)
    lines = split_lines(text)
    if is_gemba_mqm(lines):
        if translations is None or system is None:
            raise InputError(
                "this is GEMBA-MQM's list of errors, and no translations were given",
                origin=origin,
                hint=GEMBA_NEEDS_TRANSLATIONS + ".",
            )
        while lines and not lines[-1].strip():
            lines.pop()
        return read_gemba_mqm_spans(lines, origin, translations, system)
    first = next((line for line in text.split("\n") if line.strip()), "")
    keys = _json_keys(first)
    if {"doc_id", "scores"} <= keys:
        return read_humeval_spans(data, origin)
    if {"user_id", "item_i"} <= keys:
        return read_pearmut_spans(data, origin)
    header = [name.strip() for name in first.rstrip("\r").split("\t")]
    if is_task2_header(header):
        return read_task2_spans(data, origin)
    if is_mqm_header(header):
        return read_mqm_spans(data, origin)
    if "\t" not in first and first.count(",") >= ESA_FIELDS - 1:
        return read_esa_spans(data, origin)
    raise InputError(
        "this file holds no error spans that mteval can read",
        origin=origin,
        line=1,
        hint=f"Give {FORMATS}.",
    )


def _json_keys(line: str) -> set[str]:
    """The keys of ``line`` when it is one JSON object (a JSON Lines file's first line)."""
    if not line.lstrip().startswith("{"):
        return set()
    try:
        value = json.loads(line)
    except ValueError:
        return set()
    return set(value) if isinstance(value, dict) else set()
