"""Wide tables of metric scores, as `mteval correlate` reads them: one column per metric.

* System level (``--metrics``): a ``system`` column and one column per metric, one row per
  system. Every cell must be a finite number (see :mod:`numbers`).
* Segment level (``--metric-segments``): ``system``, a segment column (``segment``,
  ``segment_id``, ``seg_id`` or ``seg``: 1-based segment numbers) and one column per metric, one
  row per (system, segment). An empty cell means the metric did not score that segment; it stays
  missing, never zero.

Both are refused with the file, line and column of the first problem: a doubled row, an empty
system, a cell that is not a number. A column without a single number (notes, say) is not a
metric: it is skipped with a note naming it, unless its cells are numbers written with a decimal
comma (0,948, as spreadsheets export them in many locales), which is refused with the way to fix
it rather than losing a metric without a word.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError, listed_names
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import Row, Table, pick_column, read_table
from mteval_core.io.long_format import SEGMENT_KEYS, is_segment_number
from mteval_core.io.numbers import (
    holds_numbers,
    read_number,
)

SYSTEM_HINT = (
    "The metric table needs a 'system' column and one column per metric, one row per system."
)
SEGMENT_HINT = (
    "The segment table needs the columns system, segment_id (1-based segment numbers) and one "
    "column per metric, one row per system and segment."
)


@dataclass(frozen=True, eq=False)  # it holds arrays
class SegmentMetricTable:
    """Segment scores of several metrics: row i is ``systems[system_of_row[i]]`` on segment
    ``segment_of_row[i]`` (1-based); ``values[i, m]`` is metric ``metrics[m]``'s score, NaN when
    the cell was empty."""

    origin: str
    metrics: tuple[str, ...]
    systems: tuple[str, ...]  # in the order of their first row
    system_of_row: np.ndarray
    segment_of_row: np.ndarray
    values: np.ndarray
    notes: tuple[str, ...] = ()  # the columns skipped (no number in them), for the user

    @property
    def n_segments(self) -> int:
        return int(self.segment_of_row.max())

    def matrix(self, metric: str, systems: tuple[str, ...], n_segments: int) -> np.ndarray:
        """(systems, n_segments) of ``metric``; NaN where the table has no score."""
        position = {name: i for i, name in enumerate(systems)}
        rows = np.array([position.get(self.systems[s], -1) for s in self.system_of_row])
        keep = rows >= 0
        matrix = np.full((len(systems), n_segments), np.nan)
        column = self.metrics.index(metric)
        matrix[rows[keep], self.segment_of_row[keep] - 1] = self.values[keep, column]
        return matrix


@dataclass(frozen=True)
class SystemMetricTable:
    """System scores of several metrics, and the columns skipped (no number in them)."""

    metrics: dict[str, dict[str, float]]  # metric (as in the header) -> system -> score
    notes: tuple[str, ...] = ()


def read_system_metric_table(data: bytes, origin: str) -> SystemMetricTable:
    """Every metric column's score of every system (see the module docstring)."""
    table = read_table(decode(data, origin), origin)
    columns = {name.lower(): name for name in table.header}
    system = _system_column(table, columns, origin, SYSTEM_HINT)
    _refuse_doubles(table, (system,), origin, SYSTEM_HINT)
    score_columns, notes = _score_columns(table, (system,), origin)
    metrics: dict[str, dict[str, float]] = {}
    for column in score_columns:
        values = [_cell_number(row, column, origin, empty_allowed=False) for row in table.rows]
        metrics[column] = {row.cells[system].strip(): v for row, v in zip(table.rows, values)}
    if not metrics:
        raise InputError(
            "there is no column of scores", origin=origin, line=table.header_line, hint=SYSTEM_HINT
        )
    return SystemMetricTable(metrics, notes)


