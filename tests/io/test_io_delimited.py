"""CSV and TSV tables read column by column: the same cells and lines as row by row, blank lines
skipped, a row of the wrong width named by its line, and a file of a million rows read without a
Python object per row."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io.delimited import Row, read_table


@pytest.mark.parametrize("delimiter", ["\t", ","])
def test_columns_and_rows_with_their_lines(delimiter: str) -> None:
    text = "\n  \na|b|c\n1|2|3\n\n   \n4||6\n||\n".replace("|", delimiter)
    table = read_table(text, "t")
    assert (table.header, table.header_line, len(table)) == (["a", "b", "c"], 3, 3)
    assert table.lines == [4, 7, 8]
    assert table.columns == {"a": ["1", "4", ""], "b": ["2", "", ""], "c": ["3", "6", ""]}
    assert table.rows == [
        Row(4, {"a": "1", "b": "2", "c": "3"}),
        Row(7, {"a": "4", "b": "", "c": "6"}),
        Row(8, {"a": "", "b": "", "c": ""}),
    ]


@pytest.mark.parametrize(
    ("text", "line", "found"),
    [
        ("a\tb\n1\t2\n\n3\t4\t5\n", 4, 3),
        ("a\tb\n1\t2\n3\n", 3, 1),
        ("a\tb\n\n\n1\n2\t3\n", 4, 1),
        ("a,b\n1,2\n\n3,4,5\n", 4, 3),
    ],
)
def test_a_row_of_the_wrong_width_is_named_by_its_line(text: str, line: int, found: int) -> None:
    with pytest.raises(InputError) as caught:
        read_table(text, "t")
    assert caught.value.line == line
    assert caught.value.problem == f"this row has {found} values but the header has 2 columns"


def test_a_header_alone_has_no_rows() -> None:
    table = read_table("a\tb\n\n", "t")
    assert (len(table), table.lines, table.columns, table.rows) == (0, [], {"a": [], "b": []}, [])


def test_a_quoted_csv_field_keeps_its_tabs_and_line_breaks() -> None:
    table = read_table('a,b\n"x\ty","1\n2"\n3,4\n', "t")
    assert table.columns == {"a": ["x\ty", "3"], "b": ["1\n2", "4"]}
    assert table.lines == [2, 4]
