"""Bytes to text, and text to segments, the same way for every format.

All readers start here so that encoding problems are reported once, precisely: which file, which
line, which character and which byte. A file that is not text at all (a gzip file, a workbook, an
image) is named as what it is, by its first bytes, rather than as "byte 0x8b is not valid UTF-8".

Segments are split on "\\n" only; ``str.splitlines`` would also split on characters such as \\x0b,
\\x1c or \\u2028 that can occur inside a sentence, and every later segment would silently move to
the wrong line. A lone carriage return is different: sacreBLEU and most tools read files with
universal newlines and split there, so a file with one would give them another number of segments
than us. Formats whose lines are segments or records refuse it (:func:`refuse_lone_cr`), and NUL
bytes with it (:func:`refuse_nul`), which never occur in text.
"""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from mteval_core.errors import InputError

UTF8_HINT = "Save the file as UTF-8 (most editors offer this under 'Save as'; or use iconv)."
DECOMPRESS = "Decompress it first (e.g. {tool} FILE > FILE.txt) and give the text file."
SPREADSHEET_HINT = "Save it as CSV or TSV (UTF-8) in the spreadsheet program (File > Save as)."
DOCUMENT_HINT = "Save it as plain text (UTF-8) in the word processor, one segment per line."
EXTRACT_HINT = "Extract the text files from it first and give them one by one."
UNZIP_HINT = "Extract the text files from it first (unzip FILE) and give them one by one."
NOT_TEXT_HINT = "Give the text file (UTF-8) instead."

# Magic bytes at the very start of a file -> (what the file is, what to do).
SIGNATURES: tuple[tuple[bytes, str, str], ...] = (
    (b"\x1f\x8b", "a gzip-compressed file", DECOMPRESS.format(tool="gzip -dc")),
    (b"\xfd7zXZ\x00", "an xz-compressed file", DECOMPRESS.format(tool="xz -dc")),
    (b"\x28\xb5\x2f\xfd", "a zstd-compressed file", DECOMPRESS.format(tool="zstd -dc")),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", EXTRACT_HINT),
    (b"Rar!\x1a\x07", "a RAR archive", EXTRACT_HINT),
    (b"%PDF-", "a PDF document", DOCUMENT_HINT),
    (b"{\\rtf", "an RTF document", DOCUMENT_HINT),
    (b"\x89PNG\r\n\x1a\n", "a PNG image", NOT_TEXT_HINT),
    (b"\xff\xd8\xff", "a JPEG image", NOT_TEXT_HINT),
    (b"GIF87a", "a GIF image", NOT_TEXT_HINT),
    (b"GIF89a", "a GIF image", NOT_TEXT_HINT),
    (b"\x7fELF", "a compiled program (ELF)", NOT_TEXT_HINT),
)
BZIP2 = re.compile(rb"BZh[1-9]1AY&SY")  # the magic and the first block's header
ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08")
OLE2_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # old Office files: .xls, .doc, .ppt


