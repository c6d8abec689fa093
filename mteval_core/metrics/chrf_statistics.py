"""chrF's and chrF++'s per-segment statistics from compiled code, equal to sacreBLEU's.

sacreBLEU builds a Counter of n-gram strings per order for every reference and hypothesis: on
WMT17 en-de (16 systems x 3,004 segments) that is most of its 8 seconds, and as much of ours when
we call it. ``_chrf_counts.pyx`` counts the same n-grams over code points with dense integer ids
(exact, no hashes that could collide); this module hands it the text and gives its numbers in the
layout of :mod:`mteval_core.metrics.sacrebleu_segments`, whose sacreBLEU path stays the fallback
where the package was built without a C compiler (the same numbers, slower, with a note).

Python strings are sequences of code points and sacreBLEU's n-grams are slices of them, so the
text goes in as UTF-32 code units, one per code point; lowercasing (``str.lower``, which may
change a string's length) is done here, before encoding, as sacreBLEU's ``_preprocess_segment``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from types import ModuleType

import numpy as np

from mteval_core.errors import Note

try:
    from mteval_core.metrics import _chrf_counts as compiled_counts
except ImportError:  # installed without a C compiler
    compiled_counts = None

# Segments encoded at a time: their code points (4 bytes each, every column) are held at once.
SEGMENT_BLOCK = 4_096


class SlowChrF(Note):
    """The compiled chrF counts are missing; sacreBLEU's Python gives the same numbers slowly."""


def compiled_module() -> ModuleType | None:
    """The compiled counting module, or None where it was not built."""
    return compiled_counts


def warn_slow_chrf() -> None:
    """Says that chrF's statistics come from sacreBLEU's Python, and how to get the fast path."""
    warnings.warn(
        "chrF runs on sacreBLEU's pure-Python counting (the compiled module was not built when "
        "mteval was installed): the same numbers, about 10 times slower. Reinstall with a C "
        "compiler (e.g. apt-get install gcc python3-dev) for full speed.",
        SlowChrF,
        stacklevel=3,
    )


def encode_columns(
    columns: Sequence[Sequence[str]], lowercase: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The code points of every segment of every column, one uint32 array, and the int64 offsets
    of segment s of column c at c * n_segments + s (the layout ``chrf_statistics`` reads).

    ``surrogatepass`` keeps a lone surrogate as the one code point Python sees, as sacreBLEU would
    count it, instead of failing (the readers refuse them, but the API takes any string)."""
    segments = [
        segment.lower() if lowercase else segment for column in columns for segment in column
    ]
    lengths = np.fromiter(
        (len(segment) for segment in segments), dtype=np.int64, count=len(segments)
    )
    offsets = np.zeros(len(segments) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    encoded = "".join(segments).encode("utf-32-le", "surrogatepass")
    return np.frombuffer(encoded, dtype=np.uint32), offsets


def chrf_segment_statistics(
    references: Sequence[Sequence[str]],
    systems: Mapping[str, Sequence[str]],
    *,
    char_order: int,
    word_order: int,
    beta: float,
    lowercase: bool,
) -> dict[str, np.ndarray]:
    """Every system's (n_segments, 3 * (char_order + word_order)) float64 statistics, as
    sacreBLEU's CHRF with these options gives them, computed by the compiled module a block of
    segments at a time (so memory does not grow with the test set)."""
    if compiled_counts is None:
        raise RuntimeError("the compiled chrF module is not built")
    n_segments = len(references[0]) if references else 0
    for name, hypotheses in systems.items():
        if len(hypotheses) != n_segments:
            raise ValueError(f"{name}: {len(hypotheses)} hypotheses for {n_segments} segments")
    n_stats = 3 * (char_order + word_order)
    result = {name: np.empty((n_segments, n_stats), dtype=np.float64) for name in systems}
    names = list(systems)
    for start in range(0, n_segments, SEGMENT_BLOCK):
        stop = min(start + SEGMENT_BLOCK, n_segments)
        columns = [reference[start:stop] for reference in references]
        columns += [systems[name][start:stop] for name in names]
        text, offsets = encode_columns(columns, lowercase)
        counts = compiled_counts.chrf_statistics(
            text, offsets, len(references), len(names), char_order, word_order, float(beta)
        )
        for index, name in enumerate(names):
            result[name][start:stop] = counts[index]
    return result
