"""The test set as integer arrays, and clipped n-gram matches computed with numpy.

Every lexical metric needs the same few things per segment: token counts, n-gram matches clipped
by the references (BLEU, NIST), unigram matches against each reference on its own (precision,
recall, Fmean) and NIST's information weights. :class:`EncodedCorpus` tokenizes every text once,
turns tokens into integer ids and computes those arrays without a Python loop over segments.

How n-grams get ids: the n-grams that occur in the references form a dictionary per order. An
n-gram is keyed by (id of its (n-1)-gram prefix, id of its last token); a hypothesis n-gram whose
prefix is not in the references cannot be in them either, so it gets id -1 and never matches.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from mteval_core.config import Options
from mteval_core.memory import return_freed_memory
from mteval_core.testset import TestSet, TextColumn
from mteval_core.text import stemmer, token_ids, token_table, tokenize

BARRIER = -1  # GTM's reference barrier in a token stream: real token ids are >= 0
# A system's matches are computed this many tokens at a time (whole segments): the pass's
# per-token arrays take about 80 bytes a token, so a block needs about 20 MB at most.
MATCH_BLOCK_TOKENS = 1 << 18
_KEY_BASE = np.int64(1 << 32)  # bigger than any token id: (prefix + 1) * base + token is unique


class Vocabulary:
    """Token string -> integer id; with stemming, all forms of a stem share one id."""

    def __init__(self, stem: Callable[[str], str] | None = None) -> None:
        self._stem = stem
        self._id_of_form: dict[str, int] = {}
        self._id_of_word: dict[str, int] = {}
        self.words: list[str] = []  # id -> the (stemmed) word
        self._compiled_table = token_table(self._add_form)

    def encode_texts(self, texts: Sequence[str], options: Options) -> TokenStream:
        """Tokenize and encode in one pass where the compiled tokenizer is there."""
        if self._compiled_table is None:
            return self.encode(tokenize(texts, options))
        ids, lengths = token_ids(texts, options, self._compiled_table)
        return TokenStream(ids, _offsets(lengths))

    def encode(self, token_lists: Sequence[Sequence[str]]) -> TokenStream:
        flat = [token for tokens in token_lists for token in tokens]
        # First-seen order, not set order: ids (and so the order of every float sum over them)
        # must not depend on PYTHONHASHSEED.
        for form in dict.fromkeys(form for form in flat if form not in self._id_of_form):
            self._add_form(form)
        ids = np.fromiter(map(self._id_of_form.__getitem__, flat), np.int32, len(flat))
        return TokenStream(ids, _offsets(np.fromiter(map(len, token_lists), np.int64)))

    def _add_form(self, form: str) -> int:
        """The id of a form seen for the first time: its stem's id, new if the stem is new."""
        found = self._id_of_form.get(form)
        if found is not None:
            return found
        word = self._stem(form) if self._stem else form
        if word not in self._id_of_word:
            self._id_of_word[word] = len(self.words)
            self.words.append(word)
        self._id_of_form[form] = self._id_of_word[word]
        return self._id_of_form[form]

    def id_of(self, word: str) -> int | None:
        return self._id_of_word.get(word)


