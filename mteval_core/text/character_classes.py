"""Which characters the compiled tokenizer treats as punctuation, numbers and symbols.

One byte per code point, with the bits of ``_scan.pyx``: SPACED (gets spaces around it),
SEPARATOR (split off unless next to a number) and NUMBER. For 13a the sets are ASCII and written
out from mteval-v13a's regular expressions. For intl they are the Unicode classes \\p{S}, \\p{P}
and \\p{N} as sacreBLEU's ``regex`` module defines them: the table is read from that module
itself, so the compiled path and sacreBLEU agree even where Python's own Unicode database is
older or newer.
"""

from __future__ import annotations

from functools import cache

SPACED, SEPARATOR, NUMBER = 1, 2, 4
_13A_SPACED = '{|}~[\\]^_` !"#$%&()*+:;<=>?@/'  # mteval-v13a's first rule


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
def table_intl() -> bytes:
    """Every code point (1.1 MB), built once per process from the ``regex`` module."""
    import regex  # sacreBLEU's dependency, only needed for intl

    every_character = "".join(map(chr, range(0x110000)))
    table = bytearray(0x110000)
    for pattern, bit in ((r"\p{S}", SPACED), (r"\p{P}", SEPARATOR), (r"\p{N}", NUMBER)):
        for match in regex.finditer(pattern, every_character):
            table[match.start()] |= bit
    return bytes(table)
