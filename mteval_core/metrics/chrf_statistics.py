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

from collections.abc import Mapping, Sequence
from types import ModuleType

import numpy as np

from mteval_core.errors import Note, say
from mteval_core.metrics.code_points import statistics_in_blocks

try:
    from mteval_core.metrics import _chrf_counts as compiled_counts
except ImportError:  # installed without a C compiler
    compiled_counts = None


class SlowChrF(Note):
    """The compiled chrF counts are missing; sacreBLEU's Python gives the same numbers slowly."""


def compiled_module() -> ModuleType | None:
    """The compiled counting module, or None where it was not built."""
    return compiled_counts


def warn_slow_chrf() -> None:
    """Says that chrF's statistics come from sacreBLEU's Python, and how to get the fast path."""
    say(
        "chrF runs on sacreBLEU's pure-Python counting (the compiled module was not built when "
        "mteval was installed): the same numbers, about 10 times slower. Reinstall with a C "
        "compiler (e.g. apt-get install gcc python3-dev) for full speed.",
        SlowChrF,
        stacklevel=3,
    )


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

    def counts(text: np.ndarray, offsets: np.ndarray, n_references: int, n_systems: int):
        return compiled_counts.chrf_statistics(
            text, offsets, n_references, n_systems, char_order, word_order, float(beta)
        )

    n_stats = 3 * (char_order + word_order)
    return statistics_in_blocks(references, systems, n_stats, lowercase, counts)