def _offsets(lengths: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


@dataclass(frozen=True, eq=False)
class TokenStream:
    """All tokens of one text column end to end, with segment boundaries."""

    ids: np.ndarray  # int32 token ids (half of int64's memory; GTM's loops copy a block to int64)
    offsets: np.ndarray  # int64, n_segments + 1; segment i is ids[offsets[i]:offsets[i+1]]

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def blocks(self, max_tokens: int) -> list[tuple[int, int]]:
        """Consecutive segment ranges [first, last) of at most ``max_tokens`` tokens each (or one
        segment, if a single segment is longer), covering every segment."""
        n_segments = len(self.offsets) - 1
        ranges, first = [], 0
        while first < n_segments:
            last = int(np.searchsorted(self.offsets, self.offsets[first] + max_tokens, "right"))
            last = min(max(last - 1, first + 1), n_segments)
            ranges.append((first, last))
            first = last
        return ranges or [(0, 0)]

    def block(self, first: int, last: int) -> TokenStream:
        """Segments first .. last - 1 as a stream of their own (views, no copy of the ids)."""
        start = self.offsets[first]
        return TokenStream(
            self.ids[start : self.offsets[last]], self.offsets[first : last + 1] - start
        )

    def grams(self, n: int) -> _Grams:
        """Where the n-grams inside segments start, and their segment. Computed when asked and
        not kept: these per-token arrays are the largest thing a stream has."""
        segment = np.repeat(np.arange(len(self.offsets) - 1, dtype=np.int32), self.lengths)
        index = np.int32 if len(self.ids) < 2**31 else np.int64
        ends = np.repeat((self.offsets[1:] - n).astype(index), self.lengths)  # last start
        starts = np.flatnonzero(np.arange(len(self.ids), dtype=index) <= ends)
        return _Grams(starts, segment[starts])


@dataclass(frozen=True, eq=False)
class _Grams:
    """The n-grams of one order in one stream: where they start and their segment."""

    starts: np.ndarray
    segment: np.ndarray


@dataclass(frozen=True, eq=False)
class _SegmentCounts:
    """Counts of (segment, n-gram id) pairs, as sorted keys segment * n_ids + id."""

    keys: np.ndarray
    counts: np.ndarray
    n_ids: np.int64  # the size of the order's dictionary


class SystemStreams(Mapping[str, TokenStream]):
    """Each system's tokens, encoded when first asked for and dropped by :meth:`drop`: memory
    holds the system being scored, not all of them.

    Words get their ids in test-set order (references, then systems one by one) whatever order
    systems are asked in, as when everything was encoded at once: ids fix the order of every
    float sum over n-grams, so they must not depend on who asked first.
    """

    def __init__(
        self, columns: Sequence[TextColumn], encode: Callable[[Sequence[str]], TokenStream]
    ) -> None:
        self._columns = {column.name: column for column in columns}
        self._encode = encode
        self._streams: dict[str, TokenStream] = {}
        self._in_vocabulary = 0  # the first this-many systems have given their words ids

    def __getitem__(self, system: str) -> TokenStream:
        if system not in self._streams:
            names = list(self._columns)
            position = names.index(system) if system in self._columns else -1
            if position < 0:
                raise KeyError(system)
            for earlier in names[self._in_vocabulary : position]:  # their words' ids come first
                self._encode(self._columns[earlier].segments)
            self._streams[system] = self._encode(self._columns[system].segments)
            self._in_vocabulary = max(self._in_vocabulary, position + 1)
        return self._streams[system]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def drop(self, system: str) -> None:
        """Forget ``system``'s tokens; asked again, they are encoded again (with the same ids)."""
        self._streams.pop(system, None)


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
        return _ReferenceCounts(np.concatenate(ids), counts, _offsets(per_segment), n_ids)

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

    def __init__(self, test_set: TestSet, options: Options, max_order: int = 5) -> None:
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
        """Per order: the dictionary of reference n-grams, each reference's counts per segment,
        and the count of each n-gram over all references (NIST's weights).

        Like a system's matches, each order is computed a block of segments at a time, so its
        per-token arrays grow with the block, not with the test set: first each block's distinct
        n-grams (the dictionary is their union), then each block's counts. Only the prefix ids of
        the last order stay for the whole reference, to key the next."""
        index = _ReferenceIndex([], [], [])
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
            dictionary = np.unique(np.concatenate(uniques))
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
            index.dictionaries.append(dictionary)
            index.counts.append([_ReferenceCounts.of(part, self.n_segments) for part in counts])
            index.totals.append(totals)
            prefixes = by_token
        return_freed_memory()
        return index

    def _reference_keys(
        self, ref: int, first: int, last: int, n: int, prefix: np.ndarray | None
    ) -> np.ndarray:
        """The keys of the n-grams of reference ``ref`` in segments [first, last)."""
        stream = self.references[ref].block(first, last)
        if prefix is not None:  # the (n-1)-gram ids of the whole reference, by token
            offsets = self.references[ref].offsets
            prefix = prefix[offsets[first] : offsets[last]]
        return _keys(stream, stream.grams(n).starts, n, prefix)

    def _reference_max_counts(self, n: int, first: int, last: int) -> _SegmentCounts:
        """Per segment of [first, last) and n-gram, the largest count over the references
        (BLEU's clipping)."""
        parts = [counts.block(first, last) for counts in self._reference_index.counts[n - 1]]
        if len(parts) == 1:
            return parts[0]
        keys = np.concatenate([p.keys for p in parts])
        counts = np.concatenate([p.counts for p in parts]).astype(np.int32)  # negated below
        order = np.lexsort((-counts, keys))  # by key, largest count first
        keys, counts = keys[order], counts[order]
        first_of_key = np.ones(len(keys), bool)
        first_of_key[1:] = keys[1:] != keys[:-1]
        return _SegmentCounts(keys[first_of_key], counts[first_of_key], parts[0].n_ids)

    # ------------------------------------------------------------------ a system's matches
    def _matches(self, system: str) -> _Matches:
        """All of a system's match statistics in one pass over its n-gram orders; each order's
        n-gram arrays are dropped once its per-segment sums are out."""
        key = ("matches", system)
        if key not in self._cache:
            self._cache[key] = self._compute_matches(self.systems[system])
        return self._cache[key]

    def _compute_matches(self, stream: TokenStream) -> _Matches:
        """The system's matches a block of segments at a time: the per-token arrays of one pass
        (n-gram keys, lookups, counts) then grow with the block, not with the test set."""
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
                gid = _lookup(dictionary, stream.ids[grams.starts])
            else:
                gid = np.full(len(grams.starts), -1, np.int32)
                known = prefix[grams.starts] >= 0
                gid[known] = _lookup(dictionary, _keys(stream, grams.starts[known], n, prefix))
            counts = _segment_counts(grams.segment + np.int64(first), gid, len(dictionary))
            if n == 1:  # P, R, F1 and Fmean match each reference on its own
                per_reference = [
                    _clip(counts, reference.block(first, first + n_segments))
                    for reference in index.counts[0]
                ]
                unigrams = np.stack(
                    [_per_segment(m, seg - first, n_segments) for m, seg, _ in per_reference]
                )
            clipping = self._reference_max_counts(n, first, first + n_segments)
            matches, segment, ngram = _clip(counts, clipping)
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
            total_words = float(self.reference_lengths.sum())
            counts = index.totals[n - 1].astype(np.float64)
            if n == 1:
                numerator = np.full(len(counts), total_words)
            else:
                prefix = index.dictionaries[n - 1] // _KEY_BASE - 1
                numerator = index.totals[n - 2][prefix].astype(np.float64)
                if n == 2:
                    zero = self.vocabulary.id_of("0")
                    if zero is not None:
                        prefix_token = index.dictionaries[0][prefix]
                        numerator = np.where(prefix_token == zero, total_words, numerator)
            self._cache[key] = -np.log(counts / numerator) / np.log(2.0)
        return self._cache[key]


@dataclass(frozen=True, eq=False)
class _ReferenceIndex:
    """Per order (index n - 1): sorted n-gram keys, each reference's counts, total counts."""

    dictionaries: list[np.ndarray]
    counts: list[list[_ReferenceCounts]]
    totals: list[np.ndarray]  # the count of each dictionary n-gram over all references


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


def _by_token(n_tokens: int, starts: np.ndarray, gid: np.ndarray) -> np.ndarray:
    """The id of the n-gram starting at each token, -1 where none starts (or it is unknown)."""
    by_token = np.full(n_tokens, -1, np.int32)  # dictionaries stay far below 2^31 n-grams
    by_token[starts] = gid
    return by_token


def _lookup(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Index of each key in sorted_keys, -1 where absent."""
    if len(sorted_keys) == 0:
        return np.full(len(keys), -1, np.int64)
    index = np.minimum(np.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return np.where(sorted_keys[index] == keys, index, -1)


def _segment_counts(segment: np.ndarray, gid: np.ndarray, n_ids: int) -> _SegmentCounts:
    """How often each known n-gram (gid >= 0) occurs in each segment."""
    found = gid >= 0
    keys, counts = np.unique(segment[found] * np.int64(n_ids) + gid[found], return_counts=True)
    # nearly every count is small: one byte each, unless a segment repeats an n-gram 256 times
    small = len(counts) == 0 or counts.max() <= np.iinfo(np.uint8).max
    return _SegmentCounts(keys, counts.astype(np.uint8 if small else np.int32), np.int64(n_ids))


def _per_segment(values: np.ndarray, segment: np.ndarray, n_segments: int) -> np.ndarray:
    """Per segment, the sum of ``values`` (float64)."""
    return np.bincount(segment, weights=values, minlength=n_segments)


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
