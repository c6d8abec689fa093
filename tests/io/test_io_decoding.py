"""decode, split_lines and read_bytes: the ground every reader stands on."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mteval_core.errors import InputError
from mteval_core.io.decoding import decode, read_bytes, split_lines


def test_plain_utf8_is_decoded() -> None:
    assert decode("Grüße\n".encode(), "f.txt") == "Grüße\n"


def test_bom_is_stripped() -> None:
    assert decode(b"\xef\xbb\xbfHallo\n", "f.txt") == "Hallo\n"


def test_crlf_becomes_lf_but_a_lone_cr_stays() -> None:
    assert decode(b"a\r\nb\rc\r\n", "f.txt") == "a\nb\rc\n"


def test_undecodable_byte_is_located() -> None:
    with pytest.raises(InputError) as caught:
        decode(b"first\nab\xe9cd\n", "sys/A.de")
    error = caught.value
    assert (error.origin, error.line, error.column) == ("sys/A.de", 2, 3)
    message = str(error)
    assert "sys/A.de, line 2, column 3" in message
    assert "byte offset 8" in message
    assert "0xe9" in message
    assert "UTF-8" in error.hint


def test_column_counts_characters_not_bytes() -> None:
    with pytest.raises(InputError) as caught:
        decode("x\néé".encode() + b"\xff", "f.txt")
    assert (caught.value.line, caught.value.column) == (2, 3)
    assert "byte offset 6" in str(caught.value)


def test_truncated_character_at_the_end() -> None:
    with pytest.raises(InputError) as caught:
        decode("ok é".encode()[:-1], "f.txt")
    assert (caught.value.line, caught.value.column) == (1, 4)


def test_utf16_is_refused_with_a_clear_message() -> None:
    with pytest.raises(InputError, match="UTF-16"):
        decode("hello".encode("utf-16"), "f.txt")


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        ("", []),
        ("a", ["a"]),
        ("a\n", ["a"]),
        ("a\nb", ["a", "b"]),
        ("a\n\nb\n", ["a", "", "b"]),
        ("\n", [""]),
        ("a\n\n", ["a", ""]),
    ],
)
def test_split_lines(text: str, lines: list[str]) -> None:
    assert split_lines(text) == lines


@pytest.mark.parametrize(
    "separator", ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\r"]
)
def test_unusual_line_separators_stay_inside_the_segment(separator: str) -> None:
    text = f"one{separator}segment\nsecond\n"
    assert split_lines(text) == [f"one{separator}segment", "second"]
    assert split_lines(decode(text.encode(), "f.txt")) == [f"one{separator}segment", "second"]


@given(st.lists(st.text().map(lambda s: s.replace("\n", "")), min_size=1))
def test_split_lines_inverts_writing_one_segment_per_line(segments: list[str]) -> None:
    assert split_lines("\n".join(segments) + "\n") == segments


def test_read_bytes_reads_a_file(tmp_path) -> None:
    (tmp_path / "f.txt").write_bytes(b"x\n")
    assert read_bytes(tmp_path / "f.txt") == b"x\n"


def test_read_bytes_missing_file(tmp_path) -> None:
    with pytest.raises(InputError, match="does not exist") as caught:
        read_bytes(tmp_path / "nope.txt")
    assert caught.value.origin == str(tmp_path / "nope.txt")


def test_read_bytes_directory(tmp_path) -> None:
    with pytest.raises(InputError, match="folder"):
        read_bytes(tmp_path)


def test_read_bytes_without_permission(tmp_path, monkeypatch) -> None:
    # chmod cannot stop root (CI runs as root), so the refusal is simulated
    def refuse(self):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)
    with pytest.raises(InputError, match="no permission to read the file"):
        read_bytes(tmp_path / "secret.txt")
