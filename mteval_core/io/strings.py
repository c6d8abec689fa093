"""Strings that readers decode from escapes: every one must be text that can be written out.

UTF-8 cannot encode a lone surrogate (U+D800 to U+DFFF, one half of a UTF-16 pair), so a file that
decodes has none. Escapes can still write one: JSON's ``\\ud800`` and an SGML or XML character
reference, ``&#xD800;`` or ``&#55296;``. Python reads the JSON escape into a string that fails far
from the file, wherever it is encoded again (a content hash, the output, a page), and
``html.unescape`` turns a reference into U+FFFD without a word. So each reader that decodes
escapes checks what came out here, and refuses a lone surrogate where it stands: the file, the
line, the field, and what to write instead. A reference to no character at all (``&#0;``, above
U+10FFFF) is refused alike.

JSON Lines (long-format files and the shards of `mteval score --shards`), mteval SGML and WMT XML
are the readers that decode escapes; every other format is UTF-8 text as it stands.
"""

from __future__ import annotations

import re

from mteval_core.errors import InputError

LONE_SURROGATE = re.compile("[\ud800-\udfff]")
LAST_CHARACTER = 0x10FFFF
SURROGATE_HINT = (
    "Write the character itself (as UTF-8), or both halves of its pair in JSON "
    "(\\ud83d\\ude00 is one character); a half alone is no text, and would fail wherever the "
    "text is written out."
)
REFERENCE_HINT = (
    "Write the character itself (as UTF-8), or a reference to a character between &#1; and "
    "&#x10FFFF; that is not a surrogate (&#xD800; to &#xDFFF;)."
)
XML_REFERENCE_HINT = (
    "Write the character itself (as UTF-8), or a reference to a character XML allows: tab, line "
    "breaks and &#x20; on, but no surrogate (&#xD800; to &#xDFFF;), &#xFFFE; or &#xFFFF;."
)


def surrogate_problem(code_point: int) -> str:
    """'\\ud800 is half of a UTF-16 surrogate pair, not a character'."""
    return f"\\u{code_point:04x} is half of a UTF-16 surrogate pair, not a character"


def shown(text: str) -> str:
    """``text`` as a message may show it: a lone surrogate as its escape (\\ud800), which any
    output can write."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def refuse_lone_surrogates(value: object, origin: str, line: int) -> None:
    """Refuse a JSON value (one line's object) whose keys or strings hold a lone surrogate,
    naming the field: the key, or the key that holds the string."""
    found = _first_surrogate(value, None)
    if found is not None:
        code_point, field = found
        raise InputError(
            surrogate_problem(code_point),
            origin=origin,
            line=line,
            column=None if field is None else shown(field),
            hint=SURROGATE_HINT,
        )


def _first_surrogate(value: object, field: str | None) -> tuple[int, str | None] | None:
    """(code point, field) of the first lone surrogate in ``value``, depth first."""
    if isinstance(value, str):
        match = LONE_SURROGATE.search(value)
        return None if match is None else (ord(match.group()), field)
    if isinstance(value, dict):
        for key, item in value.items():
            found = _first_surrogate(key, key) or _first_surrogate(item, field or key)
            if found is not None:
                return found
    if isinstance(value, list):
        for item in value:
            found = _first_surrogate(item, field)
            if found is not None:
                return found
    return None


def reference_problem(code_point: int) -> str | None:
    """Why a character reference to ``code_point`` is no text, or None when it names a
    character: a lone surrogate, NUL (never text: the readers refuse it in a file too), or a
    number past the last character."""
    if 0xD800 <= code_point <= 0xDFFF:
        return surrogate_problem(code_point)
    if code_point == 0:
        return "NUL (U+0000) is not text"
    if code_point > LAST_CHARACTER:
        return f"no character has the number {code_point:,} (the last is U+10FFFF)"
    return None
