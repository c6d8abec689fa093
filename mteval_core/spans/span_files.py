"""Which span reader a file needs, by its header (never by its name): Google's MQM TSV,
WMT25 task 2's TSV, or, without a header, Appraise's ESA export."""

from __future__ import annotations

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.mqm_tsv import is_mqm_header
from mteval_core.model.spans import SpanAnnotations
from mteval_core.spans.esa_export import read_esa_spans
from mteval_core.spans.mqm_marks import read_mqm_spans
from mteval_core.spans.task2_tsv import is_task2_header, read_task2_spans

ESA_FIELDS = 12
FORMATS = (
    "Google's MQM TSV (target with <v>...</v> marks), WMT25 task 2's TSV (start_indices, "
    "end_indices, error_types) or an Appraise ESA export (CSV, 12 fields, no header)"
)


def read_span_file(data: bytes, origin: str) -> SpanAnnotations:
    """The annotations of one file in any of the formats above."""
    text = decode(data, origin)
    first = next((line for line in text.split("\n") if line.strip()), "")
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
