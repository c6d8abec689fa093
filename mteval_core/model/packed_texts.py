"""A column's segments as one UTF-8 buffer and the offsets where each segment starts.

A Python ``str`` costs 49 to 80 bytes of object header besides its characters, and a German
segment with one umlaut is stored at two bytes a character: WMT17 en-de's segments took 189 bytes
each as ``str`` where their UTF-8 takes 123. :class:`PackedTexts` keeps the UTF-8 bytes end to end
with one offset per segment (uint32 while the buffer is under 4 GiB) and decodes a segment when it
is asked for, so a test set in memory costs about its files' size.

It is a ``Sequence[str]``: indexing, iteration, ``len``, ``in`` and slicing (a slice is a tuple of
``str``, as slicing the tuple it replaces gave) work as on a tuple, and it equals a tuple or list
of the same strings. Text is encoded with ``surrogatepass``, so every ``str`` comes back as it
went in, even a lone surrogate (readers refuse those, see ``io.strings``; the round trip must not
depend on it). It pickles as its buffer and offsets, for the dashboard's cache and Dask.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import pairwise
from typing import overload

import numpy as np

ENCODING = "utf-8"
ERRORS = "surrogatepass"  # every str round-trips, even one that is not valid Unicode text
# Segments decoded per step of an iteration: the offsets of a step become one Python list (far
# faster to index than numpy scalars) without a list of the whole column's offsets.
ITERATION_STEP = 4096


class PackedTexts(Sequence[str]):
    """Immutable segments as one UTF-8 ``bytes`` buffer; segment i is
    ``buffer[offsets[i]:offsets[i + 1]]``."""

    __slots__ = ("_buffer", "_offsets")

    def __init__(self, buffer: bytes, offsets: np.ndarray) -> None:
        """``offsets``: n + 1 non-decreasing byte positions from 0 to ``len(buffer)``."""
        offsets = np.asarray(offsets)
        if offsets.ndim != 1 or len(offsets) == 0 or offsets[0] != 0:
            raise ValueError("offsets must be a 1-D array that starts at 0")
        if int(offsets[-1]) != len(buffer) or np.any(np.diff(offsets.astype(np.int64)) < 0):
            raise ValueError("offsets must not decrease and must end at the buffer's length")
        self._buffer = bytes(buffer)
        self._offsets = offsets.astype(offset_type(len(buffer)), copy=False)
        self._offsets.flags.writeable = False

    @classmethod
    def of(cls, texts: Iterable[str]) -> PackedTexts:
        """The segments ``texts`` (any iterable of ``str``), packed."""
        if isinstance(texts, PackedTexts):
            return texts
        try:
            encoded = [text.encode(ENCODING, ERRORS) for text in texts]
        except AttributeError:
            wrong = next(text for text in texts if not isinstance(text, str))
            raise TypeError(f"segments are str, not {type(wrong).__name__}") from None
        lengths = np.fromiter(map(len, encoded), np.int64, len(encoded))
        return cls(b"".join(encoded), _offsets_of(lengths))

    @classmethod
    def from_lines(cls, text: bytes) -> PackedTexts:
        """The lines of UTF-8 ``text`` split on b"\\n" only; a final newline adds no empty line
        (``io.decoding.split_lines`` on the bytes, without a ``str`` per line)."""
        if not text:
            return cls(b"", np.zeros(1, np.uint32))
        if text.endswith(b"\n"):
            text = text[:-1]
        newlines = np.flatnonzero(np.frombuffer(text, np.uint8) == ord("\n"))
        # the buffer keeps the newlines out, so line i ends (i newlines earlier) at its end in
        # ``text`` minus i
        line_ends = np.append(newlines, len(text))
        offsets = np.zeros(len(line_ends) + 1, np.int64)
        offsets[1:] = line_ends - np.arange(len(line_ends))
        keep = np.ones(len(text), bool)
        keep[newlines] = False
        return cls(np.frombuffer(text, np.uint8)[keep].tobytes(), offsets)

    # ------------------------------------------------------------------ the Sequence
    def __len__(self) -> int:
        return len(self._offsets) - 1

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        n = len(self)
        position = index + n if index < 0 else index
        if not 0 <= position < n:
            raise IndexError(f"segment index {index} out of range for {n} segments")
        start, end = int(self._offsets[position]), int(self._offsets[position + 1])
        return self._buffer[start:end].decode(ENCODING, ERRORS)

    def __iter__(self) -> Iterator[str]:
        buffer = self._buffer
        for start, end in self._spans():
            yield buffer[start:end].decode(ENCODING, ERRORS)

    def encoded(self) -> Iterator[memoryview]:
        """Each segment's UTF-8 (with ``surrogatepass``), without decoding it: what
        ``text.encode("utf-8", "surrogatepass")`` gives for each segment, as views."""
        view = memoryview(self._buffer)
        for start, end in self._spans():
            yield view[start:end]

    def _spans(self) -> Iterator[tuple[int, int]]:
        """Each segment's (start, end) in the buffer, in order."""
        for first in range(0, len(self), ITERATION_STEP):
            yield from pairwise(self._offsets[first : first + ITERATION_STEP + 1].tolist())

    # ------------------------------------------------------------------ value semantics
    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedTexts):
            return self._buffer == other._buffer and np.array_equal(self._offsets, other._offsets)
        if isinstance(other, (tuple, list)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        """The hash of the tuple of the same segments: equal values, equal hashes."""
        return hash(tuple(self))

    def __reduce__(self) -> tuple[type[PackedTexts], tuple[bytes, np.ndarray]]:
        return PackedTexts, (self._buffer, self._offsets)

    def __repr__(self) -> str:
        shown = ", ".join(repr(text) for text in self[:3])
        more = f", ... ({len(self)} segments)" if len(self) > 3 else ""
        return f"PackedTexts([{shown}{more}])"

    @property
    def nbytes(self) -> int:
        """The memory the segments take: the buffer and the offsets."""
        return len(self._buffer) + self._offsets.nbytes


def offset_type(buffer_length: int) -> type[np.unsignedinteger] | type[np.signedinteger]:
    """The narrowest type that holds every offset into a buffer of ``buffer_length`` bytes."""
    return np.uint32 if buffer_length <= np.iinfo(np.uint32).max else np.int64


def _offsets_of(lengths: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets
