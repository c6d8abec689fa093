"""Java's string behaviour where METEOR's jar depends on it, so our matchers decide as the jar does.

The jar keys words by `String.hashCode()` (two different words with one hash are "the same word"
to its exact, stem and synonym matchers; the shared WMT17 German data has such pairs, e.g. "Ob"
and "PC"), splits lines with `StringTokenizer` (five delimiters, not Unicode whitespace), trims
with `String.trim()` (every character up to U+0020) and lowercases with `String.toLowerCase()`
(Unicode 13 in Java 17, one version older than Python 3.11's tables).
"""

from __future__ import annotations

import re
from functools import lru_cache

# StringTokenizer's default delimiters: space, tab, newline, carriage return, form feed.
_TOKEN_DELIMITERS = re.compile("[ \t\n\r\f]+")

_TRIMMED = "".join(chr(code_point) for code_point in range(0x21))

# Letters Python 3.11 lowercases (Unicode 14) and Java 17 leaves as they are (Unicode 13),
# measured over every code point against the jar's JVM
# (scripts/meteor_oracle/make_fixtures.py writes tests/metrics/meteor/fixtures/lowercase.json).
_NEWER_UPPERCASE = [0x2C2F, 0xA7C0, 0xA7D0, 0xA7D6, 0xA7D8] + [
    cp for cp in range(0x10570, 0x10596) if cp not in (0x1057B, 0x1058B, 0x10593)
]
_NEWER_UPPERCASE_SPLIT = re.compile("([" + "".join(map(chr, _NEWER_UPPERCASE)) + "])")


@lru_cache(maxsize=1 << 20)
def java_hash(word: str) -> int:
    """`String.hashCode()`: sum of s[k]*31^(n-1-k) over UTF-16 code units, as a signed int32."""
    units = memoryview(word.encode("utf-16-le")).cast("H")
    value = 0
    for unit in units:
        value = (value * 31 + unit) & 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def java_length(text: str) -> int:
    """`String.length()`: UTF-16 code units (a character outside the BMP counts twice)."""
    return len(text) + sum(1 for character in text if ord(character) > 0xFFFF)


def java_tokenize(line: str) -> list[str]:
    """The words `new StringTokenizer(line)` gives (the jar's `Alignment` splits lines so)."""
    return [word for word in _TOKEN_DELIMITERS.split(line) if word]


def java_lines(text: str) -> list[str]:
    """The lines `BufferedReader.readLine` gives: ended by \\n, \\r or \\r\\n, no other break."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def java_trim(text: str) -> str:
    """`String.trim()`: drops every character up to U+0020 (controls included) at both ends."""
    return text.strip(_TRIMMED)


def java_lower(text: str) -> str:
    """`String.toLowerCase()` as Java 17 does it: Python's `lower()` less Unicode 14's letters."""
    pieces = _NEWER_UPPERCASE_SPLIT.split(text)
    if len(pieces) == 1:
        return text.lower()
    # odd pieces are the letters Java keeps (a sigma just before one is taken as final here)
    return "".join(piece if index % 2 else piece.lower() for index, piece in enumerate(pieces))
