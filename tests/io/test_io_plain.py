"""Plain text files, and what TestSet does with the columns they give."""

from __future__ import annotations

import pytest

from mteval_core.errors import InputError
from mteval_core.io.plain import read_plain, system_name_from_path
from mteval_core.model.testset import TestSet


def test_one_segment_per_line() -> None:
    column = read_plain(b"Hallo Welt\n\nTsch\xc3\xbcss\n", "sys/A.de", "A")
    assert column.name == "A"
    assert column.origin == "sys/A.de"
    assert column.segments == ("Hallo Welt", "", "Tschüss")


def test_bom_and_crlf_are_accepted() -> None:
    """The byte order mark stays the first character, as sacreBLEU reads it, unless dropped."""
    column = read_plain(b"\xef\xbb\xbfeins\r\nzwei\r\n", "f.txt", "f")
    assert column.segments == ("\ufeffeins", "zwei")
    dropped = read_plain(b"\xef\xbb\xbfeins\r\nzwei\r\n", "f.txt", "f", byte_order_mark="drop")
    assert dropped.segments == ("eins", "zwei")


def test_vertical_tab_and_line_separator_do_not_split_a_segment() -> None:
    column = read_plain("a\x0bb\nc\u2028d\ne\n".encode(), "f.txt", "f")
    assert column.segments == ("a\x0bb", "c\u2028d", "e")


@pytest.mark.parametrize("data", [b"", b"\n\n", b"  \n\t\n", b"\xef\xbb\xbf"])
def test_empty_file_is_refused(data: bytes) -> None:
    with pytest.raises(InputError, match="the file is empty") as caught:
        read_plain(data, "ref.de", "ref")
    assert caught.value.origin == "ref.de"


def test_undecodable_file_is_refused() -> None:
    with pytest.raises(InputError, match="line 1, column 2"):
        read_plain(b"a\xff\n", "ref.de", "ref")


@pytest.mark.parametrize(
    ("path", "name"),
    [
        ("sys/online-A.0.de", "online-A.0"),
        ("newstest2017.uedin-nmt.4722.de", "newstest2017.uedin-nmt.4722"),
        ("A.de", "A"),
        ("A", "A"),
        ("/tmp/x/ref-B.en", "ref-B"),
    ],
)
def test_system_name_from_path(path: str, name: str) -> None:
    assert system_name_from_path(path) == name


def test_mismatched_segment_counts_name_the_file_and_line() -> None:
    reference = read_plain(b"a\nb\nc\n", "ref.de", "ref")
    system = read_plain(b"a\nb\n", "sys/A.de", "A")
    with pytest.raises(InputError) as caught:
        TestSet(references=(reference,), systems=(system,))
    assert caught.value.origin == "sys/A.de"
    assert caught.value.line == 3
    assert "2 segments" in str(caught.value)


def test_duplicate_system_names_are_refused() -> None:
    reference = read_plain(b"a\n", "ref.de", "ref")
    first = read_plain(b"a\n", "run1/A.de", system_name_from_path("run1/A.de"))
    second = read_plain(b"b\n", "run2/A.de", system_name_from_path("run2/A.de"))
    with pytest.raises(InputError, match="duplicate system name 'A'") as caught:
        TestSet(references=(reference,), systems=(first, second))
    assert caught.value.origin == "run2/A.de"
