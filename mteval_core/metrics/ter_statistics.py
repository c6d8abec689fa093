"""TER's per-segment statistics from compiled code, equal to sacreBLEU's.

sacreBLEU's TER searches shifts in Python, rebuilding a list of words and an edit-distance matrix
for every candidate: on WMT17 en-de (16 systems x 3,004 segments) that takes over a minute.
``_ter_edits.pyx`` runs the same search on integer word ids. sacreBLEU's TER with its default
options tokenizes with Tercom's tokenizer without normalisation, punctuation removal or
Asian-script handling: the text, lowercased unless case-sensitive, split on Python's whitespace.
This module lowercases (in Python, as sacreBLEU) and hands the code points to the compiled
module, which splits them into words and gives each distinct word of a segment one id (equal ids
exactly when the words are equal strings); it returns the statistics in the layout of
:mod:`mteval_core.metrics.sacrebleu_segments`, whose sacreBLEU path stays the fallback where the
package was built without a C compiler (the same numbers, much slower, with a note).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from types import ModuleType

import numpy as np

from mteval_core.errors import Note

try:
    from mteval_core.metrics import _ter_edits as compiled_edits
except ImportError:  # installed without a C compiler
    compiled_edits = None

# Segments encoded at a time: their code points (4 bytes each, every column) are held at once.
SEGMENT_BLOCK = 4_096


class SlowTER(Note):
    """The compiled TER is missing; sacreBLEU's Python gives the same numbers slowly."""


def compiled_module() -> ModuleType | None:
    """The compiled TER module, or None where it was not built."""
    return compiled_edits


def warn_slow_ter() -> None:
    """Says that TER's statistics come from sacreBLEU's Python, and how to get the fast path."""
    warnings.warn(
        "TER runs on sacreBLEU's pure-Python shift search (the compiled module was not built "
        "when mteval was installed): the same numbers, about 100 times slower. Reinstall with a "
        "C compiler (e.g. apt-get install gcc python3-dev) for full speed.",
        SlowTER,
        stacklevel=3,
    )


def encode_columns(
    columns: Sequence[Sequence[str]], case_sensitive: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The code points of every segment of every column, one uint32 array, lowercased as
    sacreBLEU's Tercom tokenizer lowercases (``str.lower`` of the whole segment, which may change
    its length and knows a final sigma) unless case-sensitive, and the int64 offsets of segment s
    of column c at c * n_segments + s (the layout ``ter_statistics`` reads; it splits the words).

    ``surrogatepass`` keeps a lone surrogate as the one code point Python sees, as sacreBLEU
    would compare it, instead of failing (the readers refuse them, but the API takes any
    string)."""
    segments = [
        segment if case_sensitive else segment.lower() for column in columns for segment in column
    ]
    lengths = np.fromiter(
        (len(segment) for segment in segments), dtype=np.int64, count=len(segments)
    )
    offsets = np.zeros(len(segments) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    encoded = "".join(segments).encode("utf-32-le", "surrogatepass")
    return np.frombuffer(encoded, dtype=np.uint32), offsets


def ter_segment_statistics(
    references: Sequence[Sequence[str]],
    systems: Mapping[str, Sequence[str]],
    *,
    case_sensitive: bool,
) -> dict[str, np.ndarray]:
    """Every system's (n_segments, 2) float64 statistics (fewest edits over the references, mean
    reference length), as sacreBLEU's TER with these options gives them, computed by the
    compiled module a block of segments at a time (so memory does not grow with the test set)."""
    if compiled_edits is None:
        raise RuntimeError("the compiled TER module is not built")
    n_segments = len(references[0]) if references else 0
    for name, hypotheses in systems.items():
        if len(hypotheses) != n_segments:
            raise ValueError(f"{name}: {len(hypotheses)} hypotheses for {n_segments} segments")
    result = {name: np.empty((n_segments, 2), dtype=np.float64) for name in systems}
    names = list(systems)
    for start in range(0, n_segments, SEGMENT_BLOCK):
        stop = min(start + SEGMENT_BLOCK, n_segments)
        columns = [reference[start:stop] for reference in references]
        columns += [systems[name][start:stop] for name in names]
        text, offsets = encode_columns(columns, case_sensitive)
        statistics = compiled_edits.ter_statistics(text, offsets, len(references), len(names))
        for index, name in enumerate(names):
            result[name][start:stop] = statistics[index]
    return result
