"""What kind of human-annotation file a file is, told apart as ``mteval rank --protocol`` and
the Rankings page both need it: mt-metrics-eval's ``.rating`` files by their name, Appraise's
ESA and DA+SQM exports by the number of fields of their first row (the chosen reader then checks
every row), WMT25's humeval JSON Lines and Pearmut's logs by their first object, each pair's
``LP.docs`` file by its name.
"""

from __future__ import annotations

import csv
import json

from mteval_core.errors import InputError
from mteval_core.io.appraise_da_sqm import FIELDS as DA_SQM_FIELDS
from mteval_core.io.appraise_esa import FIELDS as ESA_FIELDS
from mteval_core.io.decoding import read_text
from mteval_core.io.pearmut import is_pearmut_bytes

# The kinds of file a human upload holds, and the procedures each one fits
KIND_PROTOCOLS = {
    "esa": ("wmt24", "custom"),  # with the pairs' .docs files
    "da-sqm": ("wmt23", "custom"),
    "wmt25-humeval": ("wmt25",),
    "pearmut": ("wmt25",),
}


def export_layout(data: bytes, origin: str) -> str:
    """'mtme' for a .rating file; else 'esa' or 'da-sqm' by the number of fields of the
    file's first row."""
    if origin.endswith(".rating"):
        return "mtme"
    count = _first_row_fields(data, origin)
    if count == len(ESA_FIELDS):
        return "esa"
    if count == len(DA_SQM_FIELDS):
        return "da-sqm"
    raise InputError(
        f"the first row has {count} fields: neither an ESA export ({len(ESA_FIELDS)}) nor a "
        f"DA+SQM export ({len(DA_SQM_FIELDS)})",
        origin=origin,
        line=1,
        hint="Give Appraise's export as it writes it.",
    )


def human_upload_kind(data: bytes, name: str) -> str:
    """'docs', 'pearmut', 'wmt25-humeval', 'esa' or 'da-sqm'; anything else is refused with one
    message naming the file and the kinds it could have been."""
    if name.endswith(".docs"):
        return "docs"
    if is_pearmut_bytes(data):
        return "pearmut"
    first = next((line for line in data.splitlines() if line.strip()), b"")
    if first.lstrip(b"\xef\xbb\xbf").lstrip().startswith(b"{"):
        try:
            value = json.loads(first.removeprefix(b"\xef\xbb\xbf"))
        except ValueError:
            value = None
        if isinstance(value, dict) and "doc_id" in value:
            return "wmt25-humeval"
    elif not name.endswith(".rating"):
        count = _first_row_fields(data, name)
        if count == len(ESA_FIELDS):
            return "esa"
        if count == len(DA_SQM_FIELDS):
            return "da-sqm"
    raise InputError(
        "this file fits no human ranking: it is neither an Appraise ESA export (CSV of "
        f"{len(ESA_FIELDS)} fields), a DA+SQM export (CSV of {len(DA_SQM_FIELDS)} fields), "
        "WMT25's humeval JSON Lines (objects with a doc_id), a Pearmut log (objects with "
        "user_id and item_i) nor a pair's LP.docs file",
        origin=name,
        line=1,
        hint="Upload the annotations as the organisers or Appraise and Pearmut write them.",
    )


def _first_row_fields(data: bytes, origin: str) -> int:
    text = read_text(data, origin)
    first = next((line for line in text.split("\n") if line.strip()), "")
    return len(next(csv.reader([first]), []))
