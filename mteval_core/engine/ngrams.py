"""The test set as integer arrays, and clipped n-gram matches.

Every lexical metric needs the same few things per segment: token counts, n-gram matches clipped
by the references (BLEU, NIST), unigram matches against each reference on its own (precision,
recall, Fmean) and NIST's information weights. :class:`EncodedCorpus` turns the references
into token ids once and each system when it is scored (``mteval_core.engine.tokens``), and computes
those arrays without a Python loop over segments: the reference index with numpy, each system's
matches in compiled code (``_ngram_matches.pyx``, segment by segment on every core), or with
numpy where nothing was compiled (the same bits).

How n-grams get ids: the n-grams that occur in the references form a dictionary per order. An
n-gram is keyed by (id of its (n-1)-gram prefix, id of its last token); a hypothesis n-gram whose
prefix is not in the references cannot be in them either, so it gets id -1 and never matches.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple, Protocol

import numpy as np

from mteval_core.engine import libm
from mteval_core.engine.memory import return_freed_memory
from mteval_core.engine.threads import map_on_cores, spans
from mteval_core.engine.tokens import SystemStreams, TokenStream, Vocabulary, offsets_of
from mteval_core.model.testset import TestSet
from mteval_core.settings.options import Options
from mteval_core.text.stemming import stemmer

try:
    from mteval_core.engine import _ngram_matches as compiled
except ImportError:  # installed without a C compiler: numpy's pass (_block_matches)
    compiled = None

BARRIER = -1  # GTM's reference barrier in a token stream: real token ids are >= 0
# A system's matches are computed this many tokens at a time (whole segments): the pass's
# per-token arrays take about 80 bytes a token, so a block needs about 20 MB at most.
MATCH_BLOCK_TOKENS = 1 << 18
# The compiled matches take ranges of at least this many segments to a core (a thread costs
# more than a few segments' work).
COMPILED_SPAN_SEGMENTS = 256
_KEY_BASE = np.int64(1 << 32)  # bigger than any token id: (prefix + 1) * base + token is unique


@dataclass(frozen=True, eq=False)
class _SegmentCounts:
    """Counts of (segment, n-gram id) pairs, as sorted keys segment * n_ids + id."""

    keys: np.ndarray
    counts: np.ndarray
    n_ids: np.int64  # the size of the order's dictionary


@dataclass(frozen=True, eq=False)
class _ReferenceCounts:
    """One reference's counts of one order, segment by segment: segment s has the n-gram ids
    ids[offsets[s]:offsets[s + 1]] (sorted) with their counts. An int32 id and a small count
    take 5 bytes a pair, where a (segment, id) int64 key and its count took 9."""

    ids: np.ndarray  # int32
    counts: np.ndarray  # uint8, or int32 where a segment repeats an n-gram 256 times
    offsets: np.ndarray  # int64, n_segments + 1
    n_ids: np.int64

    @staticmethod
    def of(blocks: Sequence[_SegmentCounts], n_segments: int) -> _ReferenceCounts:
        """The table of consecutive blocks' counts (keys segment * n_ids + id)."""
        n_ids = blocks[0].n_ids
        ids, per_segment = [], np.zeros(n_segments, np.int64)
        for block in blocks:
            segment, ngram = np.divmod(block.keys, n_ids)
            ids.append(ngram.astype(np.int32))
            per_segment += np.bincount(segment, minlength=n_segments)
        counts = np.concatenate([block.counts for block in blocks])
        return _ReferenceCounts(np.concatenate(ids), counts, offsets_of(per_segment), n_ids)

    def block(self, first: int, last: int) -> _SegmentCounts:
        """Segments [first, last) as sorted keys segment * n_ids + id (segments keep their
        numbers in the test set)."""
        start, end = self.offsets[first], self.offsets[last]
        per_segment = np.diff(self.offsets[first : last + 1])
        keys = np.repeat(np.arange(first, last, dtype=np.int64) * self.n_ids, per_segment)
        keys += self.ids[start:end]
        return _SegmentCounts(keys, self.counts[start:end], self.n_ids)


