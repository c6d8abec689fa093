"""Loss-analysis tables (CSV or TSV) in one of three shapes, recognised by their columns.

- counts: system, correct, non_response, incorrect, rt_total, marked_total, cases
- rates:  system, crr, nrr, irr, e_rt_total, e_marked_total
- cases:  system, case, correct, non_response, incorrect, rt_total, marked_total (one row per case)

The paper's names CR, NR, IR, RTtot and SubjMtot are accepted for the counts, and column names are
case-insensitive. Every other column is a category (e.g. ``wh``), by which rows can be grouped.
Each row is checked where it stands, so that a message can name its line and column.
"""

from __future__ import annotations

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode
from mteval_core.io.delimited import Row, Table, read_table
from mteval_core.io.numbers import read_number
from mteval_core.loss.inputs import Counts, LossInput, LossRow, Rates, Shape

ALIASES = {  # lower-case name in a file -> our name
    "cr": "correct",
    "nr": "non_response",
    "ir": "incorrect",
    "rttot": "rt_total",
    "subjmtot": "marked_total",
    "e_rttot": "e_rt_total",
    "e_subjmtot": "e_marked_total",
}
COUNT_COLUMNS = ("correct", "non_response", "incorrect", "rt_total", "marked_total")
RATE_COLUMNS = ("crr", "nrr", "irr", "e_rt_total", "e_marked_total")
SHAPE_COLUMNS: dict[Shape, tuple[str, ...]] = {
    "counts": (*COUNT_COLUMNS, "cases"),
    "rates": RATE_COLUMNS,
    "cases": ("case", *COUNT_COLUMNS),
}
SHAPES_HINT = (
    "Give counts (system, correct, non_response, incorrect, rt_total, marked_total, cases), "
    "rates (system, crr, nrr, irr, e_rt_total, e_marked_total) or one row per case (system, case, "
    "correct, non_response, incorrect, rt_total, marked_total)."
)


def read_loss_table(data: bytes, origin: str) -> LossInput:
    table = read_table(decode(data, origin), origin)
    columns = {ALIASES.get(name.lower(), name.lower()): name for name in table.header}
    shape = _detect_shape(columns, table, origin)
    known = {"system", *SHAPE_COLUMNS[shape]}
    categories = tuple(name for key, name in columns.items() if key not in known)
    if not table.rows:
        raise InputError("there are no rows, only a header", origin=origin, hint=SHAPES_HINT)
    rows = tuple(_read_row(row, shape, columns, categories, origin) for row in table.rows)
    if shape != "cases":
        _check_unique(rows, origin)
    _check_categories_complete(rows, categories, origin)
    return LossInput(origin, shape, categories, rows)


def _detect_shape(columns: dict[str, str], table: Table, origin: str) -> Shape:
    """Rates by their rate columns, counts by 'cases', one row per case by 'case'."""
    has_counts = any(name in columns for name in COUNT_COLUMNS)
    has_rates = any(name in columns for name in RATE_COLUMNS)
    shape: Shape | None = None
    if has_counts and has_rates:
        problem = "the file mixes counts and rates"
    elif "cases" in columns and "case" in columns:
        problem = "the file has both 'cases' (counts per row) and 'case' (one row per case)"
    elif has_rates:
        shape = "rates"
    elif "cases" in columns or "case" in columns:
        shape = "counts" if "cases" in columns else "cases"
    elif has_counts:
        problem = (
            "the counts need a 'cases' column (how many cases each row sums), or a 'case' "
            "column to give one row per case"
        )
    else:
        problem = "the file has neither counts nor rates"
    if shape is not None:
        missing = [name for name in ("system", *SHAPE_COLUMNS[shape]) if name not in columns]
        if not missing:
            return shape
        problem = f"the {shape} table has no column {', '.join(map(repr, missing))}"
    raise InputError(problem, origin=origin, line=table.header_line, hint=SHAPES_HINT)


