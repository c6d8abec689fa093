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

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np

from mteval_core.config import Options
from mteval_core.testset import TestSet
from mteval_core.text import stemmer, tokenize

BARRIER = -1  # GTM's reference barrier in a token stream: real token ids are >= 0
_KEY_BASE = np.int64(1 << 32)  # bigger than any token id: (prefix + 1) * base + token is unique


class Vocabulary:
    """Token string -> integer id; with stemming, all forms of a stem share one id."""

    def __init__(self, stem: Callable[[str], str] | None = None) -> None:
        self._stem = stem
        self._id_of_form: dict[str, int] = {}
        self._id_of_word: dict[str, int] = {}
        self.words: list[str] = []  # id -> the (stemmed) word

    def encode(self, token_lists: Sequence[Sequence[str]]) -> TokenStream:
        flat = [token for tokens in token_lists for token in tokens]
        # First-seen order, not set order: ids (and so the order of every float sum over them)
        # must not depend on PYTHONHASHSEED.
        new_forms = dict.fromkeys(form for form in flat if form not in self._id_of_form)
        for form in new_forms:
            word = self._stem(form) if self._stem else form
            if word not in self._id_of_word:
                self._id_of_word[word] = len(self.words)
                self.words.append(word)
            self._id_of_form[form] = self._id_of_word[word]
        ids = np.fromiter(map(self._id_of_form.__getitem__, flat), np.int64, len(flat))
        lengths = np.fromiter(map(len, token_lists), np.int64, len(token_lists))
        offsets = np.zeros(len(token_lists) + 1, np.int64)
        np.cumsum(lengths, out=offsets[1:])
        return TokenStream(ids, offsets)

    def id_of(self, word: str) -> int | None:
        return self._id_of_word.get(word)


@dataclass(frozen=True, eq=False)
class TokenStream:
    """All tokens of one text column end to end, with segment boundaries."""

    ids: np.ndarray  # int64 token ids
    offsets: np.ndarray  # int64, n_segments + 1; segment i is ids[offsets[i]:offsets[i+1]]

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    @cached_property
    def segment_of_token(self) -> np.ndarray:
        return np.repeat(np.arange(len(self.offsets) - 1), self.lengths)

    @cached_property
    def segment_end(self) -> np.ndarray:
        """For each token, the index just past the end of its segment."""
        return np.repeat(self.offsets[1:], self.lengths)

    def starts_of(self, n: int) -> np.ndarray:
        """Indices of tokens that start an n-gram inside their segment."""
        index = np.arange(len(self.ids))
        return index[index + n <= self.segment_end]


@dataclass(frozen=True, eq=False)
class _Grams:
    """The n-grams of one order in one stream: where they start, their segment and their id."""

    starts: np.ndarray
    segment: np.ndarray
    gid: np.ndarray  # id in the reference dictionary of this order, -1 when not in it


@dataclass(frozen=True, eq=False)
class _SegmentCounts:
    """Counts of (segment, n-gram id) pairs, as sorted keys segment * n_ids + id."""

    keys: np.ndarray
    counts: np.ndarray


