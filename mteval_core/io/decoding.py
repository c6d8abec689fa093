"""Bytes to text, and text to segments, the same way for every format.

All readers start here so that encoding problems are reported once, precisely: which file, which
line, which character and which byte. Segments are split on "\\n" only; ``str.splitlines`` would
also split on characters such as \\x0b, \\x1c or \\u2028 that can occur inside a sentence, and every
later segment would silently move to the wrong line.
"""

from __future__ import annotations

import codecs
from pathlib import Path

from mteval_core.errors import InputError

UTF8_HINT = "Save the file as UTF-8 (most editors offer this under 'Save as'; or use iconv)."


def decode(data: bytes, origin: str) -> str:
    """UTF-8 bytes (with or without a byte order mark) as text with "\\n" line ends.

    CRLF becomes LF. A lone CR stays: inside a line it is an ordinary (whitespace) character.
    """
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise InputError(
            "the file is UTF-16, not UTF-8", origin=origin, line=1, column=1, hint=UTF8_HINT
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _decode_error(data, error, origin) from None
    return text.removeprefix("\ufeff").replace("\r\n", "\n")


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