class EncodedCorpus:
    """A test set tokenized once under one set of options, with cached match statistics."""

    def __init__(
        self,
        test_set: TestSet,
        options: Options,
        max_order: int = 5,
        corpus_counts: CorpusCounts | None = None,
    ) -> None:
        """``corpus_counts``: where this test set is a part of a larger corpus (a shard), the
        reference n-gram counts of the whole corpus, from which NIST's weights come."""
        self.corpus_counts = corpus_counts
        self.test_set = test_set  # the raw text, for metrics that do their own preprocessing (chrF)
        self.options = options
        self.max_order = max_order
        self.n_segments = test_set.n_segments
        self.vocabulary = Vocabulary(stemmer(options.stem, options.stem_language))
        self.references = [
            self.vocabulary.encode_texts(ref.segments, options) for ref in test_set.references
        ]
        self.systems = SystemStreams(
            test_set.systems, lambda texts: self.vocabulary.encode_texts(texts, options)
        )
        self._cache: dict[tuple, object] = {}

    def with_references(self, indices: Sequence[int]) -> EncodedCorpus:
        """The same corpus with only the references at ``indices``, without tokenizing again:
        the reliability experiment scores every combination of a test set's references."""
        reduced = object.__new__(EncodedCorpus)
        reduced.test_set = replace(
            self.test_set, references=tuple(self.test_set.references[i] for i in indices)
        )
        reduced.options = self.options
        reduced.corpus_counts = self.corpus_counts
        reduced.max_order = self.max_order
        reduced.n_segments = self.n_segments
        reduced.vocabulary = self.vocabulary
        reduced.references = [self.references[i] for i in indices]
        reduced.systems = self.systems
        reduced._cache = {}
        return reduced

    def release(self, system: str) -> None:
        """Drop what was computed for ``system`` (its tokens, n-grams and matches, the largest
        tables here): the scorer calls this once the system's statistics are out. Asked again,
        they are computed again."""
        for key in [key for key in self._cache if key[1:2] == (system,)]:
            del self._cache[key]
        self.systems.drop(system)
        return_freed_memory()

    # ------------------------------------------------------------------ lengths
    @property
    def n_references(self) -> int:
        return len(self.references)

    def hypothesis_lengths(self, system: str) -> np.ndarray:
        return self.systems[system].lengths

    @cached_property
    def reference_lengths(self) -> np.ndarray:
        """(n_references, n_segments) token counts."""
        return np.stack([ref.lengths for ref in self.references])

    @cached_property
    def concatenated_references(self) -> TokenStream:
        """Per segment, R_1 + [barrier] + R_2 + [barrier] + ... + R_k + [barrier] (GTM's Rcat)."""
        widths = self.reference_lengths + 1  # each reference and its barrier
        offsets = np.zeros(self.n_segments + 1, np.int64)
        np.cumsum(widths.sum(axis=0), out=offsets[1:])
        ids = np.full(offsets[-1], BARRIER, np.int32)
        start = offsets[:-1].copy()
        for ref, width in zip(self.references, widths):
            within = np.arange(len(ref.ids)) - np.repeat(ref.offsets[:-1], ref.lengths)
            ids[np.repeat(start, ref.lengths) + within] = ref.ids
            start += width
        return TokenStream(ids, offsets)

    # ------------------------------------------------------------------ the reference index
    @cached_property
    def _reference_index(self) -> _ReferenceIndex:
        """Per order: the dictionary of reference n-grams, the largest count of each n-gram over
        the references per segment (BLEU's and NIST's clipping), and the count of each n-gram
        over all references (NIST's weights); each reference's own unigram counts (P, R, F).

        Like a system's matches, each order is computed a block of segments at a time, so its
        per-token arrays grow with the block, not with the test set: first each block's distinct
        n-grams (the dictionary is their union), then each block's counts. Only the prefix ids of
        the last order stay for the whole reference, to key the next."""
        index = _ReferenceIndex([], [], [], [])
        pieces = [  # (reference, first segment, last segment + 1)
            (ref, first, last)
            for ref in range(self.n_references)
            for first, last in self.references[ref].blocks(MATCH_BLOCK_TOKENS)
        ]
        prefixes: list[np.ndarray | None] = [None] * self.n_references
        for n in range(1, self.max_order + 1):
            uniques, inverses = [], []  # per piece: its distinct keys, and which one each n-gram is
            for ref, first, last in pieces:
                keys = self._reference_keys(ref, first, last, n, prefixes[ref])
                unique, inverse = np.unique(keys, return_inverse=True)
                uniques.append(unique)
                inverses.append(inverse.astype(np.int32))
            dictionary = _distinct(np.concatenate(uniques))
            totals = np.zeros(len(dictionary), np.int64)
            counts: list[list[_SegmentCounts]] = [[] for _ in self.references]
            by_token = [np.full(len(ref.ids), -1, np.int32) for ref in self.references]
            for (ref, first, last), unique, inverse in zip(pieces, uniques, inverses, strict=True):
                grams = self.references[ref].block(first, last).grams(n)
                gid = np.searchsorted(dictionary, unique)[inverse]
                segment = grams.segment + np.int64(first)
                counts[ref].append(_segment_counts(segment, gid, len(dictionary)))
                totals += np.bincount(gid, minlength=len(dictionary))
                by_token[ref][self.references[ref].offsets[first] + grams.starts] = gid
            tables = [_ReferenceCounts.of(part, self.n_segments) for part in counts]
            index.dictionaries.append(dictionary)
            index.max_counts.append(self._largest_counts(tables))
            index.totals.append(totals)
            if n == 1:
                index.unigram_counts.extend(tables)
            prefixes = by_token
        return_freed_memory()
        return index

    def _largest_counts(self, tables: Sequence[_ReferenceCounts]) -> _ReferenceCounts:
        """Per segment and n-gram, the largest count over the references' ``tables``, made once
        for every system (a block of segments at a time, so memory grows with the block)."""
        if len(tables) == 1:
            return tables[0]
        blocks = [
            _max_counts([table.block(first, last) for table in tables])
            for first, last in self.references[0].blocks(MATCH_BLOCK_TOKENS)
        ]
        return _ReferenceCounts.of(blocks, self.n_segments)

    def _reference_keys(
        self, ref: int, first: int, last: int, n: int, prefix: np.ndarray | None
    ) -> np.ndarray:
        """The keys of the n-grams of reference ``ref`` in segments [first, last)."""
        stream = self.references[ref].block(first, last)
        if prefix is not None:  # the (n-1)-gram ids of the whole reference, by token
            offsets = self.references[ref].offsets
            prefix = prefix[offsets[first] : offsets[last]]
        return _keys(stream, stream.grams(n).starts, n, prefix)

    # ------------------------------------------------------------------ a system's matches
    def _matches(self, system: str) -> _Matches:
        """All of a system's match statistics in one pass over its n-gram orders; each order's
        n-gram arrays are dropped once its per-segment sums are out."""
        key = ("matches", system)
        if key not in self._cache:
            self._cache[key] = self._compute_matches(self.systems[system])
        return self._cache[key]

    def _compute_matches(self, stream: TokenStream) -> _Matches:
        """The system's matches: compiled, ranges of segments on every core; else with numpy, a
        block of segments at a time, so that the per-token arrays of one pass (n-gram keys,
        lookups, counts) grow with the block, not with the test set."""
        if compiled is not None:
            return self._compiled_matches(stream)
        parts = [
            self._block_matches(stream.block(first, last), first)
            for first, last in stream.blocks(MATCH_BLOCK_TOKENS)
        ]
        if len(parts) == 1:
            return parts[0]
        orders = range(self.max_order)
        return _Matches(
            [np.concatenate([p.clipped[k] for p in parts]) for k in orders],
            [np.concatenate([p.information[k] for p in parts]) for k in orders],
            np.concatenate([p.unigrams_per_reference for p in parts], axis=1),
        )

    def _compiled_matches(self, stream: TokenStream) -> _Matches:
        """``_block_matches``'s numbers from ``_ngram_matches.pyx``, segment by segment."""
        index = self._compiled_index
        shape = (self.max_order, self.n_segments)
        clipped, information = np.zeros(shape), np.zeros(shape)
        unigrams = np.zeros((self.n_references, self.n_segments))
        ids, offsets = np.ascontiguousarray(stream.ids), np.ascontiguousarray(stream.offsets)

        def fill(span: tuple[int, int]) -> None:
            compiled.segment_matches(ids, offsets, *span, *index, clipped, information, unigrams)

        map_on_cores(fill, spans(self.n_segments, fewest=COMPILED_SPAN_SEGMENTS))
        return _Matches(list(clipped), list(information), unigrams)

    @cached_property
    def _compiled_index(self) -> _CompiledIndex:
        """The reference index as ``_ngram_matches.segment_matches`` reads it."""
        index = self._reference_index

        def table(counts: _ReferenceCounts) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
            return counts.ids, counts.counts, counts.offsets  # the arrays themselves, no copy

        orders = range(self.max_order)
        salt = secrets.randbits(64)
        dictionaries = [np.asarray(index.dictionaries[k], np.int64) for k in orders]  # no copy
        compiled_index = _CompiledIndex(
            [compiled.hash_table(dictionaries[k], salt) for k in orders],
            salt,
            [table(index.max_counts[k]) for k in orders],
            [self.nist_weights(k + 1) for k in orders],  # kept in the cache from here on
            [table(counts) for counts in index.unigram_counts],
        )
        # The hash tables hold the dictionaries' keys and NIST's weights came from the totals:
        # with the compiled matches nothing reads either again (numpy's pass would), and on a
        # test set of distinct sentences they are among the largest arrays here (16 bytes for
        # each reference n-gram).
        index.dictionaries.clear()
        index.totals.clear()
        return compiled_index

    def _block_matches(self, stream: TokenStream, first: int) -> _Matches:
        """Matches of the segments first, first + 1, ... that ``stream`` holds."""
        index = self._reference_index
        n_segments = len(stream.offsets) - 1
        clipped, information = [], []
        prefix: np.ndarray | None = None  # gid of the (n-1)-gram at each token
        for n in range(1, self.max_order + 1):
            dictionary = index.dictionaries[n - 1]
            grams = stream.grams(n)
            if prefix is None:
                gid = _lookup(dictionary, stream.ids[grams.starts], keys_sorted=False)
            else:
                gid = np.full(len(grams.starts), -1, np.int32)
                known = prefix[grams.starts] >= 0
                keys = _keys(stream, grams.starts[known], n, prefix)
                gid[known] = _lookup(dictionary, keys, keys_sorted=False)
            counts = _segment_counts(grams.segment + np.int64(first), gid, len(dictionary))
            if n == 1:  # P, R, F1 and Fmean match each reference on its own
                per_reference = [
                    _clip(counts, table.block(first, first + n_segments))
                    for table in index.unigram_counts
                ]
                unigrams = np.stack(
                    [_per_segment(m, seg - first, n_segments) for m, seg, _ in per_reference]
                )
            largest = index.max_counts[n - 1].block(first, first + n_segments)
            matches, segment, ngram = _clip(counts, largest)
            segment -= first
            clipped.append(_per_segment(matches, segment, n_segments))
            weights = self.nist_weights(n)[ngram]
            information.append(_per_segment(matches * weights, segment, n_segments))
            prefix = _by_token(len(stream.ids), grams.starts, gid)
        return _Matches(clipped, information, unigrams)

    def clipped_matches(self, system: str, n: int) -> np.ndarray:
        """Per segment, n-gram matches clipped by the max count over references (BLEU, NIST)."""
        return self._matches(system).clipped[n - 1]

    def nist_information(self, system: str, n: int) -> np.ndarray:
        """Per segment, the sum of information weights of the clipped n-gram matches."""
        return self._matches(system).information[n - 1]

    def unigram_matches_per_reference(self, system: str) -> np.ndarray:
        """(n_references, n_segments): unigram matches against each reference on its own.

        This is the size of the maximum one-to-one matching of identical tokens (or stems):
        the sum over word types of min(count in hypothesis, count in that reference).
        """
        return self._matches(system).unigrams_per_reference

    # ------------------------------------------------------------------ NIST weights
    def nist_weights(self, n: int) -> np.ndarray:
        """Information weight of every reference n-gram of order n, as mteval-v13a computes it.

        info(w1..wn) = log2(count(w1..wn-1) / count(w1..wn)) over all reference segments; for
        unigrams the numerator is the total number of reference words. mteval-v13a's quirk is kept:
        Perl reads the prefix string "0" as false, so a bigram whose first token is "0" also
        takes the total number of reference words as its numerator.
        """
        key = ("nist-weights", n)
        if key not in self._cache:
            index = self._reference_index
            totals, total_words = self._counted_references()
            counts = totals[n - 1].astype(np.float64)
            if n == 1:
                numerator = np.full(len(counts), total_words)
            else:
                prefix = index.dictionaries[n - 1] // _KEY_BASE - 1
                numerator = totals[n - 2][prefix].astype(np.float64)
                if n == 2:
                    zero = self.vocabulary.id_of("0")
                    if zero is not None:
                        prefix_token = index.dictionaries[0][prefix]
                        numerator = np.where(prefix_token == zero, total_words, numerator)
            # mteval-v13a.pl's -log(ratio) / log(2), with the C library's log as Perl's
            self._cache[key] = -libm.log(counts / numerator) / libm.log(2.0)
        return self._cache[key]

    def _counted_references(self) -> tuple[list[np.ndarray], float]:
        """Per order the count of each dictionary n-gram, and the number of reference words:
        of this test set, or of the whole corpus it is part of (``corpus_counts``)."""
        if self.corpus_counts is None:
            return self._reference_index.totals, float(self.reference_lengths.sum())
        key = ("corpus-totals",)
        if key not in self._cache:
            self._cache[key] = self.corpus_counts.totals_for(self)
        return self._cache[key], float(self.corpus_counts.total_words)

    def reference_ngrams(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per order: the reference dictionary's keys and each one's count over the references."""
        index = self._reference_index
        return list(zip(index.dictionaries, index.totals, strict=True))

    def reference_ngram_parts(self) -> list[tuple[np.ndarray | None, np.ndarray]]:
        """Per order, what each reference n-gram is made of: the index of its (n-1)-gram prefix
        in the previous order's dictionary (None for unigrams) and its last token's id."""
        parts: list[tuple[np.ndarray | None, np.ndarray]] = []
        for n, keys in enumerate(self._reference_index.dictionaries, start=1):
            if n == 1:
                parts.append((None, keys))
            else:
                parts.append((keys // _KEY_BASE - 1, keys % _KEY_BASE))
        return parts


class CorpusCounts(Protocol):
    """The reference n-gram counts of a whole corpus, for a part of it (``shards.nist_counts``)."""

    total_words: int

    def totals_for(self, corpus: EncodedCorpus) -> list[np.ndarray]:
        """Per order, the corpus-wide count of each n-gram of ``corpus``'s dictionary."""
        ...


@dataclass(frozen=True, eq=False)
class _ReferenceIndex:
    """Per order (index n - 1): sorted n-gram keys, the references' largest counts per segment,
    total counts; and each reference's unigram counts per segment."""

    dictionaries: list[np.ndarray]
    max_counts: list[_ReferenceCounts]  # the one reference's own table where there is one
    totals: list[np.ndarray]  # the count of each dictionary n-gram over all references
    unigram_counts: list[_ReferenceCounts]  # one per reference


class _CompiledIndex(NamedTuple):
    """The arguments of ``_ngram_matches.segment_matches`` that describe the references."""

    dictionaries: list[tuple[np.ndarray, np.ndarray]]  # per order: hash table slots (keys, ids)
    salt: int  # of those hash tables, drawn per corpus
    largest: list[tuple[np.ndarray, ...]]  # per order: the largest counts (ids, counts, offsets)
    weights: list[np.ndarray]  # per order: NIST's weight of each dictionary n-gram
    unigram_tables: list[tuple[np.ndarray, ...]]  # per reference: its unigram counts


@dataclass(frozen=True, eq=False)
class _Matches:
    """One system's per-segment match statistics (what its metrics need, all of it small)."""

    clipped: list[np.ndarray]  # per order: matches clipped by the references' max counts
    information: list[np.ndarray]  # per order: the NIST information of those matches
    unigrams_per_reference: np.ndarray  # (n_references, n_segments)


def _keys(stream: TokenStream, starts: np.ndarray, n: int, prefix: np.ndarray | None) -> np.ndarray:
    """An n-gram's key: its last token's id, keyed by its (n-1)-gram prefix's id from order 2."""
    last = stream.ids[starts + n - 1]
    if prefix is None:
        return last
    return (prefix[starts] + 1) * _KEY_BASE + last


def _distinct(keys: np.ndarray) -> np.ndarray:
    """``np.unique(keys)``, by sorting: numpy 2's ``unique`` of integers hashes instead, which
    took 77 ms for 112,500 int64 keys where a sort takes 3 ms (numpy 2.4; on WMT21 en-de its five
    calls here took 0.12 s)."""
    keys = np.sort(keys)
    new = np.ones(len(keys), bool)
    new[1:] = keys[1:] != keys[:-1]
    return keys[new]


def _by_token(n_tokens: int, starts: np.ndarray, gid: np.ndarray) -> np.ndarray:
    """The id of the n-gram starting at each token, -1 where none starts (or it is unknown)."""
    by_token = np.full(n_tokens, -1, np.int32)  # dictionaries stay far below 2^31 n-grams
    by_token[starts] = gid
    return by_token


def _lookup(sorted_keys: np.ndarray, keys: np.ndarray, keys_sorted: bool = True) -> np.ndarray:
    """Index of each key in sorted_keys, -1 where absent. Keys not in order (``keys_sorted``
    False) are looked up in order: numpy's binary search starts each key where the last one
    ended, which takes a hypothesis's n-grams in about half the time even with the sort."""
    if len(sorted_keys) == 0:
        return np.full(len(keys), -1, np.int64)
    if keys_sorted:
        found = np.searchsorted(sorted_keys, keys)
    else:
        order = np.argsort(keys)
        found = np.empty(len(keys), np.int64)
        found[order] = np.searchsorted(sorted_keys, keys[order])
    index = np.minimum(found, len(sorted_keys) - 1)
    return np.where(sorted_keys[index] == keys, index, -1)


def _segment_counts(segment: np.ndarray, gid: np.ndarray, n_ids: int) -> _SegmentCounts:
    """How often each known n-gram (gid >= 0) occurs in each segment."""
    found = gid >= 0
    keys, counts = np.unique(segment[found] * np.int64(n_ids) + gid[found], return_counts=True)
    # nearly every count is small: one byte each, unless a segment repeats an n-gram 256 times
    small = len(counts) == 0 or counts.max() <= np.iinfo(np.uint8).max
    return _SegmentCounts(keys, counts.astype(np.uint8 if small else np.int32), np.int64(n_ids))


def _max_counts(references: Sequence[_SegmentCounts]) -> _SegmentCounts:
    """Per segment and n-gram, the largest count over the references (BLEU's clipping)."""
    if len(references) == 1:
        return references[0]
    keys = np.concatenate([r.keys for r in references])
    counts = np.concatenate([r.counts for r in references]).astype(np.int32)  # negated below
    order = np.lexsort((-counts, keys))  # by key, largest count first
    keys, counts = keys[order], counts[order]
    first_of_key = np.ones(len(keys), bool)
    first_of_key[1:] = keys[1:] != keys[:-1]
    counts = counts[first_of_key]
    small = len(counts) == 0 or counts.max() <= np.iinfo(np.uint8).max  # as _segment_counts
    return _SegmentCounts(
        keys[first_of_key], counts.astype(np.uint8 if small else np.int32), references[0].n_ids
    )


def _per_segment(values: np.ndarray, segment: np.ndarray, n_segments: int) -> np.ndarray:
    """Per segment, the sum of ``values`` (float64, also where there are none: numpy's bincount
    then gives int64 zeros)."""
    return np.bincount(segment, weights=values, minlength=n_segments).astype(np.float64, copy=False)


def _clip(
    hypothesis: _SegmentCounts, reference: _SegmentCounts
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each (segment, n-gram) of ``hypothesis``: its count clipped by ``reference``'s,
    its segment and its n-gram's id (the keys are segment * n_ids + id)."""
    found = _lookup(reference.keys, hypothesis.keys)
    ref_counts = np.zeros(len(found), np.int32)
    ref_counts[found >= 0] = reference.counts[found[found >= 0]]
    segment, ngram = np.divmod(hypothesis.keys, hypothesis.n_ids)
    return np.minimum(hypothesis.counts, ref_counts), segment, ngram