def read_segment_metric_table(data: bytes, origin: str) -> SegmentMetricTable:
    """The segment scores of every metric column (see the module docstring)."""
    table = read_table(decode(data, origin), origin)
    columns = {name.lower(): name for name in table.header}
    system = _system_column(table, columns, origin, SEGMENT_HINT)
    segment = pick_column(columns, SEGMENT_KEYS, origin, table.header_line)
    if segment is None:
        raise InputError(
            "there is no segment column (segment_id)",
            origin=origin,
            line=table.header_line,
            hint=SEGMENT_HINT + " A table without segments is a system-level table.",
        )
    _refuse_doubles(table, (system, segment), origin, SEGMENT_HINT)
    metrics, notes = _score_columns(table, (system, segment), origin)
    if not metrics:
        raise InputError(
            "there is no column of scores", origin=origin, line=table.header_line, hint=SEGMENT_HINT
        )
    systems: dict[str, int] = {}
    system_of_row = np.empty(len(table.rows), dtype=np.int64)
    segment_of_row = np.empty(len(table.rows), dtype=np.int64)
    values = np.empty((len(table.rows), len(metrics)))
    for i, row in enumerate(table.rows):
        system_of_row[i] = systems.setdefault(row.cells[system].strip(), len(systems))
        segment_of_row[i] = _segment_number(row, segment, origin)
        values[i] = [_cell_number(row, m, origin, empty_allowed=True) for m in metrics]
    return SegmentMetricTable(
        origin, tuple(metrics), tuple(systems), system_of_row, segment_of_row, values, notes
    )


def _system_column(table: Table, columns: dict[str, str], origin: str, hint: str) -> str:
    if "system" not in columns:
        raise InputError(
            "there is no 'system' column", origin=origin, line=table.header_line, hint=hint
        )
    return columns["system"]


def _refuse_doubles(table: Table, keys: tuple[str, ...], origin: str, hint: str) -> None:
    """Every row names a new system (and segment): a doubled row would be silently averaged."""
    first_line: dict[tuple[str, ...], int] = {}
    for row in table.rows:
        key = tuple(row.cells[column].strip() for column in keys)
        if not key[0]:
            raise InputError(
                "the system is empty", origin=origin, line=row.line, column=keys[0], hint=hint
            )
        if key in first_line:
            what = f"system {key[0]!r}" + (f" on segment {key[1]}" if len(key) > 1 else "")
            raise InputError(
                f"{what} already has a row (line {first_line[key]})",
                origin=origin,
                line=row.line,
                hint=hint,
            )
        first_line[key] = row.line


def _score_columns(
    table: Table, keys: tuple[str, ...], origin: str
) -> tuple[list[str], tuple[str, ...]]:
    """Every other column holding at least one number, and a note naming the others (a column of
    notes is not a metric); a column of decimal-comma numbers is refused."""
    found, skipped = [], []
    for column in table.header:
        if column in keys:
            continue
        (found if holds_numbers(table, column, origin) else skipped).append(column)
    if not skipped or not found:  # without a metric column the command says so, not a note
        return found, ()
    names = listed_names([repr(column) for column in skipped])
    if len(skipped) == 1:
        return found, (f"{origin}: the column {names} holds no number; it is not read as a metric",)
    return found, (f"{origin}: the columns {names} hold no number; they are not read as metrics",)


def _segment_number(row: Row, column: str, origin: str) -> int:
    text = row.cells[column].strip()
    if not is_segment_number(text) or int(text) < 1:
        raise InputError(
            f"segment id {text!r} is not a segment number (1, 2, ...)",
            origin=origin,
            line=row.line,
            column=column,
            hint=SEGMENT_HINT,
        )
    return int(text)


def _cell_number(row: Row, column: str, origin: str, *, empty_allowed: bool) -> float:
    cell = row.cells[column].strip()
    if not cell and empty_allowed:
        return math.nan
    return read_number(
        cell,
        origin=origin,
        line=row.line,
        column=column,
        hint="Give a finite number in every metric column"
        + (" (an empty cell is an unscored segment)." if empty_allowed else "."),
    )
