"""Human judgments from CSV or TSV, at segment level or at system level.

A file with a segment column (segment, segment_id, seg_id or seg) holds segment scores; otherwise
it holds one score per system, as in the WMT system-level tables. Scores come from the ``score``
column, or, without one, from every other column that holds numbers (one criterion per column,
e.g. adequacy and fluency). Known bookkeeping columns (n_ratings, raw_score, ...) are ignored, and
so are columns that hold no numbers at all. A score that is empty or not a number is an error, not
a silent NaN: an unrated row should be removed, not guessed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from pathlib import PurePath
from typing import NoReturn

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import Row, Table, pick_column, read_table
from mteval_core.io.long_format import SEGMENT_KEYS, is_segment_number
from mteval_core.testset import HumanScores

IGNORED = {
    "raw_score",
    "n_ratings",
    "n_all",
    "n_segments",
    "has_text_output",
    "original_id",
    "doc",
    "doc_seg_id",
    "line",
}
SCORE_HINT = "Remove unrated rows, or give a number."


def read_human(
    data: bytes,
    origin: str,
    *,
    criterion: str | None = None,
    lower_is_better: bool = False,
    documents: tuple[str, ...] | None = None,
    segment_ids: Mapping[str, int] | None = None,
) -> HumanScores:
    """Read human scores; all of them are stored "higher is better".

    ``criterion`` names the scores when the file has neither a criterion column nor several
    score columns; by default it is derived from the file name (MQM, DA, else 'score').
    ``documents`` (one document id per segment) resolves WMT segment ids such as ``doc::3``.
    ``segment_ids`` maps a test set's own segment ids to 1-based line numbers (segment_ids.tsv);
    without it a numeric segment id is the line number itself.
    """
    table = read_table(decode(data, origin), origin)
    if not table.rows:
        raise InputError(
            "there are no scores, only a header", origin=origin, hint="Add one row per score."
        )
    columns = {name.lower(): name for name in table.header}
    system = _required(table, columns, "system", origin)
    segment = pick_column(columns, SEGMENT_KEYS, origin, table.header_line)
    rater = columns.get("rater")
    criterion_column = columns.get("criterion")
    score_columns = _score_columns(table, columns, origin)
    if criterion_column is not None and len(score_columns) > 1:
        raise InputError(
            "a criterion column needs a single 'score' column",
            origin=origin,
            line=table.header_line,
            hint="Either name the criterion in a 'criterion' column next to 'score', "
            "or give one column per criterion, not both.",
        )
    default_criterion = criterion or criterion_from_name(origin)
    resolve = _SegmentResolver(documents, segment_ids, origin)
    sign = -1.0 if lower_is_better else 1.0
    records = []
    for row in table.rows:
        name = row.cells[system].strip()
        if not name:
            raise InputError(
                "the system name is empty", origin=origin, line=row.line, column=system
            )
        record = {"system": name, "origin": origin, "line": row.line}
        if segment is not None:
            record["segment"] = resolve(row, segment)
        if rater is not None:
            record["rater"] = row.cells[rater].strip()
        for column in score_columns:
            if criterion_column is not None:
                label = _criterion_cell(row, criterion_column, origin)
            elif len(score_columns) > 1:
                label = column
            else:
                label = default_criterion
            score = sign * _score(row, column, origin)
            records.append({**record, "criterion": label, "score": score})
    import pandas as pd  # here, not at the top: scoring without human scores stays fast

    frame = pd.DataFrame.from_records(records)
    if segment is None:
        return HumanScores(system_rows=frame)
    return HumanScores(segment_rows=frame)


def criterion_from_name(origin: str) -> str:
    """'MQM' or 'DA' when the file name says so (mqm_seg.tsv, da_sys.csv), else 'score'."""
    stem = PurePath(origin).stem.lower()
    if "mqm" in stem:
        return "MQM"
    if "da" in re.split(r"[^a-z0-9]+", stem):
        return "DA"
    return "score"


def _required(table: Table, columns: dict[str, str], name: str, origin: str) -> str:
    if name not in columns:
        raise InputError(
            f"there is no {name!r} column",
            origin=origin,
            line=table.header_line,
            hint="Human scores need a header with system and score (and segment for "
            "segment-level scores).",
        )
    return columns[name]


def _score_columns(table: Table, columns: dict[str, str], origin: str) -> list[str]:
    """'score', or else every other column that holds at least one number."""
    if "score" in columns:
        return [columns["score"]]
    roles = {"system", "rater", "criterion", *SEGMENT_KEYS, *IGNORED}
    found = [
        name
        for lower, name in columns.items()
        if lower not in roles and any(_number(row.cells[name]) is not None for row in table.rows)
    ]
    if not found:
        raise InputError(
            "there is no score column",
            origin=origin,
            line=table.header_line,
            hint="Name the column with the scores 'score', or give one numeric column per "
            "criterion (e.g. adequacy, fluency).",
        )
    return found


def _number(cell: str) -> float | None:
    try:
        value = float(cell.strip())
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _score(row: Row, column: str, origin: str) -> float:
    cell = row.cells[column]
    value = _number(cell)
    if value is None:
        problem = "the score is empty" if not cell.strip() else f"{cell.strip()!r} is not a number"
        raise InputError(problem, origin=origin, line=row.line, column=column, hint=SCORE_HINT)
    return value


def _criterion_cell(row: Row, column: str, origin: str) -> str:
    label = row.cells[column].strip()
    if not label:
        raise InputError(
            "the criterion is empty",
            origin=origin,
            line=row.line,
            column=column,
            hint="Name the criterion of every score (e.g. MQM, DA, adequacy).",
        )
    return label


class _SegmentResolver:
    """Segment ids as line numbers (or ids from segment_ids.tsv), or WMT ``docid::n``."""

    def __init__(
        self,
        documents: tuple[str, ...] | None,
        segment_ids: Mapping[str, int] | None,
        origin: str,
    ) -> None:
        self.origin = origin
        self.segment_ids = segment_ids
        self.positions: dict[str, list[int]] | None = None
        if documents is not None:
            self.positions = {}
            for number, doc in enumerate(documents, start=1):
                self.positions.setdefault(doc, []).append(number)

    def __call__(self, row: Row, column: str) -> int:
        text = row.cells[column].strip()
        if self.segment_ids is not None and text in self.segment_ids:
            return self.segment_ids[text]
        if is_segment_number(text):
            if self.segment_ids is not None:
                self._fail(
                    row,
                    column,
                    f"segment id {text} is not in the segment_id column of segment_ids.tsv",
                    "Human scores in a folder with segment_ids.tsv use its segment ids.",
                )
            return int(text)
        doc, separator, number = text.rpartition("::")
        if not separator:
            self._fail(row, column, f"segment id {text!r} is not a number", None)
        if self.positions is None:
            self._fail(
                row,
                column,
                f"segment id {text!r} refers to a document, but no document ids were given",
                "Give the document of every segment (segment_ids.tsv in a test set folder).",
            )
        in_doc = self.positions.get(doc)
        if in_doc is None:
            self._fail(row, column, f"there is no document {doc!r} in the test set", None)
        if not (is_segment_number(number) and 1 <= int(number) <= len(in_doc)):
            self._fail(
                row,
                column,
                f"document {doc!r} has no segment {number!r} (it has {len(in_doc)})",
                None,
            )
        return in_doc[int(number) - 1]

    def _fail(self, row: Row, column: str, problem: str, hint: str | None) -> NoReturn:
        raise InputError(
            problem,
            origin=self.origin,
            line=row.line,
            column=column,
            hint=hint
            or "Segment ids are 1-based line numbers, or docid::n for the n-th "
            "segment of a document.",
        )
