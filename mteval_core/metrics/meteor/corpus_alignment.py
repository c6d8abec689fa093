"""METEOR's beam alignment of many segment pairs at once: compiled where built, else per pair.

aligner.align aligns one pair in Python (a few hundred microseconds to milliseconds each: a
WMT test set of 16 systems took longer than the jar). Here the words of all pairs become integer
arrays once per call (each distinct word's Java hash key, its stem's key and its function-word
flag computed once, memoised across calls), the exact and stem modules match on those integers
and the beam search runs in ``_beam_loops.pyx``; the synonym and paraphrase modules still
propose their matches through their Python matchers (matchers.py), handed over as arrays. Where
the package was built without a C compiler, ``aligner.align`` and ``scorer.statistics_row`` run
per pair: the same rows (tests/metrics/test_meteor_compiled.py compares both).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType

import numpy as np

from mteval_core.metrics.meteor.aligner import BEAM_SIZE, Matcher, align, search_weights
from mteval_core.metrics.meteor.java_strings import java_hash, java_lower
from mteval_core.metrics.meteor.scorer import statistics_row
from mteval_core.metrics.meteor.stage import Stage

try:
    from mteval_core.metrics.meteor import _beam_loops as compiled_loops
except ImportError:  # installed without a C compiler
    compiled_loops = None


def compiled_module() -> ModuleType | None:
    """The compiled beam search, or None where it was not built."""
    return compiled_loops


class WordTable:
    """Each distinct word's Java hash key, stem key and function-word flag, computed once.

    ``stem`` is the stem module's stemmer (None without a stem module: stem keys are then the
    word keys, never read). Tokens become row numbers of the table (``rows``)."""

    def __init__(self, stem: Callable[[str], str] | None, function_words: frozenset[str]) -> None:
        self._stem = stem
        self._function_words = function_words
        self._row: dict[str, int] = {}
        self._keys: list[int] = []
        self._stems: list[int] = []
        self._function: list[int] = []

    def rows(self, lines: Sequence[list[str]]) -> tuple[np.ndarray, np.ndarray]:
        """(row of every token, offsets of the lines) for lines of words."""
        row = self._row
        for line in lines:
            for word in line:
                if word not in row:
                    self._add(word)
        lengths = np.fromiter((len(line) for line in lines), np.int64, len(lines))
        offsets = np.zeros(len(lines) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        tokens = np.fromiter(
            (row[word] for line in lines for word in line), np.int64, int(offsets[-1])
        )
        return tokens, offsets

    def _add(self, word: str) -> None:
        self._row[word] = len(self._keys)
        key = java_hash(word)
        self._keys.append(key)
        self._stems.append(java_hash(self._stem(word)) if self._stem is not None else key)
        self._function.append(1 if java_lower(word) in self._function_words else 0)

    def columns(self, tokens: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Keys, stem keys (int32) and function flags (int8) of the given token rows."""
        keys = np.asarray(self._keys, dtype=np.int32)[tokens]
        stems = np.asarray(self._stems, dtype=np.int32)[tokens]
        function = np.asarray(self._function, dtype=np.int8)[tokens]
        return keys, stems, function


def _given_matches(
    hypotheses: Sequence[list[str]],
    references: Sequence[list[str]],
    matchers: Sequence[Matcher],
    given_modules: Sequence[int],
) -> tuple[np.ndarray, np.ndarray]:
    """(offsets, rows) of the matches the Python matchers of ``given_modules`` propose per pair
    (rows: reference start, length, hypothesis start, length, module), in each module's order
    by reference start; none for identical lines, which the jar matches with module 0 only."""
    found: list[tuple[int, int, int, int, int]] = []
    offsets = np.zeros(len(hypotheses) + 1, dtype=np.int64)
    for pair, (hypothesis, reference) in enumerate(zip(hypotheses, references, strict=True)):
        if given_modules:
            stage = Stage(hypothesis, reference)
            if stage.hypothesis_keys != stage.reference_keys:
                for module in given_modules:
                    matchers[module](stage, module)
                found += [
                    (m.start, m.length, m.match_start, m.match_length, m.module)
                    for at_start in stage.matches
                    for m in at_start
                ]
        offsets[pair + 1] = len(found)
    rows = np.array(found, dtype=np.int32).reshape(len(found), 5)
    return offsets, rows


def pair_statistics(  # noqa: PLR0913 - the aligner's inputs, as align takes them
    hypotheses: Sequence[list[str]],
    references: Sequence[list[str]],
    matchers: Sequence[Matcher],
    modules: Sequence[str],
    words: WordTable,
    function_words: frozenset[str],
    beam_size: int = BEAM_SIZE,
) -> np.ndarray:
    """(n_pairs, n_stats) statistics rows of hypothesis i against reference i, as
    ``statistics_row(align(...))`` gives them for each pair."""
    if compiled_loops is None:
        rows = [
            statistics_row(
                align(h, r, matchers, modules, function_words, beam_size), len(h), len(r)
            )
            for h, r in zip(hypotheses, references, strict=True)
        ]
        width = 4 + 4 * len(modules) + 1
        return np.array(rows, dtype=np.float64).reshape(len(rows), width)
    kinds = [
        compiled_loops.EXACT
        if m == "exact"
        else compiled_loops.STEM
        if m == "stem"
        else compiled_loops.GIVEN
        for m in modules
    ]
    given_modules = [k for k, kind in enumerate(kinds) if kind == compiled_loops.GIVEN]
    given_offsets, given = _given_matches(hypotheses, references, matchers, given_modules)
    hyp_tokens, hyp_offsets = words.rows(hypotheses)
    ref_tokens, ref_offsets = words.rows(references)
    hyp_keys, hyp_stems, hyp_function = words.columns(hyp_tokens)
    ref_keys, ref_stems, ref_function = words.columns(ref_tokens)
    return compiled_loops.pair_statistics(
        hyp_keys,
        hyp_stems,
        hyp_function,
        hyp_offsets,
        ref_keys,
        ref_stems,
        ref_function,
        ref_offsets,
        np.asarray(kinds, dtype=np.int32),
        given_offsets,
        given,
        np.asarray(search_weights(modules), dtype=np.float64),
        beam_size,
    )
