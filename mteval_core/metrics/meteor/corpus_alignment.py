"""METEOR's beam alignment of many segment pairs at once: compiled where built, else per pair.

aligner.align aligns one pair in Python (a few hundred microseconds to milliseconds each: a
WMT test set of 16 systems took longer than the jar). Here the words of all pairs become integer
arrays once per call (each distinct word's Java hash key, its stem's key and its function-word
flag computed once, memoised across calls), the exact and stem modules match on those integers,
the synonym module on each word's synset numbers (looked up once per distinct word), and the beam
search runs in ``_beam_loops.pyx``; the paraphrase module's matches come from ``corpus_matchers``
(paraphrase_corpus.py: numpy joins over all pairs), handed over as arrays. Where
the package was built without a C compiler, ``aligner.align`` and ``scorer.statistics_row`` run
per pair: the same rows (tests/metrics/test_meteor_compiled.py compares both).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import chain
from types import ModuleType

import numpy as np

from mteval_core.engine.threads import map_on_cores, spans
from mteval_core.metrics.meteor.aligner import BEAM_SIZE, Matcher, align, search_weights
from mteval_core.metrics.meteor.java_strings import java_lower
from mteval_core.metrics.meteor.scorer import statistics_row
from mteval_core.metrics.meteor.stage import Stage, TooManyMatches
from mteval_core.metrics.meteor.synonyms import SynonymDictionary
from mteval_core.settings.limits import METEOR_MAX_MATCHES, METEOR_MAX_WORDS
from mteval_core.settings.options import Options
from mteval_core.text.tokenizers import token_ids, token_table

# The compiled tokenizer's split only (tokenize "gtm14"), for WordTable.encode_lines; and the
# characters where that split and Java's StringTokenizer can differ (encode_lines says why).
_SPLIT_ONLY = Options(tokenize="gtm14")
_KEPT_BY_JAVA = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")

# The modules the compiled loops match on the words' keys themselves (the others' matches are
# found in Python and handed to them); the synonym module too where the word table has its
# dictionary (WordTable.matches_itself).
KEY_MODULES = ("exact", "stem")
SYNONYM_MODULE = "synonym"

# The fewest segment pairs a thread aligns (below it, starting a thread costs more than it saves).
PARALLEL_PAIRS = 128

try:
    from mteval_core.metrics.meteor import _beam_loops as compiled_loops
except ImportError:  # installed without a C compiler
    compiled_loops = None


def compiled_module() -> ModuleType | None:
    """The compiled beam search, or None where it was not built."""
    return compiled_loops


@dataclass(frozen=True)
class EncodedLines:
    """Lines of words as the compiled loops read them: every token's Java hash key, stem key
    (int32), function-word flag (int8) and row in the word table (int32: where its synsets are),
    and where each line starts (``offsets``, one more than there are lines)."""

    keys: np.ndarray
    stems: np.ndarray
    function: np.ndarray
    offsets: np.ndarray
    rows: np.ndarray


class WordTable:
    """Each distinct word's Java hash key, stem key and function-word flag, computed once.

    ``stem`` is the stem module's stemmer (None without a stem module: stem keys are then the
    word keys, never read); ``synonyms`` the synonym module's dictionary (None without one), whose
    synsets of each word are kept in ascending order (``synsets``) for the compiled synonym
    matcher. Tokens become row numbers of the table (``rows``); the keys of new words are
    computed together (``java_hashes``), not one word at a time."""

    def __init__(
        self,
        stem: Callable[[str], str] | None,
        function_words: frozenset[str],
        synonyms: SynonymDictionary | None = None,
    ) -> None:
        self._stem = stem
        self.function_words = function_words
        self.synonyms = synonyms
        self._synset_parts: list[tuple[np.ndarray, np.ndarray]] = []  # (counts, ids) per batch
        self._synsets = (np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int32))
        self._row: dict[str, int] = {}
        self.keys = np.zeros(0, dtype=np.int32)
        self.stems = np.zeros(0, dtype=np.int32)
        self.function = np.zeros(0, dtype=np.int8)
        # the compiled tokenizer's own word -> row table, for encode_lines (None where not built)
        self._scanner = token_table(self._row_for_scanner)
        self._unkeyed: list[str] = []  # words the scanner gave rows whose keys are not made yet

    def rows(self, lines: Sequence[list[str]]) -> tuple[np.ndarray, np.ndarray]:
        """(row of every token, offsets of the lines) for lines of words."""
        row = self._row
        tokens = list(chain.from_iterable(lines))
        new = [word for word in dict.fromkeys(tokens) if word not in row]
        if new:
            first = len(row)
            row.update(zip(new, range(first, first + len(new)), strict=True))
            self._add_keys(new)
        lengths = np.fromiter(map(len, lines), np.int64, len(lines))
        offsets = np.zeros(len(lines) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return np.fromiter(map(row.__getitem__, tokens), np.int64, len(tokens)), offsets

    def matches_itself(self, module: str) -> bool:
        """Whether the compiled loops find this module's matches from the encoded lines."""
        return module in KEY_MODULES or (module == SYNONYM_MODULE and self.synonyms is not None)

    def synsets(self) -> tuple[np.ndarray, np.ndarray]:
        """(offsets, ids): row r's synset numbers are ids[offsets[r]:offsets[r + 1]], ascending
        (none for any row without a synonym dictionary)."""
        if self.synonyms is None:
            return np.zeros(len(self.keys) + 1, dtype=np.int64), self._synsets[1]
        if self._synset_parts:
            offsets, ids = self._synsets
            counts = np.concatenate([part[0] for part in self._synset_parts])
            self._synsets = (
                np.concatenate([offsets, offsets[-1] + np.cumsum(counts)]),
                np.concatenate([ids, *(part[1] for part in self._synset_parts)]),
            )
            self._synset_parts = []
        return self._synsets

    def encode_lines(self, lines: Sequence[str]) -> EncodedLines | None:
        """``encode`` of the words of prepared ``lines`` (java_strings.java_tokenize's split),
        read by the compiled tokenizer straight from the text, without a string per token: on
        WMT21 en-de, splitting and looking up the words in Python took a fifth of METEOR's time.

        None where the compiled tokenizer was not built, or where a line holds a control
        character other than Java's five separators: the tokenizer's split (GTM's) first trims
        every character up to U+0020 from both ends of a line, where Java keeps them in words."""
        if self._scanner is None or any(map(_KEPT_BY_JAVA.search, lines)):
            return None
        try:
            ids, lengths = token_ids(lines, _SPLIT_ONLY, self._scanner)
        finally:  # every row gets its keys, even if the scan stopped (Ctrl-C)
            if self._unkeyed:
                self._add_keys(self._unkeyed)
                self._unkeyed = []
        offsets = np.zeros(len(lines) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return EncodedLines(
            self.keys[ids], self.stems[ids], self.function[ids], offsets, ids.astype(np.int32)
        )

    def _row_for_scanner(self, word: str) -> int:
        """The row of a word the scanner has not met: the table's, or a new one (its keys are
        made with the scan's other new words, once the scan is over)."""
        row = self._row.get(word)
        if row is None:
            row = self._row[word] = len(self._row)
            self._unkeyed.append(word)
        return row

    def _add_keys(self, words: list[str]) -> None:
        """The keys of new words, which have the rows after every word's that has keys."""
        keys = java_hashes(words)
        if self._stem is not None:
            stems = java_hashes([self._stem(word) for word in words])
        else:
            stems = keys
        lowered = self.function_words
        function = np.fromiter((java_lower(word) in lowered for word in words), np.int8, len(words))
        self.keys = np.concatenate([self.keys, keys])
        self.stems = np.concatenate([self.stems, stems])
        self.function = np.concatenate([self.function, function])
        if self.synonyms is not None:
            found = [sorted(self.synonyms.synsets(word)) for word in words]
            counts = np.fromiter(map(len, found), np.int64, len(found))
            ids = np.fromiter(chain.from_iterable(found), np.int32, int(counts.sum()))
            self._synset_parts.append((counts, ids))

    def encode(self, lines: Sequence[list[str]]) -> EncodedLines:
        """``lines`` as the compiled loops read them. A caller that aligns the same lines again
        (a reference against every system, a system against every reference) encodes them once:
        on WMT21 en-de, encoding each pair's lines anew took more time than the beam search."""
        tokens, offsets = self.rows(lines)
        return EncodedLines(
            self.keys[tokens],
            self.stems[tokens],
            self.function[tokens],
            offsets,
            tokens.astype(np.int32),
        )


def java_hashes(words: Sequence[str]) -> np.ndarray:
    """`String.hashCode()` of every word (java_strings.java_hash), as int32, computed together:
    h = 31 * h + unit over the UTF-16 code units, modulo 2^32."""
    encoded = [word.encode("utf-16-le") for word in words]
    lengths = np.fromiter(map(len, encoded), np.int64, len(encoded)) // 2
    units = np.frombuffer(b"".join(encoded), dtype="<u2").astype(np.uint32)
    starts = np.zeros(len(encoded), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    hashes = np.zeros(len(encoded), dtype=np.uint32)
    with np.errstate(over="ignore"):
        for position in range(int(lengths.max(initial=0))):
            longer = np.flatnonzero(lengths > position)
            hashes[longer] = hashes[longer] * np.uint32(31) + units[starts[longer] + position]
    return hashes.view(np.int32)


CorpusMatcher = Callable[[Sequence[list[str]], Sequence[list[str]], int, int], tuple]
"""(hypotheses, references, module, limit) -> the module's matches of every pair at once, as
(n, 6) rows (pair, reference start, length, hypothesis start, length, module), each pair's in the
order the module's matcher adds them, and whether each pair has more than ``limit`` (its rows
are not listed) (paraphrase_corpus.CorpusParaphrases.matches)."""


@dataclass(frozen=True)
class Search:
    """The beam's width (the jar's 40), and how much work one segment pair may cause
    (settings/search.py): words per line, candidate matches of all modules together; a pair
    above either is left out (its row NaN)."""

    beam_size: int = BEAM_SIZE
    max_words: int = METEOR_MAX_WORDS
    max_matches: int = METEOR_MAX_MATCHES

    def too_long(self, hypothesis: Sequence[str], reference: Sequence[str]) -> bool:
        return max(len(hypothesis), len(reference)) > self.max_words


def _given_matches(  # long: the per-pair matchers, then the corpus ones, merged by pair
    hypotheses: Sequence[list[str]],
    references: Sequence[list[str]],
    matchers: Sequence[Matcher],
    given_modules: Sequence[int],
    corpus_matchers: dict[int, CorpusMatcher],
    search: Search,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(offsets, rows, left out) of the matches of the modules the compiled loops do not find
    themselves (rows: reference start, length, hypothesis start, length, module), each module's
    in its matcher's order; for identical lines only module 0's, as the jar uses no other there.
    A pair whose lines are too long, or whose modules here find too many matches, is left out
    (int8 1) with none of its rows."""
    found: list[tuple[int, int, int, int, int, int]] = []
    left_out = np.zeros(len(hypotheses), dtype=np.int8)
    per_pair = [k for k in given_modules if k not in corpus_matchers]
    for pair, (hypothesis, reference) in enumerate(zip(hypotheses, references, strict=True)):
        if search.too_long(hypothesis, reference):
            left_out[pair] = 1
        elif per_pair:
            stage = Stage(hypothesis, reference, limit=search.max_matches)
            identical = stage.hypothesis_keys == stage.reference_keys
            try:
                for module in per_pair:
                    if module == 0 or not identical:
                        matchers[module](stage, module)
            except TooManyMatches:
                left_out[pair] = 1
                continue
            found += [
                (pair, m.start, m.length, m.match_start, m.match_length, m.module)
                for at_start in stage.matches
                for m in at_start
            ]
    parts = [np.array(found, dtype=np.int64).reshape(len(found), 6)]
    if left_out.any():  # the corpus matchers never read a line over the limit
        hypotheses = [[] if out else h for h, out in zip(hypotheses, left_out, strict=True)]
        references = [[] if out else r for r, out in zip(references, left_out, strict=True)]
    for k in given_modules:
        if k in corpus_matchers:
            rows, over = corpus_matchers[k](hypotheses, references, k, search.max_matches)
            left_out[over] = 1
            parts.append(rows)
    rows = np.concatenate(parts)
    rows = rows[np.argsort(rows[:, 0], kind="stable")]
    rows = rows[left_out[rows[:, 0]] == 0]
    offsets = np.zeros(len(hypotheses) + 1, dtype=np.int64)
    np.cumsum(np.bincount(rows[:, 0], minlength=len(hypotheses)), out=offsets[1:])
    return offsets, np.ascontiguousarray(rows[:, 1:], dtype=np.int32), left_out


def pair_statistics(
    hypotheses: Sequence[list[str]],
    references: Sequence[list[str]],
    matchers: Sequence[Matcher],
    modules: Sequence[str],
    words: WordTable,
    search: Search = Search(),
    corpus_matchers: dict[int, CorpusMatcher] | None = None,
    encoded: tuple[EncodedLines, EncodedLines] | None = None,
) -> np.ndarray:
    """(n_pairs, n_stats) statistics rows of hypothesis i against reference i, as
    ``statistics_row(align(...))`` gives them for each pair; NaN rows for the pairs over
    ``search``'s limits. ``corpus_matchers`` find some modules' matches for all pairs at once, and
    ``encoded`` are the hypotheses and references already encoded by ``words`` (both used by
    the compiled path only)."""
    if compiled_loops is None:
        return _python_pair_statistics(hypotheses, references, matchers, modules, words, search)
    given_modules = [k for k, m in enumerate(modules) if not words.matches_itself(m)]
    given = _given_matches(
        hypotheses, references, matchers, given_modules, corpus_matchers or {}, search
    )
    hyp, ref = encoded or (words.encode(hypotheses), words.encode(references))
    return _compiled_on_cores(hyp, ref, modules, words, given, search)


def _python_pair_statistics(
    hypotheses: Sequence[list[str]],
    references: Sequence[list[str]],
    matchers: Sequence[Matcher],
    modules: Sequence[str],
    words: WordTable,
    search: Search,
) -> np.ndarray:
    """pair_statistics without the compiled loops: aligner.align per pair, within the limits."""
    width = 4 + 4 * len(modules) + 1
    rows = np.full((len(hypotheses), width), np.nan)
    for pair, (h, r) in enumerate(zip(hypotheses, references, strict=True)):
        if search.too_long(h, r):
            continue
        try:
            alignment = align(
                h, r, matchers, modules, words.function_words, search.beam_size, search.max_matches
            )
        except TooManyMatches:
            continue
        rows[pair] = statistics_row(alignment, len(h), len(r))
    return rows


def matched_from_keys(modules: Sequence[str], words: WordTable) -> bool:
    """Whether the compiled loops find every module's matches from the encoded lines alone
    (exact, stem and, with its dictionary, synonym do; paraphrases need the words), so that
    ``encoded_pair_statistics`` needs no line's words."""
    return compiled_loops is not None and all(map(words.matches_itself, modules))


def encoded_pair_statistics(
    hyp: EncodedLines,
    ref: EncodedLines,
    modules: Sequence[str],
    words: WordTable,
    search: Search = Search(),
) -> np.ndarray:
    """``pair_statistics`` of lines already encoded, where ``matched_from_keys(modules)``."""
    n_pairs = len(hyp.offsets) - 1
    no_given = (
        np.zeros(n_pairs + 1, np.int64),
        np.zeros((0, 5), np.int32),
        np.zeros(n_pairs, np.int8),
    )
    return _compiled_on_cores(hyp, ref, modules, words, no_given, search)


def _compiled_on_cores(  # long: the twenty arrays and numbers of the loops, named once
    hyp: EncodedLines,
    ref: EncodedLines,
    modules: Sequence[str],
    words: WordTable,
    given_matches: tuple[np.ndarray, np.ndarray, np.ndarray],
    search: Search,
) -> np.ndarray:
    """The compiled loops' rows, a range of pairs per core, each in a thread (the loops release
    the interpreter lock): a pair's row does not depend on its range. The loops match the
    modules ``words`` has the data for (``WordTable.matches_itself``) themselves and take the
    other modules' matches from ``given_matches`` (offsets, rows, and the pairs already left
    out); a pair over ``search``'s limits gets a NaN row."""
    given_offsets, given, left_out = given_matches
    kind = {"exact": compiled_loops.EXACT, "stem": compiled_loops.STEM}
    if words.synonyms is not None:
        kind[SYNONYM_MODULE] = compiled_loops.SYNONYM
    kinds = np.asarray([kind.get(m, compiled_loops.GIVEN) for m in modules], dtype=np.int32)
    synset_offsets, synset_ids = words.synsets()
    weights = np.asarray(search_weights(modules), dtype=np.float64)

    def pairs_from(span: tuple[int, int]) -> np.ndarray:  # the offsets of pairs first..last
        first, last = span
        return compiled_loops.pair_statistics(
            hyp.keys,
            hyp.stems,
            hyp.function,
            hyp.offsets[first : last + 1],
            ref.keys,
            ref.stems,
            ref.function,
            ref.offsets[first : last + 1],
            hyp.rows,
            ref.rows,
            synset_offsets,
            synset_ids,
            kinds,
            given_offsets[first : last + 1],
            given,
            weights,
            search.beam_size,
            search.max_matches,
            search.max_words,
            left_out[first:last],
        )

    return np.concatenate(map_on_cores(pairs_from, spans(len(hyp.offsets) - 1, PARALLEL_PAIRS)))
