"""Human judgments from CSV or TSV, at segment level or at system level.

A file with a segment column (segment, segment_id, seg_id or seg) holds segment scores; otherwise
it holds one score per system, as in the WMT system-level tables. Google's per-segment MQM
averages (``mqm_*.avg_seg_scores.tsv``, split by spaces) are read as released
(:func:`google_averages_as_tsv`). Scores come from the ``score``
column, or, without one, from every other column that holds numbers (one criterion per column,
e.g. adequacy and fluency). Known bookkeeping columns (n_ratings, raw_score, ...) are ignored, and
so are columns that hold no numbers at all, unless they hold numbers with decimal commas, which
are refused. A score that is empty or not a number (:mod:`numbers`: 1_000, nan or ١٢٣ are none) is
an error, not a silent NaN: an unrated row should be removed, not guessed.

Files as WMT ships them also rate systems whose text is not in the test set: references rated as
systems (ref-B), metric-task or anonymised systems. :func:`read_human_for` sets their rows aside
with a note that counts them and names the first few, and keeps the systems the test set has; only
a file that rates none of them is refused.

A WMT file can hold millions of rows, so the cells are checked column by column (each distinct
segment id and score once), never as a Python object per row; a problem is still reported at the
line and column of the first bad cell.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import PurePath

import numpy as np

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import Row, Table, pick_column, read_table
from mteval_core.io.human_read import HumanRead, keep_known_systems
from mteval_core.io.long_format import SEGMENT_KEYS, is_segment_number
from mteval_core.io.mqm_placement import HowToGive
from mteval_core.io.numbers import (
    holds_numbers,
    number_problem,
    parse_number,
)
from mteval_core.io.system_names import file_name_aliases
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
    "doc_id",  # the 2020-2021 MQM layout's position in the document, never a score
    "docsegid",
    "globalsegid",
    "line",
}
SCORE_HINT = "Remove unrated rows, or give a number."
GOOGLE_AVERAGES = ("system", "mqm_avg_score", "seg_id")  # the header of Google's MQM averages
CRITERION_HINT = "Name the criterion of every score (e.g. MQM, DA, adequacy)."


def read_human_for(
    test_set: TestSet,
    data: bytes,
    origin: str,
    *,
    criterion: str | None = None,
    lower_is_better: bool = False,
    segment_ids: Mapping[str, int] | None = None,
    how_to_give: HowToGive | None = None,
) -> HumanRead:
    """:func:`read_human` for one test set (its documents resolve ``docid::n`` segment ids),
    keeping the rows of its systems and references and setting the others aside with a note.
    A system may be named by its whole file name too (:mod:`mteval_core.io.system_names`).
    Google's MQM error annotations (mteval_core.io.mqm_tsv) become MQM scores placed on the test
    set's lines (mteval_core.io.mqm_placement); ``how_to_give`` words what would place a segment
    that nothing places (by default, the Data page's files)."""
    if is_mqm_file(data):
        from mteval_core.io.mqm_placement import mqm_human_for
        from mteval_core.io.mqm_tsv import read_mqm

        return mqm_human_for(
            test_set,
            read_mqm(data, origin),
            segment_ids=segment_ids,
            lower_is_better=lower_is_better,
            how_to_give=how_to_give or HowToGive(),
        )
    scores = read_human(
        data,
        origin,
        criterion=criterion,
        lower_is_better=lower_is_better,
        documents=test_set.documents,
        segment_ids=segment_ids,
    )
    scores = scores.renamed(file_name_aliases(test_set.systems))
    return keep_known_systems(scores, [*test_set.system_names, *test_set.reference_names], origin)


def is_mqm_file(data: bytes) -> bool:
    """Whether the first line that is not blank is the header of Google's MQM TSV (only the
    start of the file is looked at: reading it checks the rest)."""
    from mteval_core.io.mqm_tsv import is_mqm_header

    for line in data[:65536].split(b"\n"):
        if line.strip():
            header = line.decode("utf-8", errors="replace").lstrip("\ufeff").rstrip("\r")
            return "\t" in header and is_mqm_header(header.split("\t"))
    return False


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
    text = decode(data, origin)
    if (averages := google_averages_as_tsv(text)) is not None:
        text, criterion = averages, criterion or "MQM"
    table = read_table(text, origin)
    if not len(table):
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
    cells = _Cells(table, origin)
    record: dict[str, object] = {
        "system": cells.names(system, "the system name is empty"),
        "origin": origin,
        "line": np.asarray(table.lines, dtype=np.int64),
    }
    if segment is not None:
        record["segment"] = cells.segments(segment, SegmentResolver(documents, segment_ids, origin))
    if rater is not None:
        record["rater"] = cells.stripped(rater)
    criteria: str | list[str] = criterion or criterion_from_name(origin)
    if criterion_column is not None:
        criteria = cells.names(criterion_column, "the criterion is empty", CRITERION_HINT)
    sign = -1.0 if lower_is_better else 1.0
    scores = {column: sign * cells.scores(column) for column in score_columns}
    cells.raise_first_problem()
    return _human_scores(record, criteria, scores, segment is not None)


def _human_scores(
    record: dict[str, object],
    criteria: str | list[str],
    scores: dict[str, np.ndarray],
    by_segment: bool,
) -> HumanScores:
    """One row per file row and score column, in that order (a row's criteria side by side), as
    the model keeps them. ``criteria`` is every score's criterion, or each row's (a criterion
    column); several score columns are criteria by their names."""
    import pandas as pd  # here, not at the top: scoring without human scores stays fast

    n_rows = len(record["line"])  # type: ignore[arg-type]
    frame = pd.DataFrame(record, index=pd.RangeIndex(n_rows))
    if len(scores) > 1:  # every row once per score column: row 1's scores, then row 2's...
        frame = frame.take(np.repeat(np.arange(n_rows), len(scores))).reset_index(drop=True)
        criteria = list(np.tile(np.asarray(list(scores), dtype=object), n_rows))
    frame["criterion"] = criteria
    frame["score"] = np.column_stack(list(scores.values())).ravel()
    if by_segment:
        return HumanScores(segment_rows=frame)
    return HumanScores(system_rows=frame)


def google_averages_as_tsv(text: str) -> str | None:
    """Google's per-segment MQM averages (``mqm_*.avg_seg_scores.tsv`` in
    google/wmt-mqm-human-evaluation, 2020-2022) as a TSV of system, score and seg_id; None for
    any other file. Google writes them with a header ``system mqm_avg_score seg_id`` split by
    spaces and rows split by spaces or a tab and a space, and ``None`` for a segment nobody
    rated: that row becomes a blank line (no row; the other rows keep their lines), as
    mt-metrics-eval leaves ``None`` unrated."""
    lines = text.split("\n")
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or lines[first].split() != list(GOOGLE_AVERAGES):
        return None
    rows = []
    for line in lines[first + 1 :]:
        fields = line.split()
        rows.append("" if len(fields) == 3 and fields[1] == "None" else "\t".join(fields))
    return "\n".join([*lines[:first], "system\tscore\tseg_id", *rows])


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
    """'score', or else every other column that holds at least one number. A column of numbers
    with decimal commas is refused: skipped, its criterion would vanish without a word."""
    if "score" in columns:
        return [columns["score"]]
    roles = {"system", "rater", "criterion", *SEGMENT_KEYS, *IGNORED}
    found = []
    for lower, name in columns.items():
        if lower in roles:
            continue
        if holds_numbers(table, name, origin):
            found.append(name)
    if not found:
        raise InputError(
            "there is no score column",
            origin=origin,
            line=table.header_line,
            hint="Name the column with the scores 'score', or give one numeric column per "
            "criterion (e.g. adequacy, fluency).",
        )
    return found


class _Cells:
    """Columns of a table checked cell by cell, each distinct value once; the first bad cell of
    each column is kept, and ``raise_first_problem`` raises the one that comes first in the file
    (the row a reader checking row by row would have stopped at)."""

    def __init__(self, table: Table, origin: str) -> None:
        self.table = table
        self.origin = origin
        self.problems: list[tuple[int, InputError]] = []  # (row index, error)

    def stripped(self, column: str) -> list[str]:
        return list(map(str.strip, self.table.columns[column]))

    def names(self, column: str, empty: str, hint: str | None = None) -> list[str]:
        """Stripped cells, none of them empty."""
        cells = self.stripped(column)
        if "" in set(cells):
            self._problem(cells.index(""), column, empty, hint)
        return cells

    def segments(self, column: str, resolve: SegmentResolver) -> np.ndarray:
        """Each row's 1-based segment position (0 where a problem was found)."""
        cells = self.stripped(column)
        positions: dict[str, int] = {}
        for text in dict.fromkeys(cells):
            try:
                positions[text] = resolve.position(text)
            except UnresolvedSegment as why:
                self._problem(cells.index(text), column, why.problem, why.hint)
                return np.zeros(len(cells), dtype=np.int64)
        return np.fromiter(map(positions.__getitem__, cells), dtype=np.int64, count=len(cells))

    def scores(self, column: str) -> np.ndarray:
        """Each row's score (0 where a problem was found)."""
        cells = self.table.columns[column]
        values = {cell: parse_number(cell) for cell in dict.fromkeys(cells)}
        bad = next((cell for cell, value in values.items() if value is None), None)
        if bad is not None:
            problem, hint = number_problem(bad)
            self._problem(cells.index(bad), column, problem, hint or SCORE_HINT)
            return np.zeros(len(cells))
        return np.fromiter(map(values.__getitem__, cells), dtype=np.float64, count=len(cells))

    def raise_first_problem(self) -> None:
        if self.problems:
            raise min(self.problems, key=lambda problem: problem[0])[1]

    def _problem(self, index: int, column: str, problem: str, hint: str | None) -> None:
        error = InputError(
            problem, origin=self.origin, line=self.table.lines[index], column=column, hint=hint
        )
        self.problems.append((index, error))


class UnresolvedSegment(ValueError):
    """A segment id that names no segment: what is wrong, and what to do."""

    def __init__(self, problem: str, hint: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.hint = hint or (
            "Segment ids are 1-based line numbers, or docid::n for the n-th segment of a document."
        )


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
        """The 1-based position of the segment ``row`` names in ``column``."""
        try:
            return self.position(row.cells[column].strip())
        except UnresolvedSegment as why:
            raise InputError(
                why.problem, origin=self.origin, line=row.line, column=column, hint=why.hint
            ) from None

    def position(self, text: str) -> int:
        """The 1-based position of the segment with id ``text``; UnresolvedSegment if none."""
        if self.segment_ids is not None and text in self.segment_ids:
            return self.segment_ids[text]
        if is_segment_number(text):
            if self.segment_ids is not None:
                raise UnresolvedSegment(
                    f"segment id {text} is not in the segment_id column of segment_ids.tsv",
                    "Human scores in a folder with segment_ids.tsv use its segment ids.",
                )
            return int(text)
        doc, separator, number = text.rpartition("::")
        if not separator:
            raise UnresolvedSegment(f"segment id {text!r} is not a number")
        if self.positions is None:
            raise UnresolvedSegment(
                f"segment id {text!r} refers to a document, but no document ids were given",
                "Give the document of every segment (segment_ids.tsv in a test set folder).",
            )
        in_doc = self.positions.get(doc)
        if in_doc is None:
            raise UnresolvedSegment(f"there is no document {doc!r} in the test set")
        if not (is_segment_number(number) and 1 <= int(number) <= len(in_doc)):
            raise UnresolvedSegment(
                f"document {doc!r} has no segment {number!r} (it has {len(in_doc)})"
            )
        return in_doc[int(number) - 1]
