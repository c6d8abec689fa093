"""Which characters the compiled tokenizer treats as punctuation, numbers and symbols.

One byte per code point, with the bits of ``_scan.pyx``: SPACED (gets spaces around it),
SEPARATOR (split off unless next to a number) and NUMBER. For 13a the sets are ASCII and written
out from mteval-v13a's regular expressions; zh adds the code points sacreBLEU's Chinese tokenizer
spaces out (``ZH_RANGES``) to 13a's SPACED set. For intl they are the Unicode classes \\p{S}, \\p{P}
and \\p{N} as sacreBLEU's ``regex`` module defines them: the table is read from that module
itself, so the compiled path and sacreBLEU agree even where Python's own Unicode database is
older or newer.
"""

from __future__ import annotations

from functools import cache

SPACED, SEPARATOR, NUMBER = 1, 2, 4
_13A_SPACED = '{|}~[\\]^_` !"#$%&()*+:;<=>?@/'  # mteval-v13a's first rule

# The code points sacreBLEU's TokenizerZh puts spaces around (CJK ideographs, radicals, CJK and
# fullwidth punctuation, symbols), inclusive ranges. Its list compares one character with pairs
# of strings, and two pairs are written with five hex digits after \u, which Python reads as four
# digits and a "0", "6", ... ("\u20000" is U+2000 followed by "0"). Compared as strings, those two
# pairs hold U+2001..U+2A6D and U+2F81..U+2FA1, and the Extension B ideographs (U+20000 on) are
# in no range. These are the ranges its comparisons select, so that our tokens are its tokens
# (tests/text/test_tokenizers_sacrebleu.py checks every code point).
ZH_RANGES = (
    (0x3400, 0x4DB5), (0x4E00, 0x9FA5), (0x9FA6, 0x9FBB), (0xF900, 0xFA2D), (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9), (0x2001, 0x2A6D), (0x2F81, 0x2FA1), (0xFF00, 0xFFEF), (0x2E80, 0x2EFF),
    (0x3000, 0x303F), (0x31C0, 0x31EF), (0x2F00, 0x2FDF), (0x2FF0, 0x2FFF), (0x3100, 0x312F),
    (0x31A0, 0x31BF), (0xFE10, 0xFE1F), (0xFE30, 0xFE4F), (0x2600, 0x26FF), (0x2700, 0x27BF),
    (0x3200, 0x32FF), (0x3300, 0x33FF),
)  # fmt: skip


@cache
def table_13a() -> bytes:
    """ASCII only: every other code point has no class in 13a."""
    table = bytearray(128)
    for character in _13A_SPACED:
        table[ord(character)] |= SPACED
    for character in ".,":
        table[ord(character)] |= SEPARATOR
    for character in "0123456789":
        table[ord(character)] |= NUMBER
    return bytes(table)


@cache
def table_zh() -> bytes:
    """13a's classes, and SPACED for every code point of ZH_RANGES (none of them ASCII, so the
    two spacing steps of sacreBLEU's zh are one pass here); nothing past U+FFEF has a class."""
    table = bytearray(max(end for _, end in ZH_RANGES) + 1)
    table[:128] = table_13a()
    for start, end in ZH_RANGES:
        table[start : end + 1] = bytes([SPACED]) * (end + 1 - start)
    return bytes(table)


@cache
def table_intl() -> bytes:
    """Every code point (1.1 MB), built once per process from the ``regex`` module."""
    import regex  # sacreBLEU's dependency, only needed for intl

    every_character = "".join(map(chr, range(0x110000)))
    table = bytearray(0x110000)
    for pattern, bit in ((r"\p{S}", SPACED), (r"\p{P}", SEPARATOR), (r"\p{N}", NUMBER)):
        for match in regex.finditer(pattern, every_character):
            table[match.start()] |= bit
    return bytes(table)
