"""The one number parser of every score a file gives: what a CSV of numbers holds, nothing that
Python's float() also takes (1_000, nan, infinity, other scripts' digits)."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io.numbers import (
    looks_like_decimal_comma,
    meant_as_number,
    number_problem,
    parse_number,
    read_number,
)


@pytest.mark.parametrize(
    ("cell", "value"),
    [
        ("0.948", 0.948),
        ("-3", -3.0),
        ("+3", 3.0),
        (".5", 0.5),
        ("5.", 5.0),
        ("1e-05", 1e-05),
        ("-2.5E+3", -2500.0),
        (" 1.5 ", 1.5),  # surrounding whitespace is stripped, as the readers always did
        ("\t7\t", 7.0),
        ("0", 0.0),
        ("-0", -0.0),
        ("00012", 12.0),
        ("1" * 300, float("1" * 300)),
    ],
)
def test_numbers_as_csv_writers_write_them(cell: str, value: float) -> None:
    assert parse_number(cell) == value
    assert read_number(cell, origin="f", line=2, column="score", hint="h") == value


@pytest.mark.parametrize(
    ("cell", "problem", "own_hint"),
    [
        ("1_000", "'1_000' is not a number", None),  # float() reads 1000
        ("١٢٣", "'١٢٣' has digits other than 0-9", "digits 0-9"),  # float() reads 123
        ("１２", "'１２' has digits other than 0-9", "digits 0-9"),  # float() reads 12
        ("nan", "'nan' is not a number", None),
        ("-NaN", "'-NaN' is not a number", None),
        ("inf", "'inf' is not a finite number", None),
        ("+Infinity", "'+Infinity' is not a finite number", None),
        ("1e999", "'1e999' is not a finite number", None),  # float() overflows to inf
        ("0,948", "'0,948' has a comma where a number needs a decimal point", "decimal point"),
        ("1,000", "'1,000' has a comma where a number needs a decimal point", "decimal point"),
        ("0x10", "'0x10' is not a number", None),
        ("1.5.2", "'1.5.2' is not a number", None),
        ("e5", "'e5' is not a number", None),
        (".", "'.' is not a number", None),
        ("1 000", "'1 000' is not a number", None),
        ("", "the score is empty", None),
        ("  ", "the score is empty", None),
    ],
)
def test_anything_else_is_refused_with_what_to_write(
    cell: str, problem: str, own_hint: str | None
) -> None:
    assert parse_number(cell) is None
    with pytest.raises(InputError) as caught:
        read_number(cell, origin="f.tsv", line=3, column="score", hint="Give a number.")
    error = caught.value
    assert (error.problem, error.origin, error.line, error.column) == (problem, "f.tsv", 3, "score")
    assert own_hint in error.hint if own_hint else error.hint == "Give a number."
    assert number_problem(cell)[0] == problem


def test_the_caller_words_an_empty_cell() -> None:
    with pytest.raises(InputError, match="empty is not a number"):
        read_number("", origin="f", line=2, column=1, hint="h", empty="empty is not a number")


def test_decimal_commas_and_numbers_meant() -> None:
    assert looks_like_decimal_comma(" -0,5 ") and looks_like_decimal_comma("12,3e-2")
    assert not looks_like_decimal_comma("0.5") and not looks_like_decimal_comma("a,b")
    assert all(meant_as_number(cell) for cell in ("1_000", "nan", "-inf", "٣", "0,5", "x1"))
    assert not any(meant_as_number(cell) for cell in ("score", "system", "", "comet"))