class EncodedCorpus:
    """A test set tokenized once under one set of options, with cached match statistics."""

    def __init__(self, test_set: TestSet, options: Options, max_order: int = 5) -> None:
        self.test_set = test_set  # the raw text, for metrics that do their own preprocessing (chrF)
        self.options = options
        self.max_order = max_order
        self.n_segments = test_set.n_segments
        self.vocabulary = Vocabulary(stemmer(options.stem, options.stem_language))
        self.references = [
            self.vocabulary.encode(tokenize(ref.segments, options)) for ref in test_set.references
        ]
        self.systems = {
            system.name: self.vocabulary.encode(tokenize(system.segments, options))
            for system in test_set.systems
        }
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
        ids = np.full(offsets[-1], BARRIER, np.int64)
        start = offsets[:-1].copy()
        for ref, width in zip(self.references, widths):
            within = np.arange(len(ref.ids)) - np.repeat(ref.offsets[:-1], ref.lengths)
            ids[np.repeat(start, ref.lengths) + within] = ref.ids
            start += width
        return TokenStream(ids, offsets)

    # ------------------------------------------------------------------ dictionaries
    @cached_property
    def _dictionaries(self) -> list[np.ndarray]:
        """Per order: the sorted keys of the reference n-grams (built on first use)."""
        return self._reference_index[0]

    @cached_property
    def _reference_grams(self) -> list[list[_Grams]]:
        """Per order, per reference: the reference n-grams with their ids."""
        return self._reference_index[1]

    @cached_property
    def _reference_index(self) -> tuple[list[np.ndarray], list[list[_Grams]]]:
        dictionaries: list[np.ndarray] = []
        all_grams: list[list[_Grams]] = []
        previous: list[np.ndarray] = []  # per reference: gid of the (n-1)-gram at each token
        for n in range(1, self.max_order + 1):
            per_ref_keys = []
            per_ref_starts = []
            for r, ref in enumerate(self.references):
                starts = ref.starts_of(n)
                per_ref_starts.append(starts)
                per_ref_keys.append(self._keys(ref, starts, n, previous[r] if previous else None))
            dictionary, inverse = np.unique(np.concatenate(per_ref_keys), return_inverse=True)
            dictionaries.append(dictionary)
            grams = []
            cut = np.cumsum([len(k) for k in per_ref_keys])[:-1]
            for ref, starts, gid in zip(self.references, per_ref_starts, np.split(inverse, cut)):
                grams.append(_Grams(starts, ref.segment_of_token[starts], gid))
            all_grams.append(grams)
            previous = [self._gid_by_token(ref, g) for ref, g in zip(self.references, grams)]
        return dictionaries, all_grams

    @staticmethod
    def _keys(
        stream: TokenStream, starts: np.ndarray, n: int, prefix_gid: np.ndarray | None
    ) -> np.ndarray:
        last = stream.ids[starts + n - 1]
        if n == 1:
            return last
        return (prefix_gid[starts] + 1) * _KEY_BASE + last

    @staticmethod
    def _gid_by_token(stream: TokenStream, grams: _Grams) -> np.ndarray:
        by_token = np.full(len(stream.ids), -1, np.int64)
        by_token[grams.starts] = grams.gid
        return by_token

    def _hypothesis_grams(self, system: str, n: int) -> _Grams:
        key = ("grams", system, n)
        if key not in self._cache:
            stream = self.systems[system]
            starts = stream.starts_of(n)
            if n == 1:
                keys = stream.ids[starts]
                gid = self._lookup(self._dictionaries[0], keys)
            else:
                prefix = self._gid_by_token(stream, self._hypothesis_grams(system, n - 1))
                gid = np.full(len(starts), -1, np.int64)
                known = prefix[starts] >= 0
                keys = self._keys(stream, starts[known], n, prefix)
                gid[known] = self._lookup(self._dictionaries[n - 1], keys)
            self._cache[key] = _Grams(starts, stream.segment_of_token[starts], gid)
        return self._cache[key]

    @staticmethod
    def _lookup(sorted_keys: np.ndarray, keys: np.ndarray) -> np.ndarray:
        """Index of each key in sorted_keys, -1 where absent."""
        if len(sorted_keys) == 0:
            return np.full(len(keys), -1, np.int64)
        index = np.searchsorted(sorted_keys, keys)
        index = np.minimum(index, len(sorted_keys) - 1)
        return np.where(sorted_keys[index] == keys, index, -1)

    # ------------------------------------------------------------------ counting
    def _segment_counts(self, grams: _Grams, n: int) -> _SegmentCounts:
        size = np.int64(len(self._dictionaries[n - 1]))
        found = grams.gid >= 0
        keys, counts = np.unique(grams.segment[found] * size + grams.gid[found], return_counts=True)
        return _SegmentCounts(keys, counts)

    def _reference_counts(self, n: int) -> list[_SegmentCounts]:
        key = ("ref-counts", n)
        if key not in self._cache:
            self._cache[key] = [self._segment_counts(g, n) for g in self._reference_grams[n - 1]]
        return self._cache[key]

    def _reference_max_counts(self, n: int) -> _SegmentCounts:
        """Per segment and n-gram, the largest count over the references (BLEU's clipping)."""
        key = ("ref-max", n)
        if key not in self._cache:
            parts = self._reference_counts(n)
            keys = np.concatenate([p.keys for p in parts])
            counts = np.concatenate([p.counts for p in parts])
            order = np.lexsort((-counts, keys))  # by key, largest count first
            keys, counts = keys[order], counts[order]
            first = np.ones(len(keys), bool)
            first[1:] = keys[1:] != keys[:-1]
            self._cache[key] = _SegmentCounts(keys[first], counts[first])
        return self._cache[key]

    def _clip(
        self, hypothesis: _SegmentCounts, reference: _SegmentCounts
    ) -> tuple[np.ndarray, np.ndarray]:
        """min(hypothesis count, reference count) per hypothesis key, and that key."""
        index = self._lookup(reference.keys, hypothesis.keys)
        found = index >= 0
        ref_counts = np.zeros(len(index), np.int64)
        ref_counts[found] = reference.counts[index[found]]
        return np.minimum(hypothesis.counts, ref_counts), hypothesis.keys

    def clipped_matches(self, system: str, n: int) -> np.ndarray:
        """Per segment, n-gram matches clipped by the max count over references (BLEU, NIST)."""
        return self._clipped(system, n)[0]

    def nist_information(self, system: str, n: int) -> np.ndarray:
        """Per segment, the sum of information weights of the clipped n-gram matches."""
        return self._clipped(system, n)[1]

    def _clipped(self, system: str, n: int) -> tuple[np.ndarray, np.ndarray]:
        key = ("clipped", system, n)
        if key not in self._cache:
            hyp = self._segment_counts(self._hypothesis_grams(system, n), n)
            clipped, keys = self._clip(hyp, self._reference_max_counts(n))
            size = np.int64(len(self._dictionaries[n - 1]))
            segment, gid = np.divmod(keys, size)
            matches = np.bincount(segment, weights=clipped, minlength=self.n_segments)
            weights = clipped * self.nist_weights(n)[gid]
            info = np.bincount(segment, weights=weights, minlength=self.n_segments)
            self._cache[key] = (matches, info)
        return self._cache[key]

    def unigram_matches_per_reference(self, system: str) -> np.ndarray:
        """(n_references, n_segments): unigram matches against each reference on its own.

        This is the size of the maximum one-to-one matching of identical tokens (or stems):
        the sum over word types of min(count in hypothesis, count in that reference).
        """
        key = ("unigram-per-ref", system)
        if key not in self._cache:
            hyp = self._segment_counts(self._hypothesis_grams(system, 1), 1)
            rows = []
            for reference in self._reference_counts(1):
                clipped, keys = self._clip(hyp, reference)
                segment = keys // np.int64(len(self._dictionaries[0]))
                rows.append(np.bincount(segment, weights=clipped, minlength=self.n_segments))
            self._cache[key] = np.stack(rows)
        return self._cache[key]

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
            total_words = float(self.reference_lengths.sum())
            counts = self._global_reference_counts(n)
            if n == 1:
                numerator = np.full(len(counts), total_words)
            else:
                prefix = self._dictionaries[n - 1] // _KEY_BASE - 1
                numerator = self._global_reference_counts(n - 1)[prefix]
                if n == 2:
                    zero = self.vocabulary.id_of("0")
                    if zero is not None:
                        prefix_token = self._dictionaries[0][prefix]
                        numerator = np.where(prefix_token == zero, total_words, numerator)
            self._cache[key] = -np.log(counts / numerator) / np.log(2.0)
        return self._cache[key]

    def _global_reference_counts(self, n: int) -> np.ndarray:
        size = len(self._dictionaries[n - 1])
        gids = np.concatenate([g.gid for g in self._reference_grams[n - 1]])
        return np.bincount(gids, minlength=size).astype(np.float64)
