"""TER's per-segment statistics from compiled code, equal to sacreBLEU's.

sacreBLEU's TER searches shifts in Python, rebuilding a list of words and an edit-distance matrix
for every candidate: on WMT17 en-de (16 systems x 3,004 segments) that takes over a minute, and
on WMT23 en-zh with normalized and asian_support (every Chinese character a word) 50 s a system.
``_ter_edits.pyx`` runs the same search on integer word ids. sacreBLEU's TER with its default
options tokenizes with Tercom's tokenizer without normalisation, punctuation removal or
Asian-script handling: the text, lowercased unless case-sensitive, split on Python's whitespace.
This module lowercases (in Python, as sacreBLEU), or with normalized or no_punct runs Tercom's
rules (``text.tercom``, a block of segments at a time), and hands the code points to the compiled
module, which splits them into words and gives each distinct word of a segment one id (equal ids
exactly when the words are equal strings); it returns the statistics in the layout of
:mod:`mteval_core.metrics.sacrebleu_segments`, whose sacreBLEU path stays the fallback where the
package was built without a C compiler (the same numbers, much slower, with a note).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from types import ModuleType

import numpy as np

from mteval_core.errors import Note, say
from mteval_core.metrics.code_points import statistics_in_blocks
from mteval_core.text.tercom import changes_words, tercom_words

try:
    from mteval_core.metrics import _ter_edits as compiled_edits
except ImportError:  # installed without a C compiler
    compiled_edits = None


class SlowTER(Note):
    """The compiled TER is missing; sacreBLEU's Python gives the same numbers slowly."""


def compiled_module() -> ModuleType | None:
    """The compiled TER module, or None where it was not built."""
    return compiled_edits


def warn_slow_ter() -> None:
    """Says that TER's statistics come from sacreBLEU's Python, and how to get the fast path."""
    say(
        "TER runs on sacreBLEU's pure-Python shift search (the compiled module was not built "
        "when mteval was installed): the same numbers, about 100 times slower. Reinstall with a "
        "C compiler (e.g. apt-get install gcc python3-dev) for full speed.",
        SlowTER,
        stacklevel=3,
    )


def ter_segment_statistics(
    references: Sequence[Sequence[str]],
    systems: Mapping[str, Sequence[str]],
    *,
    case_sensitive: bool,
    normalized: bool = False,
    no_punct: bool = False,
    asian_support: bool = False,
) -> dict[str, np.ndarray]:
    """Every system's (n_segments, 2) float64 statistics (fewest edits over the references, mean
    reference length), as sacreBLEU's ``TER(...)`` with these options gives them, computed by
    the compiled module a block of segments at a time (so memory does not grow with the test
    set)."""
    if compiled_edits is None:
        raise RuntimeError("the compiled TER module is not built")
    if not changes_words(normalized, no_punct):  # a split: the compiled module's own
        return statistics_in_blocks(
            references, systems, 2, not case_sensitive, compiled_edits.ter_statistics
        )
    words = partial(
        tercom_words,
        normalized=normalized,
        no_punct=no_punct,
        asian_support=asian_support,
        case_sensitive=case_sensitive,
    )
    return statistics_in_blocks(
        [_Prepared(reference, words) for reference in references],
        {name: _Prepared(hypotheses, words) for name, hypotheses in systems.items()},
        2,
        False,  # tercom_words lowercased already
        compiled_edits.ter_statistics,
    )


class _Prepared(Sequence[str]):
    """A column whose slices come out through Tercom's rules: each block of segments is
    prepared when it is encoded, so the prepared text never exists for the whole test set."""

    def __init__(self, segments: Sequence[str], prepare: Callable[[str], str]) -> None:
        self._segments = segments
        self._prepare = prepare

    def __len__(self) -> int:
        return len(self._segments)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self._prepare(segment) for segment in self._segments[index]]
        return self._prepare(self._segments[index])
