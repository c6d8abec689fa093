"""Bytes to text, and text to segments, the same way for every format.

All readers start here so that encoding problems are reported once, precisely: which file, which
line, which character and which byte. A file that is not text at all (a gzip file, a workbook, an
image) is named as what it is, by its first bytes, rather than as "byte 0x8b is not valid UTF-8".

Segments are split on "\\n" only; ``str.splitlines`` would also split on characters such as \\x0b,
\\x1c or \\u2028 that can occur inside a sentence, and every later segment would silently move to
the wrong line. A lone carriage return is different: sacreBLEU and most tools read files with
universal newlines and split there, so a file with one would give them another number of segments
than us. Formats whose lines are segments or records refuse it (:func:`refuse_lone_cr`), unless
the user chose to split the line there or to read a space (:func:`resolve_carriage_returns`), and
NUL bytes with it (:func:`refuse_nul`), which never occur in text.

A UTF-8 byte order mark (U+FEFF) at the start is dropped by :func:`decode`, as XML, JSON and CSV
readers drop it; a plain-text file keeps it as text when asked (``keep_byte_order_mark``), because
sacreBLEU, mteval-v13a and GTM 1.4 open plain text as UTF-8, not UTF-8-with-BOM, and read it as a
character of the first segment (see :mod:`mteval_core.io.plain`).

UTF-16 and UTF-32 are refused by name, with the iconv call that converts them: by their byte order
mark, or without one by where their zero bytes fall (:func:`refuse_wide_encoding`). They are not
decoded for the user, because sacreBLEU and mteval-v13a read UTF-8 only, and a test set must mean
the same text to them.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
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

# (byte order mark, encoding, its name for iconv); UTF-32's come first, because the little-endian
# one starts with UTF-16's.
WIDE_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32 little-endian", "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32 big-endian", "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16 little-endian", "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16 big-endian", "UTF-16"),
)


@dataclass(frozen=True)
class WidePattern:
    """Where a wide encoding puts zero bytes in text that is mostly ASCII (for UTF-32, in any
    text of the Basic Multilingual Plane), as positions modulo 4: ``zero_at`` mostly hold 0, the
    low bytes at ``text_at`` hardly ever do."""

    encoding: str
    iconv: str
    codec: str
    zero_at: tuple[int, ...]
    text_at: tuple[int, ...]
    evidence: str


THREE_IN_FOUR = "three bytes in four are 0"
EVERY_OTHER = "every other byte is 0"
WIDE_PATTERNS = (  # UTF-32 first: its zeros fill UTF-16's pattern too
    WidePattern("UTF-32 little-endian", "UTF-32LE", "utf-32-le", (2, 3), (0,), THREE_IN_FOUR),
    WidePattern("UTF-32 big-endian", "UTF-32BE", "utf-32-be", (0, 1), (3,), THREE_IN_FOUR),
    WidePattern("UTF-16 little-endian", "UTF-16LE", "utf-16-le", (1, 3), (0, 2), EVERY_OTHER),
    WidePattern("UTF-16 big-endian", "UTF-16BE", "utf-16-be", (0, 2), (1, 3), EVERY_OTHER),
)
WIDE_SAMPLE = 4096  # bytes looked at; a multiple of 4
MIN_WIDE_SAMPLE = 8  # fewer bytes are too few to tell UTF-16 from UTF-8 with a NUL in it
ZERO_SHARE = 0.5  # at least this share of the pattern's positions hold 0 (mostly ASCII)
STRAY_ZERO_SHARE = 0.05  # at most this share of the other positions do
PRINTABLE_SHARE = 0.95  # of the sample decoded in the wide encoding: text, not binary numbers

CARRIAGE_RETURNS = ("refuse", "split", "space")  # what a lone CR means, as the user chose
LONE_CR = re.compile(rb"\r(?!\n)")
CR_WHY = "sacreBLEU and most tools split lines there and we do not, so the segments would differ"


def decode(data: bytes, origin: str, keep_byte_order_mark: bool = False) -> str:
    """UTF-8 bytes (with or without a byte order mark) as text with "\\n" line ends.

    Binary files are refused first, by name (:func:`refuse_binary`), then UTF-16 and UTF-32
    (:func:`refuse_wide_encoding`). CRLF becomes LF. A lone CR stays: readers whose lines are
    segments refuse it with :func:`refuse_lone_cr`. A leading byte order mark is dropped unless
    ``keep_byte_order_mark`` (plain text read as sacreBLEU reads it).
    """
    refuse_binary(data, origin)
    refuse_wide_encoding(data, origin)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise _decode_error(data, error, origin) from None
    if not keep_byte_order_mark:
        text = text.removeprefix("\ufeff")
    return text.replace("\r\n", "\n")


def read_text(data: bytes, origin: str, keep_byte_order_mark: bool = False) -> str:
    """The text of a file whose lines are segments or records (plain text, JSON Lines, SGML).

    :func:`decode`, then NUL bytes and lone carriage returns are refused with their line.
    """
    text = decode(data, origin, keep_byte_order_mark)
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


def refuse_wide_encoding(data: bytes, origin: str) -> None:
    """Refuse UTF-16 and UTF-32 by name, with or without a byte order mark, and say how to convert.

    Without a mark, the zero bytes tell: in UTF-16 little-endian every other byte of mostly-ASCII
    text is 0 (at odd positions; even ones in big-endian), in UTF-32 three bytes in four. The
    sample must also decode in that encoding to printable text, so that binary numbers with zeros
    in the same places are not taken for text.
    """
    for bom, encoding, iconv in WIDE_BOMS:
        if data.startswith(bom):
            raise InputError(
                f"the file is {iconv}, not UTF-8 (it starts with a {encoding} byte order mark)",
                origin=origin,
                hint=_convert_hint(iconv),
            )
    pattern = _wide_pattern(data[:WIDE_SAMPLE])
    if pattern is not None:
        raise InputError(
            f"the file looks like {pattern.encoding}, not UTF-8 ({pattern.evidence})",
            origin=origin,
            hint=_convert_hint(pattern.iconv),
        )


def _convert_hint(iconv: str) -> str:
    return (
        f"Convert it to UTF-8: iconv -f {iconv} -t UTF-8 FILE > FILE.utf8 (or save it as UTF-8 "
        "in the editor)."
    )


def _wide_pattern(sample: bytes) -> WidePattern | None:
    """The wide encoding whose zero bytes ``sample`` shows, or None."""
    sample = sample[: len(sample) - len(sample) % 4]
    if len(sample) < MIN_WIDE_SAMPLE or 0 not in sample:
        return None
    zero_shares = [sample[k::4].count(0) / len(sample[k::4]) for k in range(4)]
    for pattern in WIDE_PATTERNS:
        if (
            min(zero_shares[k] for k in pattern.zero_at) >= ZERO_SHARE
            and max(zero_shares[k] for k in pattern.text_at) <= STRAY_ZERO_SHARE
            and _printable_in(sample, pattern.codec)
        ):
            return pattern
    return None


def _printable_in(sample: bytes, codec: str) -> bool:
    """Whether ``sample`` decodes in ``codec`` (a character cut at its end is fine) to text."""
    try:
        text = codecs.getincrementaldecoder(codec)().decode(sample, final=False)
    except UnicodeDecodeError:
        return False
    printable = sum(char.isprintable() or char in "\t\n\r" for char in text)
    return bool(text) and printable >= PRINTABLE_SHARE * len(text)


def resolve_carriage_returns(data: bytes, choice: str) -> bytes:
    """``data`` with every lone carriage return read as the user chose: ``refuse`` keeps it (the
    reader refuses it with its line), ``split`` makes it a line end (a new segment, as sacreBLEU
    and Python's universal newlines read it), ``space`` makes it a space (the segments stay).

    This works on the bytes, before decoding: in UTF-8 the byte 0x0D is always the character CR,
    and each replacement is one byte, so byte offsets in later messages stay those of the file.
    CRLF is not a lone CR; it stays a line end.
    """
    if choice not in CARRIAGE_RETURNS:
        raise ValueError(f"carriage_returns must be one of {CARRIAGE_RETURNS}, not {choice!r}")
    if choice == "refuse":
        return data
    return LONE_CR.sub(b"\n" if choice == "split" else b" ", data)


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


class LoneCarriageReturn(InputError):
    """A carriage return without a line feed. A reader that can be told to split the line there
    or to read a space (``carriage_returns=``) names its own way of saying so with
    :meth:`offering`, as the command line's option or the Data page's choice."""

    def __init__(self, problem: str, *, origin: str, line: int, column: int, fix: str) -> None:
        super().__init__(problem, origin=origin, line=line, column=column, hint=f"{CR_WHY}: {fix}.")
        self.fix = fix

    def offering(self, choice: str) -> LoneCarriageReturn:
        """The same error whose hint offers ``choice`` (how to split or read a space) first."""
        return LoneCarriageReturn(
            self.problem,
            origin=self.origin or "",
            line=self.line or 1,
            column=int(self.column or 1),
            fix=f"{choice}; or {self.fix}",
        )


def lone_cr_error(text: str, position: int, origin: str) -> LoneCarriageReturn:
    """The error for the lone carriage return at ``position`` of ``text``, with its line."""
    line, column = _line_and_column(text, position)
    if "\n" not in text:
        problem = "the lines end with a carriage return (CR) alone, the old Mac line ends"
        fix = "save the file with LF line ends (e.g. tr '\\r' '\\n' < FILE > FILE.lf)"
    else:
        problem = "a carriage return (CR) without a line feed inside the line"
        fix = "remove it (e.g. tr -d '\\r' < FILE > FILE.lf) or save the file with LF line ends"
    return LoneCarriageReturn(problem, origin=origin, line=line, column=column, fix=fix)


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
