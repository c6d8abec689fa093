"""MQM error annotations in Google's published TSV format (google/wmt-mqm-human-evaluation).

One row per error, or one ``No-error`` row for a segment a rater found no error in. Two layouts,
told apart by the header:

- 2020-2021 (newstest2020, newstest2021, WMT21 TED): ``system, doc, doc_id, seg_id, rater, source,
  target, category, severity`` (plus ``comment`` in some files). ``seg_id`` numbers the segment in
  the whole test set, ``doc_id`` its position in ``doc``.
- 2022-2024 (generalMT2022, generalMT2023, generalMT2024; the column order of Google's Marot
  viewer): ``system, doc, docSegId, globalSegId, rater, source, target, category, severity`` and,
  in the later files, ``metadata`` (a JSON object: timestamps, rater notes). ``docSegId`` is the
  1-based position in ``doc``; ``globalSegId`` is an application's own id (in 2024 it counts a
  canary segment first), so segments are keyed by ``doc::docSegId``, as mt-metrics-eval's
  ``converters/score_mqm.py --doc_id=docSegId`` keys them.

Fields are never quoted: a quote is a literal character (score_mqm.py reads with
``csv.QUOTE_NONE``; mteval_core.io.delimited splits TSV on tabs only). Error spans are marked
``<v>...</v>`` in source or target. Severities are matched without regard to case (2024 writes
``minor``, ``major``): Critical, Major, Minor, Neutral, ``No-error`` (a rating without errors),
``HOTW-test`` (a hands-on-the-wheel attention check: a sentence with an injected error, category
``Found`` or ``Missed``), and ``Source issue`` or ``Non-translation!`` where a file puts them in
the severity column (Google's Anthea tool makes them categories: ``Non-translation!`` with severity
Major, ``Source issue`` with the severity the rater chose). A ``No-error`` or ``HOTW-test`` row,
and in the 2022-2024 layout a row with an empty severity, is a rating without an error: the rater
still counts for the segment, with 0 points, as in score_mqm.py, where every row adds its
rater and an unknown severity weighs 0.

We count the errors of every (severity, category) per rating, a rating being one rater's
judgment of one system's segment (mteval_core.loss.annotations); weights are applied later
(mteval_core.loss.mqm_loss), so that a user can change them without reading the file again.
"""

from __future__ import annotations

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import Table, read_table
from mteval_core.loss.annotations import ErrorType, MqmAnnotations, MqmSegment, Rating

REQUIRED = ("system", "seg_id", "rater", "category", "severity")  # the 2020-2021 layout
REQUIRED_LATER = ("system", "doc", "docsegid", "rater", "category", "severity")
NO_ERROR = "No-error"
ATTENTION_CHECK = "HOTW-test"
NOT_ERRORS = (NO_ERROR, ATTENTION_CHECK)
SEVERITIES = (
    "Critical",
    "Major",
    "Minor",
    "Neutral",
    NO_ERROR,
    ATTENTION_CHECK,
    "Source issue",
    "Non-translation!",
)
LAYOUT_2020 = "2020-2021"
LAYOUT_2022 = "2022-2024"
LAYOUT_HINT = (
    "Google's MQM TSV has the columns system, doc, doc_id, seg_id, rater, source, target, "
    "category, severity (2020-2021), or system, doc, docSegId, globalSegId, rater, source, "
    "target, category, severity, metadata (2022-2024)."
)

__all__ = ["MqmAnnotations", "is_mqm_header", "read_mqm"]


def is_mqm_header(header: list[str]) -> bool:
    """Whether a table's header is one of Google's MQM layouts (errors, not scores)."""
    names = {name.lower() for name in header}
    return {"system", "rater", "category", "severity"} <= names and bool(
        names & {"seg_id", "docsegid"}
    )


def read_mqm(data: bytes, origin: str) -> MqmAnnotations:
    """Read Google's MQM TSV; unknown severities and missing columns are errors, not zeros."""
    table = read_table(decode(data, origin), origin)
    columns = {name.lower(): name for name in table.header}
    layout = LAYOUT_2022 if "docsegid" in columns else LAYOUT_2020
    required = REQUIRED_LATER if layout == LAYOUT_2022 else REQUIRED
    missing = [columns.get(name, name) for name in required if name not in columns]
    if missing:
        raise InputError(
            f"the MQM file has no column {', '.join(map(repr, missing))}",
            origin=origin,
            line=table.header_line,
            hint=LAYOUT_HINT,
        )
    if not table.rows:
        raise InputError("there are no ratings, only a header", origin=origin)
    return _Reader(table, columns, layout, origin).read()


