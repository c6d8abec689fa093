"""The MQM data model: error counts per rating and error type, before any weights.

A rating is one rater's judgment of one system's segment; an error type is a (severity, category)
pair. ``mteval_core.io.mqm_tsv`` reads Google's TSV into this; ``mteval_core.loss.mqm_loss``
weighs it into scores, so that a user can change the weights without reading the file again.
The errors are also kept one per row in file order (``error_rows``), because mt-metrics-eval sums
a rater's error weights in that order, and floating-point sums depend on it; and every segment
keeps what places it on a test set's lines (``segments``: ids, document and source text).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

Rating = tuple[str, str, str]  # (system, segment key, rater)
ErrorType = tuple[str, str]  # (severity, category)


@dataclass(frozen=True)
class MqmSegment:
    """What a file says about one rated segment, from the first row that names it."""

    key: str  # the segment of ``Rating``: seg_id (2020-2021 layout) or "doc::docSegId" (later)
    line: int  # the file line of that first row, for messages
    doc: str = ""
    doc_seg_id: str = ""  # 1-based position in the document ('' when the file has none)
    seg_id: str = ""  # seg_id (2020-2021: a line of the test set), globalSegId later
    source: str = ""  # the source as written, ``<v>`` markup included


@dataclass(frozen=True)
class MqmAnnotations:
    """``counts[i, j]``: how many errors of ``error_types[j]`` rating ``ratings[i]`` marked."""

    origin: str
    ratings: tuple[Rating, ...]  # in the order of their first row
    error_types: tuple[ErrorType, ...]
    counts: np.ndarray  # (ratings, error_types), whole numbers
    # (rating, error type) of every error, in file order; rows without an error are not here
    error_rows: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int64))
    segments: tuple[MqmSegment, ...] = ()  # one per segment key, in the order of first rows
    layout: str = "2020-2021"  # which header the file has (see mteval_core.io.mqm_tsv)
    notes: tuple[str, ...] = ()  # rows read in a way worth saying (attention checks, ...)
