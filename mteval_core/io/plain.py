"""Plain text: one segment per line, the format of sacreBLEU and most MT toolkits.

A UTF-8 byte order mark (U+FEFF) at the start of a plain-text file is, by default, kept as the
first character of the first segment: sacreBLEU (``smart_open`` opens files as ``utf-8``, not
``utf-8-sig``), mteval-v13a and GTM 1.4 read it so, and published numbers come from them (WMT23
en-ru PROMT: BLEU 30.4670 with it, 30.4703 without). ``byte_order_mark="drop"`` drops it; either
way :func:`byte_order_mark_note` says what was done with it. Structured formats (XML, SGML, JSON
Lines, CSV, TSV) always drop it, as their parsers do.
"""

from __future__ import annotations

import codecs
from pathlib import PurePath

from mteval_core.errors import InputError
from mteval_core.io.decoding import read_text
from mteval_core.model.packed_texts import PackedTexts
from mteval_core.model.testset import TextColumn

BYTE_ORDER_MARKS = ("keep", "drop")  # what a UTF-8 BOM at the start of a plain-text file becomes
# How the note says to drop a byte order mark; the command line and the Data page each put
# their own words in its place (``in_command_words``, the Data page's notes)
DROP_BYTE_ORDER_MARK = "choose to drop byte order marks where the files are read"


def read_plain(data: bytes, origin: str, name: str, byte_order_mark: str = "keep") -> TextColumn:
    """The lines of ``data`` as one column; empty lines in the middle are empty segments.

    A file of one blank line is one empty segment: what a system writes when it translates a
    one-segment test set with nothing. A file of nothing, or only of several blank lines, has
    most likely lost its content, so it is refused rather than scored as empty segments.
    ``byte_order_mark`` ('keep' or 'drop') says what a leading U+FEFF becomes (module docstring).
    """
    text = read_text(data, origin, keep_byte_order_mark=_keeps(byte_order_mark))
    content = text.removeprefix("\ufeff")  # a byte order mark alone is no content
    n_lines = content.count("\n") + (not content.endswith("\n"))
    if not content or (n_lines > 1 and content.isspace()):
        raise InputError(
            "the file is empty", origin=origin, hint="Give one segment per line, in test set order."
        )
    # packed from the text's UTF-8 in one piece: no str per line, even for a moment
    return TextColumn(name=name, segments=PackedTexts.from_lines(text.encode()), origin=origin)


def _keeps(byte_order_mark: str) -> bool:
    if byte_order_mark not in BYTE_ORDER_MARKS:
        raise ValueError(
            f"byte_order_mark must be one of {BYTE_ORDER_MARKS}, not {byte_order_mark!r}"
        )
    return byte_order_mark == "keep"


def byte_order_mark_note(data: bytes, origin: str, byte_order_mark: str = "keep") -> str | None:
    """A note for a plain-text file that starts with a UTF-8 byte order mark, else None: kept,
    it changes the first segment's first token (and so BLEU, chrF, ...), which a user should know
    and be able to undo; dropped, the scores differ from sacreBLEU's, which is worth saying too."""
    if not data.startswith(codecs.BOM_UTF8):
        return None
    if _keeps(byte_order_mark):
        return (
            f"{origin}: starts with a byte order mark (U+FEFF); it is read as the first "
            "character of segment 1, as sacreBLEU, mteval-v13a and GTM 1.4 read plain text, so "
            f"the scores equal theirs; to drop it, {DROP_BYTE_ORDER_MARK}"
        )
    return (
        f"{origin}: its byte order mark (U+FEFF) was dropped, as asked; sacreBLEU, mteval-v13a "
        "and GTM 1.4 read it as a character of segment 1, so their scores may differ slightly"
    )


def system_name_from_path(path: str) -> str:
    """The file name without its last extension: ``sys/online-A.0.de`` -> ``online-A.0``.

    Only the last extension goes, because system names often contain dots themselves.
    """
    return PurePath(path).stem
