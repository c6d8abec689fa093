"""decode, split_lines and read_bytes: the ground every reader stands on."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mteval_core.errors import InputError
from mteval_core.io import read_columns
from mteval_core.io.decoding import (
    LoneCarriageReturn,
    decode,
    read_bytes,
    read_text,
    resolve_carriage_returns,
    split_lines,
)


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


TEXT = "The cat sat on the mat .\nDer Bär läuft .\n"


@pytest.mark.parametrize(
    ("data", "problem", "iconv"),
    [
        (
            codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le"),
            "is UTF-16, not UTF-8 (it starts with a UTF-16 little-endian byte order mark)",
            "UTF-16",
        ),
        (
            codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be"),
            "UTF-16 big-endian byte order mark",
            "UTF-16",
        ),
        (
            codecs.BOM_UTF32_LE + TEXT.encode("utf-32-le"),
            "is UTF-32, not UTF-8 (it starts with a UTF-32 little-endian byte order mark)",
            "UTF-32",
        ),
        (
            codecs.BOM_UTF32_BE + TEXT.encode("utf-32-be"),
            "UTF-32 big-endian byte order mark",
            "UTF-32",
        ),
        (
            TEXT.encode("utf-16-le"),
            "looks like UTF-16 little-endian, not UTF-8 (every other byte is 0)",
            "UTF-16LE",
        ),
        (TEXT.encode("utf-16-be"), "looks like UTF-16 big-endian", "UTF-16BE"),
        (
            TEXT.encode("utf-32-le"),
            "looks like UTF-32 little-endian, not UTF-8 (three bytes in four are 0)",
            "UTF-32LE",
        ),
        (TEXT.encode("utf-32-be"), "looks like UTF-32 big-endian", "UTF-32BE"),
        ("你好，世界。\n".encode("utf-32-le"), "looks like UTF-32 little-endian", "UTF-32LE"),
        ("hello\n".encode("utf-16-le"), "looks like UTF-16 little-endian", "UTF-16LE"),
    ],
    ids=[
        "utf-16le-bom",
        "utf-16be-bom",
        "utf-32le-bom",
        "utf-32be-bom",
        "utf-16le",
        "utf-16be",
        "utf-32le",
        "utf-32be",
        "utf-32le-chinese",
        "utf-16le-short",
    ],
)
def test_utf16_and_utf32_are_named_with_the_conversion(data: bytes, problem: str, iconv: str):
    """Without a byte order mark, UTF-16 was 'not valid UTF-8' or 'a NUL byte'; now it is named."""
    with pytest.raises(InputError) as caught:
        decode(data, "sys.de")
    assert problem in caught.value.problem
    assert f"iconv -f {iconv} -t UTF-8 FILE > FILE.utf8" in caught.value.hint
    with pytest.raises(InputError, match=problem.split(" (")[0]):
        read_columns(data, "sys.de", "sys")


@pytest.mark.parametrize(
    "data",
    [
        b"a\nb\x00c\nd\n",  # one NUL in UTF-8 text
        "a\u00e9\x00\n".encode(),  # too short to tell
        b"\x01\x00\x02\x00" * 64,  # 16-bit numbers: the zeros of UTF-16, but no text
        bytes(64),
    ],
)
def test_nul_bytes_that_are_not_a_wide_encoding_are_refused_as_nul_bytes(data: bytes) -> None:
    with pytest.raises(InputError, match="a NUL byte"):
        read_columns(data, "f.de", "sys")


def test_lone_carriage_returns_become_line_ends_or_spaces_as_chosen() -> None:
    data = "a\rb\r\nc\r\r\nä\r".encode()
    assert resolve_carriage_returns(data, "refuse") is data
    assert resolve_carriage_returns(data, "split") == "a\nb\r\nc\n\r\nä\n".encode()
    assert resolve_carriage_returns(data, "space") == "a b\r\nc \r\nä ".encode()
    with pytest.raises(ValueError, match="carriage_returns"):
        resolve_carriage_returns(data, "drop")


def test_a_refused_carriage_return_can_offer_the_readers_choice() -> None:
    with pytest.raises(LoneCarriageReturn) as caught:
        read_text(b"first\nsecond \r third\n", "f.de")
    error = caught.value
    assert (error.line, error.column) == (2, 8)
    assert error.hint.startswith("sacreBLEU and most tools split lines there")
    offered = error.offering("give --carriage-returns split")
    assert (offered.problem, offered.origin, offered.line, offered.column) == (
        error.problem,
        "f.de",
        2,
        8,
    )
    assert "so the segments would differ: give --carriage-returns split; or remove it" in str(
        offered
    )


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
