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
  ``converters/score_mqm.py --doc_id=docSegId`` keys them. Files written by the Marot viewer
  (generalMT2023's ``*.3ratingsPerSegment.tsv``) end the header with one more field, ``#
  Documentation: <its address>``, that no row has: a header field that starts with ``#`` is a
  comment, not a column (score_mqm.py's csv.DictReader leaves it empty in every row).

The layout is the one whose own id columns the header has (``docSegId`` or ``globalSegId``: 2022-
2024; else 2020-2021), and every message names that layout's columns.

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

from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import Table, read_table
from mteval_core.loss.annotations import ErrorType, MqmAnnotations, MqmSegment, Rating

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


@dataclass(frozen=True)
class Layout:
    """One of Google's headers: its columns as Google spells them, the ones a reading needs,
    and the names of its two segment ids (the position in the document, the global id)."""

    name: str
    columns: tuple[str, ...]
    required: tuple[str, ...]
    position: str  # the segment's 1-based position in its document
    global_id: str

    @property
    def hint(self) -> str:
        return (
            f"Google's MQM TSV of the {self.name} layout has the columns {', '.join(self.columns)}."
        )


LAYOUTS = {
    LAYOUT_2020: Layout(
        LAYOUT_2020,
        ("system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category",
         "severity", "[comment]"),
        ("system", "seg_id", "rater", "category", "severity"),
        "doc_id",
        "seg_id",
    ),
    LAYOUT_2022: Layout(
        LAYOUT_2022,
        ("system", "doc", "docSegId", "globalSegId", "rater", "source", "target", "category",
         "severity", "[metadata]"),
        ("system", "doc", "docSegId", "rater", "category", "severity"),
        "docSegId",
        "globalSegId",
    ),
}  # fmt: skip
# what a reading of either layout needs, for messages that cannot know the layout yet
REQUIRED = (
    "system",
    "seg_id (2020-2021) or doc and docSegId (2022-2024)",
    "rater",
    "category",
    "severity",
)
ONLY_MQM = {"category", "severity", "docsegid", "globalsegid"}  # no score file has these
COMMENT = "#"  # a header field that starts with it is a note, not a column (Marot's link)

__all__ = ["LAYOUTS", "REQUIRED", "MqmAnnotations", "is_mqm_header", "read_mqm"]


def is_mqm_header(header: list[str]) -> bool:
    """Whether a table's header is one of Google's MQM layouts (errors, not scores): a system
    column beside a column that only error annotations have. A file whose severity or seg_id
    column is misnamed is still one, and reading it names what is missing; read as scores, a
    numeric column (doc_id) would have become the score."""
    names = {name.strip().lower() for name in header}
    return "system" in names and bool(names & ONLY_MQM)


def layout_of(header: list[str]) -> Layout:
    """The layout whose own segment ids the header names: 2022-2024 with docSegId or
    globalSegId, else 2020-2021."""
    names = {name.lower() for name in header}
    return LAYOUTS[LAYOUT_2022 if names & {"docsegid", "globalsegid"} else LAYOUT_2020]


def read_mqm(data: bytes, origin: str) -> MqmAnnotations:
    """Read Google's MQM TSV; unknown severities and missing columns are errors, not zeros."""
    text, comment = _without_header_comment(decode(data, origin))
    table = read_table(text, origin)
    columns = {name.lower(): name for name in table.header}
    layout = layout_of(table.header)
    missing = [name for name in layout.required if name.lower() not in columns]
    if missing:
        raise InputError(
            f"the MQM file has no column {', '.join(map(repr, missing))}",
            origin=origin,
            line=table.header_line,
            hint=layout.hint,
        )
    if not table.rows:
        raise InputError("there are no ratings, only a header", origin=origin)
    return _Reader(table, columns, layout, origin, comment).read()


def _without_header_comment(text: str) -> tuple[str, str | None]:
    """The text without the header's trailing ``#`` fields, and those fields as written (None
    when there are none). Only the header line is rebuilt; the rows are left as they are."""
    start = 0
    while (end := text.find("\n", start)) != -1 and not text[start:end].strip():
        start = end + 1  # blank lines before the header
    end = len(text) if end == -1 else end
    fields = text[start:end].rstrip("\r").split("\t")
    kept = len(fields)
    while kept > 1 and fields[kept - 1].strip().startswith(COMMENT):
        kept -= 1
    if kept == len(fields):
        return text, None
    comment = "\t".join(fields[kept:]).strip()
    return text[:start] + "\t".join(fields[:kept]) + text[end:], comment


class _Reader:
    """One pass over the rows: ratings, error types, errors in file order, segments, notes."""

    def __init__(
        self,
        table: Table,
        columns: dict[str, str],
        layout: Layout,
        origin: str,
        comment: str | None,
    ) -> None:
        self.table = table
        self.columns = columns
        self.layout = layout
        self.later = layout.name == LAYOUT_2022
        self.origin = origin
        self.comment = comment
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
        key_column = self.layout.position if self.later else self.layout.global_id
        for row in self.table.rows:
            for name in ("system", key_column.lower(), "rater"):
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
            self.layout.name,
            self.notes(),
        )

    def add(self, line: int, cells: dict[str, str]) -> None:
        severity = self.severity(line, cells)
        doc = self.cell(cells, "doc")
        doc_seg_id = self.cell(cells, self.layout.position.lower())
        seg_id = self.cell(cells, self.layout.global_id.lower())
        key = f"{doc}::{doc_seg_id}" if self.later else seg_id
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
        if not written and self.later:
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
        notes = [f"{self.origin}: read as Google's MQM TSV, {self.layout.name} layout"]
        if self.comment is not None:
            notes.append(
                f"{self.origin}: the header's last field, {self.comment!r}, is a note (Google's "
                "Marot viewer writes its documentation link there), not a column"
            )
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