def decode(data: bytes, origin: str) -> str:
    """UTF-8 bytes (with or without a byte order mark) as text with "\\n" line ends.

    Binary files are refused first, by name (:func:`refuse_binary`). CRLF becomes LF. A lone CR
    stays: readers whose lines are segments refuse it with :func:`refuse_lone_cr`.
    """
    refuse_binary(data, origin)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise InputError(
            "the file is UTF-16, not UTF-8", origin=origin, line=1, column=1, hint=UTF8_HINT
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _decode_error(data, error, origin) from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n")


def read_text(data: bytes, origin: str) -> str:
    """The text of a file whose lines are segments or records (plain text, JSON Lines, SGML).

    :func:`decode`, then NUL bytes and lone carriage returns are refused with their line.
    """
    text = decode(data, origin)
    refuse_nul(text, origin)
    refuse_lone_cr(text, origin)
    return text


def refuse_binary(data: bytes, origin: str) -> None:
    """Refuse a compressed file, an archive, an office document or an image by what it is."""
    kind, hint = _binary_kind(data)
    if kind:
        raise InputError(f"this is {kind}, not text", origin=origin, hint=hint)


def _binary_kind(data: bytes) -> tuple[str, str] | tuple[None, None]:
    for magic, kind, hint in SIGNATURES:
        if data.startswith(magic):
            return kind, hint
    if BZIP2.match(data):
        return "a bzip2-compressed file", DECOMPRESS.format(tool="bzip2 -dc")
    if data.startswith(ZIP_MAGICS):
        return _zip_kind(data)
    if data.startswith(OLE2_MAGIC):
        return _ole2_kind(data)
    return None, None


def _zip_kind(data: bytes) -> tuple[str, str]:
    """Office files are zip archives; their member names say which kind (.xlsx, .docx, .ods)."""
    if b"xl/workbook" in data or b"opendocument.spreadsheet" in data[:200]:
        return "a spreadsheet workbook (.xlsx or .ods, a zip archive)", SPREADSHEET_HINT
    if b"word/document" in data or b"opendocument.text" in data[:200]:
        return "a word-processor document (.docx or .odt, a zip archive)", DOCUMENT_HINT
    return "a zip archive", UNZIP_HINT


def _ole2_kind(data: bytes) -> tuple[str, str]:
    """Old Office files name their main stream in UTF-16: 'Workbook' for Excel, 'WordDocument'."""
    if "Workbook".encode("utf-16-le") in data:
        return "an Excel workbook in the old binary format (.xls)", SPREADSHEET_HINT
    if "WordDocument".encode("utf-16-le") in data:
        return "a Word document in the old binary format (.doc)", DOCUMENT_HINT
    return (
        "an Office file in the old binary format (.xls, .doc or .ppt)",
        f"{SPREADSHEET_HINT} For a document, save it as plain text (UTF-8).",
    )


def refuse_nul(text: str, origin: str) -> None:
    """A NUL character never occurs in text: the file is binary, or UTF-16 without a BOM."""
    position = text.find("\x00")
    if position >= 0:
        line, column = _line_and_column(text, position)
        raise InputError(
            "a NUL byte (0x00) is not text",
            origin=origin,
            line=line,
            column=column,
            hint="The file is binary, or text in UTF-16 or UTF-32: save it as UTF-8 text.",
        )


def refuse_lone_cr(text: str, origin: str) -> None:
    """Refuse a carriage return without a line feed (CRLF was already turned into LF)."""
    position = text.find("\r")
    if position >= 0:
        raise lone_cr_error(text, position, origin)


def lone_cr_error(text: str, position: int, origin: str) -> InputError:
    """The error for the lone carriage return at ``position`` of ``text``, with its line."""
    line, column = _line_and_column(text, position)
    why = "Other tools such as sacreBLEU split lines there and we do not, so the segments differ"
    if "\n" not in text:
        problem = "the lines end with a carriage return (CR) alone, the old Mac line ends"
        fix = "save the file with LF line ends (e.g. tr '\\r' '\\n' < FILE > FILE.lf)"
    else:
        problem = "a carriage return (CR) without a line feed inside the line"
        fix = "remove it (e.g. tr -d '\\r' < FILE > FILE.lf) or save the file with LF line ends"
    return InputError(problem, origin=origin, line=line, column=column, hint=f"{why}: {fix}.")


def _line_and_column(text: str, position: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, position) + 1
    return text.count("\n", 0, position) + 1, position - line_start + 1


def _decode_error(data: bytes, error: UnicodeDecodeError, origin: str) -> InputError:
    """Locate the first bad byte as line, character in that line, and byte offset."""
    offset = error.start
    line_start = data.rfind(b"\n", 0, offset) + 1
    # Everything before the first bad byte is valid UTF-8, so this decode cannot fail.
    column = len(data[line_start:offset].decode("utf-8")) + 1
    return InputError(
        f"byte 0x{data[offset]:02x} at byte offset {offset} is not valid UTF-8",
        origin=origin,
        line=data.count(b"\n", 0, offset) + 1,
        column=column,
        hint=UTF8_HINT,
    )


def split_lines(text: str) -> list[str]:
    """One segment per line, split on "\\n" only; a final newline adds no empty segment."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_bytes(path: str | Path) -> bytes:
    """The content of a file, or an InputError that says why it cannot be read."""
    path = Path(path)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        problem, hint = "the file does not exist", "Check the path and the spelling."
    except IsADirectoryError:
        problem, hint = "this is a folder, not a file", "Give the path of a file inside it."
    except PermissionError:
        problem, hint = "no permission to read the file", "Check the file's permissions."
    except OSError as error:
        problem, hint = f"the file cannot be read ({error.strerror})", None
    raise InputError(problem, origin=str(path), hint=hint)
