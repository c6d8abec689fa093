"""Human judgments from CSV or TSV, at segment level or at system level.

A file with a segment column (segment, segment_id, seg_id or seg) holds segment scores; otherwise
it holds one score per system, as in the WMT system-level tables. Scores come from the ``score``
column, or, without one, from every other column that holds numbers (one criterion per column,
e.g. adequacy and fluency). Known bookkeeping columns (n_ratings, raw_score, ...) are ignored, and
so are columns that hold no numbers at all. A score that is empty or not a number is an error, not
a silent NaN: an unrated row should be removed, not guessed.

Files as WMT ships them also rate systems whose text is not in the test set: references rated as
systems (ref-B), metric-task or anonymised systems. :func:`read_human_for` sets their rows aside
with a note naming them and keeps the systems the test set has; only a file that rates none of
them is refused.
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import NoReturn

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import Row, Table, pick_column, read_table
from mteval_core.io.long_format import SEGMENT_KEYS, is_segment_number
from mteval_core.model.testset import HumanScores, TestSet

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
SHOWN = 5  # systems named in a note or a message; the others are counted


@dataclass(frozen=True)
class HumanRead:
    """Judgments ready for ``TestSet.with_human``, and what was set aside (one line each), for
    the command line to print on stderr and a page to show beside the results."""

    scores: HumanScores
    notes: tuple[str, ...] = ()


def read_human_for(
    test_set: TestSet,
    data: bytes,
    origin: str,
    *,
    criterion: str | None = None,
    lower_is_better: bool = False,
    segment_ids: Mapping[str, int] | None = None,
) -> HumanRead:
    """:func:`read_human` for one test set (its documents resolve ``docid::n`` segment ids),
    keeping the rows of its systems and references and setting the others aside with a note."""
    scores = read_human(
        data,
        origin,
        criterion=criterion,
        lower_is_better=lower_is_better,
        documents=test_set.documents,
        segment_ids=segment_ids,
    )
    return keep_known_systems(scores, [*test_set.system_names, *test_set.reference_names], origin)


def keep_known_systems(scores: HumanScores, known: Collection[str], origin: str) -> HumanRead:
    """The rows of ``known`` systems, and a note naming the systems whose rows were set aside.

    Refuses judgments that rate none of the known systems: then the names do not match at all
    (another test set, or another spelling), and continuing would correlate nothing.
    """
    frames = (scores.segment_rows, scores.system_rows)
    keep = [frame["system"].isin(set(known)) for frame in frames]
    rated = list(dict.fromkeys(name for frame in frames for name in frame["system"]))
    if rated and not any(mask.any() for mask in keep):
        first_line = min(int(frame["line"].min()) for frame in frames if len(frame))
        raise InputError(
            f"none of the {len(rated):,} systems rated here ({_listed(rated)}) is in the test set",
            origin=origin,
            line=first_line,  # the first row: its system name is one that does not match
            hint=f"The test set has {_listed(sorted(known))}. Check that the judgments belong "
            "to this test set and that the system names are spelled as the system files are "
            "named, or load those systems' output too.",
        )
    set_aside = [name for name in rated if name not in set(known)]
    notes = ()
    if set_aside:
        n_rows = sum(int((~mask).sum()) for mask in keep)
        verb = "was" if n_rows == 1 else "were"
        notes = (
            f"{origin}: {_count(n_rows, 'row')} for {_count(len(set_aside), 'system')} without "
            f"text in the test set ({', '.join(set_aside)}) {verb} set aside",
        )
    return HumanRead(HumanScores(frames[0][keep[0]], frames[1][keep[1]]), notes)


def _listed(names: Sequence[str]) -> str:
    shown = ", ".join(names[:SHOWN])
    return f"{shown} and {len(names) - SHOWN:,} more" if len(names) > SHOWN else shown


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"


def read_human(  # long: one pass over the rows, each check naming line and column
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
    _check_one_way_to_name_criteria(criterion_column, score_columns, table, origin)
    default_criterion = criterion or criterion_from_name(origin)
    resolve = SegmentResolver(documents, segment_ids, origin)
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


def _check_one_way_to_name_criteria(
    criterion_column: str | None, score_columns: list[str], table: Table, origin: str
) -> None:
    """A criterion column, or one score column per criterion: with both, which names a score?"""
    if criterion_column is not None and len(score_columns) > 1:
        raise InputError(
            "a criterion column needs a single 'score' column",
            origin=origin,
            line=table.header_line,
            hint="Either name the criterion in a 'criterion' column next to 'score', "
            "or give one column per criterion, not both.",
        )


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


class SegmentResolver:
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
