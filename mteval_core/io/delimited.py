"""CSV and TSV tables with a header, keeping the file line of every row for messages.

The delimiter is decided by the header line: a tab anywhere in it means TSV, otherwise CSV. TSV is
split on tabs with no quoting at all, because translations often contain quote characters; CSV
follows the usual rules, so quoted fields may hold commas, quotes, newlines and any other
character, a lone carriage return or a NUL included. Outside quoted fields, and anywhere in TSV,
those two are refused (see :mod:`decoding`). A quote that is never closed is refused too: read
leniently, it would silently take the rest of the file into one field.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from itertools import repeat

from mteval_core.errors import InputError
from mteval_core.io.decoding import lone_cr_error, refuse_lone_cr, refuse_nul, split_lines

FIELD_HINT = "Every row needs one value per header column"


@dataclass(frozen=True)
class Row:
    line: int  # 1-based line in the file where the row starts
    cells: dict[str, str]  # header name (as written) -> value


@dataclass(frozen=True, eq=False)
class Table:
    """The cells column by column: a file of a million rows is a few lists of strings, not a
    million objects (Python's garbage collector scans every container that stays alive, so
    row objects made a 40 MB upload take half a minute). ``rows`` gives them row by row."""

    header: list[str]
    header_line: int  # 1-based; blank lines before the header are allowed
    lines: list[int]  # the 1-based line where each row starts
    columns: dict[str, list[str]]  # header name (as written) -> the cell of every row

    @cached_property
    def rows(self) -> list[Row]:
        """Every row with its line and cells, for readers that check a row at a time."""
        cells = zip(*(self.columns[name] for name in self.header), strict=True)
        return [Row(line, dict(zip(self.header, row))) for line, row in zip(self.lines, cells)]

    def __len__(self) -> int:
        """The number of rows."""
        return len(self.lines)


def sniff_delimiter(header_line: str) -> str:
    """Tab if the header has one, otherwise comma."""
    return "\t" if "\t" in header_line else ","


def pick_column(
    columns: dict[str, str], aliases: tuple[str, ...], origin: str, line: int | None
) -> str | None:
    """The column (as written) named by one of ``aliases``, or None; two of them is an error.

    ``columns`` maps lower-case names to names as written; ``line`` is the header's line.
    """
    found = [columns[alias] for alias in aliases if alias in columns]
    if len(found) > 1:
        raise InputError(
            f"the columns {' and '.join(map(repr, found))} mean the same thing",
            origin=origin,
            line=line,
            hint="Keep only one of them.",
        )
    return found[0] if found else None


def read_table(text: str, origin: str) -> Table:
    """Parse CSV or TSV text; the first non-blank line is the header."""
    lines = split_lines(text)
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None:
        raise InputError(
            "the file is empty", origin=origin, hint="Give a header line and one row per line."
        )
    if sniff_delimiter(lines[first]) == "\t":
        refuse_nul(text, origin)
        refuse_lone_cr(text, origin)
        header_line, header = (
            first + 1,
            _checked_header(lines[first].split("\t"), first + 1, origin),
        )
        row_lines, columns = _tsv_columns(lines, first + 1, header, origin)
        return Table(header, header_line, row_lines, columns)
    records = _csv_records(lines, first, origin)
    header_record = next(records, None)
    if header_record is None:  # a first line of empty quoted fields ("") and blank lines
        raise InputError(
            "the file has no header line", origin=origin, hint="Give a header line first."
        )
    header_line, header = (
        header_record[0],
        _checked_header(header_record[1], header_record[0], origin),
    )
    row_lines, columns = _csv_columns(records, header, origin)
    return Table(header, header_line, row_lines, columns)


def _checked_header(names: list[str], line: int, origin: str) -> list[str]:
    header = [name.strip() for name in names]
    _check_header(header, line, origin)
    return header


def _tsv_columns(
    lines: list[str], start: int, header: list[str], origin: str
) -> tuple[list[int], dict[str, list[str]]]:
    """The rows from the 0-based line ``start`` on, split column by column. Every row has one
    tab fewer than the header has columns, so the whole body is split at once and the k-th of
    every ``len(header)`` cells is column k's; the loops over rows run in C (str.count, join)."""
    body = lines[start:]
    row_lines = list(range(start + 1, start + 1 + len(body)))
    tabs = list(map(str.count, body, repeat("\t")))
    if body and min(tabs) == 0:  # blank lines (no tab, only spaces) are no rows
        kept = [index for index, line in enumerate(body) if tabs[index] or line.strip()]
        body, tabs, row_lines = ([items[i] for i in kept] for items in (body, tabs, row_lines))
    width = len(header)
    wrong = set(tabs) - {width - 1}
    if wrong:
        first = min(tabs.index(count) for count in wrong)
        raise _row_length_error(tabs[first] + 1, width, "\t", row_lines[first], origin)
    cells = "\t".join(body).split("\t") if body else []
    return row_lines, {name: cells[k::width] for k, name in enumerate(header)}


