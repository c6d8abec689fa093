"""MQM error annotations in Google's published TSV format (google/wmt-mqm-human-evaluation).

One row per error, or one ``No-error`` row for a segment a rater found no error in; the columns
used are system, seg_id, rater, severity and category (doc, doc_id, source, target and comment may
be there too and are ignored). We count the errors of every (severity, category) per rating, a
rating being one rater's judgment of one system's segment (mteval_core.loss.annotations); weights
are applied later (mteval_core.loss.mqm_loss), so that a user can change them without reading
the file again.
"""

from __future__ import annotations

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import read_table
from mteval_core.loss.annotations import ErrorType, MqmAnnotations, Rating

REQUIRED = ("system", "seg_id", "rater", "category", "severity")
NO_ERROR = "No-error"
SEVERITIES = ("Critical", "Major", "Minor", "Neutral", NO_ERROR)

__all__ = ["MqmAnnotations", "read_mqm"]


def read_mqm(data: bytes, origin: str) -> MqmAnnotations:
    """Read Google's MQM TSV; unknown severities and missing columns are errors, not zeros."""
    table = read_table(decode(data, origin), origin)
    columns = {name.lower(): name for name in table.header}
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise InputError(
            f"the MQM file has no column {', '.join(map(repr, missing))}",
            origin=origin,
            line=table.header_line,
            hint=f"Google's MQM TSV has the columns {', '.join(REQUIRED)} (and doc, doc_id, "
            "source, target, comment).",
        )
    if not table.rows:
        raise InputError("there are no ratings, only a header", origin=origin)
    known_severities = {severity.lower(): severity for severity in SEVERITIES}
    ratings: dict[Rating, int] = {}
    error_types: dict[ErrorType, int] = {}
    found: list[tuple[int, int]] = []  # (rating, error type), one per error
    for row in table.rows:
        cells = {name: row.cells[columns[name]].strip() for name in REQUIRED}
        for name in ("system", "seg_id", "rater", "severity"):
            if not cells[name]:
                raise InputError(
                    f"the {name} is empty", origin=origin, line=row.line, column=columns[name]
                )
        severity = known_severities.get(cells["severity"].lower())
        if severity is None:
            raise InputError(
                f"unknown severity {cells['severity']!r}",
                origin=origin,
                line=row.line,
                column=columns["severity"],
                hint=f"MQM severities are {', '.join(SEVERITIES)}.",
            )
        rating = ratings.setdefault(
            (cells["system"], cells["seg_id"], cells["rater"]), len(ratings)
        )
        if severity != NO_ERROR:
            error_type = (severity, cells["category"])
            found.append((rating, error_types.setdefault(error_type, len(error_types))))
    counts = np.zeros((len(ratings), len(error_types)))
    for rating, error_type in found:
        counts[rating, error_type] += 1
    return MqmAnnotations(origin, tuple(ratings), tuple(error_types), counts)
