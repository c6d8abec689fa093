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

from mteval_core.errors import InputError
from mteval_core.io.decoding import lone_cr_error, refuse_lone_cr, refuse_nul, split_lines

FIELD_HINT = "Every row needs one value per header column"


@dataclass(frozen=True)
class Row:
    line: int  # 1-based line in the file where the row starts
    cells: dict[str, str]  # header name (as written) -> value


@dataclass(frozen=True)
class Table:
    header: list[str]
    header_line: int  # 1-based; blank lines before the header are allowed
    rows: list[Row]


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
    delimiter = sniff_delimiter(lines[first])
    if delimiter == "\t":
        refuse_nul(text, origin)
        refuse_lone_cr(text, origin)
    records = (
        _tsv_records(lines, first) if delimiter == "\t" else _csv_records(lines, first, origin)
    )
    header_record = next(records, None)
    if header_record is None:  # a first line of empty quoted fields ("") and blank lines
        raise InputError(
            "the file has no header line", origin=origin, hint="Give a header line first."
        )
    header_line, header = header_record
    header = [name.strip() for name in header]
    _check_header(header, header_line, origin)
    rows = []
    for line, cells in records:
        if len(cells) != len(header):
            raise InputError(
                f"this row has {len(cells)} values but the header has {len(header)} columns",
                origin=origin,
                line=line,
                hint=f"{FIELD_HINT}; {_delimiter_advice(delimiter)}",
            )
        rows.append(Row(line, dict(zip(header, cells, strict=True))))
    return Table(header, header_line, rows)


def _tsv_records(lines: list[str], first: int) -> Iterator[tuple[int, list[str]]]:
    for index in range(first, len(lines)):
        cells = lines[index].split("\t")
        if not _blank(cells):
            yield index + 1, cells


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
