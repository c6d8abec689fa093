"""Tokens crafted to collide in a token table's hash (issue 26: hash flooding), for the table's
regression tests and ``bench/bench_token_flood.py``.

The compiled token table used to hash a token's code points with FNV-1a, unkeyed, and take the
slot from the hash's low bits. Multiplication and xor carry information only upwards, so the low
``BITS`` bits of FNV-1a depend only on the low ``BITS`` bits of the code points: after any prefix,
one last code point can zero them. Every token made so starts at slot 0 of any table of up to
2^BITS slots, and linear probing walks the whole chain for each new token (quadratic time).

The tokens are six ASCII letters and one code point of planes 4 to 16 (unassigned or private
use: no whitespace, punctuation, symbol or number for the 13a and intl tokenizers), so they come
out of every tokenizer as they went in.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator

import numpy as np

FNV_OFFSET = 14695981039346656037
FNV_PRIME = 1099511628211
BITS = 24  # tables of up to 2^24 slots (8 million tokens): far past the 50 MB upload limit
LETTERS = string.ascii_lowercase
PREFIX_LENGTH = 6  # 26^6 = 309 million prefixes to choose from
PLANES = range(4, 17)  # planes whose code points no tokenizer splits off


def fnv1a(token: str) -> int:
    """The old table's hash: 64-bit FNV-1a over the token's code points."""
    h = FNV_OFFSET
    for c in token:
        h = ((h ^ ord(c)) * FNV_PRIME) & 0xFFFF_FFFF_FFFF_FFFF
    return h


def fnv1a_colliding_tokens(count: int) -> list[str]:
    """``count`` distinct tokens whose FNV-1a hashes all end in ``BITS`` zero bits."""
    tokens: list[str] = []
    for index, states in _prefix_states():
        last = states & np.uint64((1 << BITS) - 1)  # the code point that zeroes the low bits
        plane = last >> np.uint64(16)
        usable = (plane >= PLANES.start) & (plane < PLANES.stop)
        tokens += [
            _prefix(i) + chr(c) for i, c in zip(index[usable].tolist(), last[usable].tolist())
        ]
        if len(tokens) >= count:
            return tokens[:count]
    raise ValueError(f"cannot craft {count} tokens")


def ordinary_tokens(count: int, seed: int = 0) -> list[str]:
    """``count`` distinct tokens of the crafted tokens' shape, with a random last code point."""
    random = np.random.default_rng(seed)
    last = random.integers(PLANES.start << 16, PLANES.stop << 16, count)
    return [_prefix(i) + chr(c) for i, c in enumerate(last.tolist())]


def colliding_tokens(hash_of: Callable[[str], int], count: int, slots: int) -> list[str]:
    """``count`` tokens whose ``hash_of`` falls in the first 1/64 of a table of ``slots`` slots
    (one cluster for linear probing), by trying prefixes one by one: against any hash whose key
    is known, however good the hash."""
    window = max(slots // 64, 1)
    tokens = []
    for i in range(len(LETTERS) ** PREFIX_LENGTH):
        token = _prefix(i)
        if hash_of(token) % slots < window:
            tokens.append(token)
            if len(tokens) == count:
                return tokens
    raise ValueError(f"cannot craft {count} tokens")


def lines_of(tokens: list[str], per_line: int = 20) -> list[str]:
    """The tokens as segments of ``per_line`` tokens, as a system output would hold them."""
    return [" ".join(tokens[i : i + per_line]) for i in range(0, len(tokens), per_line)]


def _prefix(index: int) -> str:
    letters = []
    for _ in range(PREFIX_LENGTH):
        index, digit = divmod(index, len(LETTERS))
        letters.append(LETTERS[digit])
    return "".join(letters)


def _prefix_states(chunk: int = 1 << 20) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Prefix numbers in order, a chunk at a time, with the FNV-1a state after each prefix."""
    codes = np.frombuffer(LETTERS.encode("ascii"), np.uint8).astype(np.uint64)
    prime = np.uint64(FNV_PRIME)
    for start in range(0, len(LETTERS) ** PREFIX_LENGTH, chunk):
        index = np.arange(start, start + chunk, dtype=np.int64)
        states = np.full(chunk, FNV_OFFSET, np.uint64)
        remaining = index.copy()
        for _ in range(PREFIX_LENGTH):
            remaining, digit = np.divmod(remaining, len(LETTERS))
            states = (states ^ codes[digit]) * prime  # wraps modulo 2^64, as in C
        yield index, states