def _read_row(
    row: Row, shape: Shape, columns: dict[str, str], categories: tuple[str, ...], origin: str
) -> LossRow:
    def cell(name: str) -> str:
        return row.cells[columns.get(name, name)].strip()

    for name in ("system", *categories):
        if not cell(name):
            raise InputError(
                f"the {name} is empty",
                origin=origin,
                line=row.line,
                column=columns.get(name, name),
                hint="Every row needs a system and a value in every category column.",
            )
    numbers = {
        name: _number(cell(name), row.line, columns[name], origin)
        for name in SHAPE_COLUMNS[shape]
        if name != "case"
    }
    if shape == "rates":
        counts, rates = None, _checked_rates(numbers, row.line, columns, origin)
    else:
        counts, rates = _checked_counts(numbers, row.line, columns, origin), None
    labels = {name: cell(name) for name in categories}
    return LossRow(row.line, cell("system"), labels, rates, counts)


def _number(text: str, line: int, column: str, origin: str) -> float:
    return read_number(
        text,
        origin=origin,
        line=line,
        column=column,
        hint="Give a number in every count or rate column.",
        empty="empty is not a number",
    )


def _checked_counts(
    numbers: dict[str, float], line: int, columns: dict[str, str], origin: str
) -> Counts:
    """Whole numbers >= 0 that fit together; a case-level row is one case."""

    def fail(name: str, problem: str, hint: str | None = None) -> InputError:
        return InputError(problem, origin=origin, line=line, column=columns[name], hint=hint)

    for name, value in numbers.items():
        if value < 0:
            raise fail(name, f"a count cannot be negative, got {value:g}")
        if value != int(value):
            raise fail(name, f"a count is a whole number, got {value:g}")
    whole = {name: int(value) for name, value in numbers.items()}
    counts = Counts(**{"cases": 1, **whole})
    if "cases" in numbers:  # per-system counts: a zero total leaves a rate undefined
        for name in ("rt_total", "marked_total", "cases"):
            if whole[name] == 0:
                raise fail(
                    name,
                    f"{name} is 0, so the rates are undefined",
                    "Remove the row or give the real total.",
                )
    if counts.correct + counts.non_response > counts.rt_total:
        raise fail(
            "rt_total",
            f"correct + non_response ({counts.correct + counts.non_response}) exceed rt_total "
            f"({counts.rt_total})",
            "rt_total counts every answer item, found or not.",
        )
    if counts.incorrect > counts.marked_total:
        raise fail(
            "marked_total",
            f"incorrect ({counts.incorrect}) exceeds marked_total ({counts.marked_total})",
            "marked_total counts every item the subjects marked, right or wrong.",
        )
    return counts


def _checked_rates(
    numbers: dict[str, float], line: int, columns: dict[str, str], origin: str
) -> Rates:
    for name in ("crr", "nrr", "irr"):
        if not 0 <= numbers[name] <= 1:
            raise InputError(
                f"{name} is {numbers[name]:g}, but a rate lies between 0 and 1",
                origin=origin,
                line=line,
                column=columns[name],
                hint="Give rates as fractions (0.38, not 38).",
            )
    for name in ("e_rt_total", "e_marked_total"):
        if numbers[name] <= 0:
            raise InputError(
                f"{name} is {numbers[name]:g}; an expected total must be above 0",
                origin=origin,
                line=line,
                column=columns[name],
                hint="It is the total per case (e.g. RTtot / N); with no items, drop the row.",
            )
    return Rates(**numbers)


def _check_unique(rows: tuple[LossRow, ...], origin: str) -> None:
    seen: dict[tuple[str, ...], int] = {}
    for row in rows:
        key = (row.system, *row.categories.values())
        if key in seen:
            where = ", ".join(f"{name} {value!r}" for name, value in row.categories.items())
            raise InputError(
                f"system {row.system!r}{' in ' + where if where else ''} already has a row "
                f"(line {seen[key]})",
                origin=origin,
                line=row.line,
                hint="Give one row per system and category; for one row per case add a 'case' "
                "column.",
            )
        seen[key] = row.line


def _check_categories_complete(
    rows: tuple[LossRow, ...], categories: tuple[str, ...], origin: str
) -> None:
    """A system without rows for some category would be compared unfairly: refuse it."""
    for category in categories:
        values = list(dict.fromkeys(row.categories[category] for row in rows))
        for system in dict.fromkeys(row.system for row in rows):
            present = {row.categories[category] for row in rows if row.system == system}
            absent = [value for value in values if value not in present]
            if absent:
                raise InputError(
                    f"system {system!r} has no row for {category} {absent[0]!r}, "
                    "which the other systems have",
                    origin=origin,
                    column=category,
                    hint="Give every system a row in every category, or remove the category.",
                )
