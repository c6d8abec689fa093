"""Numbers in the cells of a user's file, read strictly and alike by every reader.

Python's ``float`` accepts more than a table of scores holds: ``1_000`` (1000), ``nan``,
``infinity``, ``١٢٣`` (Arabic-Indic digits), ``１２`` (full-width digits). A cell like that was
written by mistake, or by a program that means something else by it, and reading it as a number
would give a wrong score without a word. Here a number is what CSV writers produce: an optional
sign, ASCII digits with an optional decimal point, and an optional exponent (``0.948``, ``-3``,
``.5``, ``5.``, ``1e-05``), with the cell's surrounding whitespace stripped, as the readers always
did. Anything else is refused with its line and column and what to write instead; a decimal
comma (``0,948``, as spreadsheets in many locales export numbers) gets a hint of its own, and so
do digits of other scripts; NaN and infinities are never a score.

Every score a file gives goes through here: human judgments, external metric scores, the wide
tables of `mteval correlate`, loss tables.
"""

from __future__ import annotations

import math
import re

from mteval_core.errors import InputError
from mteval_core.io.delimited import Table

NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
DECIMAL_COMMA = re.compile(r"[+-]?[0-9]*,[0-9]+(?:[eE][+-]?[0-9]+)?")
NOT_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
DECIMAL_COMMA_HINT = (
    "Write numbers with a decimal point and no thousands separator (0.948, 1000), or export the "
    "file again with '.' as the decimal separator."
)
OTHER_DIGITS_HINT = "Write numbers with the digits 0-9 and a decimal point (e.g. 0.948)."


def parse_number(cell: str) -> float | None:
    """The finite number ``cell`` holds (surrounding whitespace aside), or None: see the module
    docstring for what a number is."""
    text = cell.strip()
    if not NUMBER.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def looks_like_decimal_comma(cell: str) -> bool:
    """Whether ``cell`` is a number written with a decimal comma (or a thousands comma):
    ``0,948``, ``-1,5``, ``1,000``."""
    return DECIMAL_COMMA.fullmatch(cell.strip()) is not None


def meant_as_number(cell: str) -> bool:
    """Whether ``cell`` is a number or was meant as one (it holds a digit of any script, or says
    NaN or infinity), as opposed to a word such as a column name."""
    text = cell.strip()
    return any(character.isdigit() for character in text) or NOT_FINITE.fullmatch(text) is not None


def read_number(
    cell: str,
    *,
    origin: str,
    line: int,
    column: str | int,
    hint: str,
    empty: str = "the score is empty",
) -> float:
    """The number in ``cell``, or an InputError at ``line`` and ``column`` that says what is
    wrong with it (``empty`` when it is empty) and what to write instead (``hint`` unless the
    problem has a fix of its own)."""
    value = parse_number(cell)
    if value is None:
        problem, own_hint = number_problem(cell, empty)
        raise InputError(problem, origin=origin, line=line, column=column, hint=own_hint or hint)
    return value


def number_problem(cell: str, empty: str = "the score is empty") -> tuple[str, str | None]:
    """Why ``cell`` is not a number, and the fix when it has one of its own (else None)."""
    text = cell.strip()
    shown = repr(text)
    if not text:
        return empty, None
    if looks_like_decimal_comma(text):
        return f"{shown} has a comma where a number needs a decimal point", DECIMAL_COMMA_HINT
    if NOT_FINITE.fullmatch(text) or (NUMBER.fullmatch(text) and parse_number(text) is None):
        if text.lower().lstrip("+-") == "nan":
            return f"{shown} is not a number", None
        return f"{shown} is not a finite number", None
    if any(character.isdigit() and not character.isascii() for character in text):
        return f"{shown} has digits other than 0-9", OTHER_DIGITS_HINT
    return f"{shown} is not a number", None


def refuse_decimal_commas(table: Table, column: str, origin: str) -> None:
    """Refuse ``column``, a column without a number, at its first cell written with a decimal
    comma: read as text, a column of scores would be skipped without a word."""
    cells = table.columns[column]
    index = next(i for i, cell in enumerate(cells) if looks_like_decimal_comma(cell))
    problem, _ = number_problem(cells[index])
    raise InputError(
        f"{problem} (the column {column!r} has no number written with a point)",
        origin=origin,
        line=table.lines[index],
        column=column,
        hint=DECIMAL_COMMA_HINT,
    )


def holds_numbers(table: Table, column: str, origin: str) -> bool:
    """Whether ``column`` holds at least one number (a score column); a column whose cells are
    numbers written with a decimal comma is refused, since skipped it would vanish without a
    word."""
    distinct = dict.fromkeys(table.columns[column])
    if any(parse_number(cell) is not None for cell in distinct):
        return True
    if any(looks_like_decimal_comma(cell) for cell in distinct):
        refuse_decimal_commas(table, column, origin)
    return False