class _Reader:
    """One pass over the rows: ratings, error types, errors in file order, segments, notes."""

    def __init__(self, table: Table, columns: dict[str, str], layout: str, origin: str) -> None:
        self.table = table
        self.columns = columns
        self.layout = layout
        self.origin = origin
        self.known = {severity.lower(): severity for severity in SEVERITIES}
        self.ratings: dict[Rating, int] = {}
        self.error_types: dict[ErrorType, int] = {}
        self.found: list[tuple[int, int]] = []  # (rating, error type), one per error
        self.segments: dict[str, MqmSegment] = {}
        self.not_errors = {ATTENTION_CHECK: 0, "": 0}

    def cell(self, cells: dict[str, str], name: str) -> str:
        column = self.columns.get(name)
        return cells[column].strip() if column is not None else ""

    def read(self) -> MqmAnnotations:
        key_columns = ("docsegid",) if self.layout == LAYOUT_2022 else ("seg_id",)
        for row in self.table.rows:
            for name in ("system", *key_columns, "rater"):
                if not self.cell(row.cells, name):
                    column = self.columns[name]
                    raise InputError(
                        f"the {column} is empty", origin=self.origin, line=row.line, column=column
                    )
            self.add(row.line, row.cells)
        counts = np.zeros((len(self.ratings), len(self.error_types)))
        for rating, error_type in self.found:
            counts[rating, error_type] += 1
        return MqmAnnotations(
            self.origin,
            tuple(self.ratings),
            tuple(self.error_types),
            counts,
            np.array(self.found, dtype=np.int64).reshape(len(self.found), 2),
            tuple(self.segments.values()),
            self.layout,
            self.notes(),
        )

    def add(self, line: int, cells: dict[str, str]) -> None:
        severity = self.severity(line, cells)
        doc = self.cell(cells, "doc")
        if self.layout == LAYOUT_2022:
            doc_seg_id = self.cell(cells, "docsegid")
            key, seg_id = f"{doc}::{doc_seg_id}", self.cell(cells, "globalsegid")
        else:
            doc_seg_id = self.cell(cells, "doc_id")
            key = seg_id = self.cell(cells, "seg_id")
        if key not in self.segments:
            source = self.cell(cells, "source")
            self.segments[key] = MqmSegment(key, line, doc, doc_seg_id, seg_id, source)
        system, rater = self.cell(cells, "system"), self.cell(cells, "rater")
        rating = self.ratings.setdefault((system, key, rater), len(self.ratings))
        if severity in self.not_errors:
            self.not_errors[severity] += 1
        elif severity != NO_ERROR:
            error_type = (severity, self.cell(cells, "category"))
            self.found.append(
                (rating, self.error_types.setdefault(error_type, len(self.error_types)))
            )

    def severity(self, line: int, cells: dict[str, str]) -> str:
        """The severity as SEVERITIES spell it; '' (no error marked) only in the later layout."""
        written = self.cell(cells, "severity")
        if not written and self.layout == LAYOUT_2022:
            return ""
        if not written:
            raise InputError(
                "the severity is empty",
                origin=self.origin,
                line=line,
                column=self.columns["severity"],
                hint="A rating without errors has a row with the severity No-error.",
            )
        severity = self.known.get(written.lower())
        if severity is None:
            raise InputError(
                f"unknown severity {written!r}",
                origin=self.origin,
                line=line,
                column=self.columns["severity"],
                hint=f"MQM severities are {', '.join(SEVERITIES)}.",
            )
        return severity

    def notes(self) -> tuple[str, ...]:
        n_checks, n_empty = self.not_errors[ATTENTION_CHECK], self.not_errors[""]
        notes = [f"{self.origin}: read as Google's MQM TSV, {self.layout} layout"]
        if n_checks:
            notes.append(
                f"{self.origin}: {n_checks:,} HOTW-test rows (attention checks) count as ratings "
                "without errors (0 points), as in mt-metrics-eval"
            )
        if n_empty:
            notes.append(
                f"{self.origin}: {n_empty:,} rows without a severity count as ratings without "
                "errors (0 points), as in mt-metrics-eval"
            )
        return tuple(notes)