def _csv_columns(
    records: Iterator[tuple[int, list[str]]], header: list[str], origin: str
) -> tuple[list[int], dict[str, list[str]]]:
    """The rows of ``records`` gathered column by column (each row's list is dropped at once)."""
    row_lines: list[int] = []
    columns: list[list[str]] = [[] for _ in header]
    for line, cells in records:
        if len(cells) != len(header):
            raise _row_length_error(len(cells), len(header), ",", line, origin)
        row_lines.append(line)
        for column, cell in zip(columns, cells):
            column.append(cell)
    return row_lines, dict(zip(header, columns))


def _row_length_error(
    n_cells: int, width: int, delimiter: str, line: int, origin: str
) -> InputError:
    return InputError(
        f"this row has {n_cells} values but the header has {width} columns",
        origin=origin,
        line=line,
        hint=f"{FIELD_HINT}; {_delimiter_advice(delimiter)}",
    )


def _csv_records(lines: list[str], first: int, origin: str) -> Iterator[tuple[int, list[str]]]:
    # strict: an unclosed quote is an error, not a field that takes in the rest of the file
    reader = csv.reader((line + "\n" for line in lines[first:]), strict=True)
    start = first + 1
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            if "new-line character" in str(error):  # a lone CR outside quotes
                raise _unquoted_cr_error(lines, start, origin) from None
            if "unexpected end of data" in str(error):  # strict: else it would swallow the rest
                raise InputError(
                    "a quoted field in this row is never closed",
                    origin=origin,
                    line=start,
                    hint='Close it with ", or double the quotes inside it ("").',
                ) from None
            raise InputError(
                f"this CSV row cannot be read ({error})",
                origin=origin,
                line=start,
                hint="Quote fields that contain commas, quotes or line breaks, and double the "
                'quotes inside them ("").',
            ) from None
        if not _blank(cells):
            yield start, cells
        start = first + reader.line_num + 1


def _unquoted_cr_error(lines: list[str], start: int, origin: str) -> InputError:
    """Locate the first carriage return from the 1-based line ``start`` on."""
    text = "\n".join(lines)
    line_offset = sum(len(line) + 1 for line in lines[: start - 1])
    return lone_cr_error(text, text.find("\r", line_offset), origin)


def _blank(cells: list[str]) -> bool:
    """An empty (or all-space) line; a line with delimiters is a row of empty values."""
    return len(cells) <= 1 and not "".join(cells).strip()


def _check_header(header: list[str], line: int, origin: str) -> None:
    seen: set[str] = set()
    for position, name in enumerate(header, start=1):
        if not name:
            raise InputError(
                f"header column {position} has no name",
                origin=origin,
                line=line,
                hint="Give every column a name in the first line.",
            )
        if name.lower() in seen:
            raise InputError(
                f"the header has the column {name!r} twice",
                origin=origin,
                line=line,
                hint="Rename or remove one of them.",
            )
        seen.add(name.lower())


def _delimiter_advice(delimiter: str) -> str:
    if delimiter == "\t":
        return "check for a tab inside a text or a missing value."
    return 'put text that contains commas in double quotes ("...").'
