"""The paraphrase module's matches for many segment pairs at once, with numpy joins.

matchers.match_paraphrases looks up every phrase of a line in the table one at a time (a few
milliseconds a pair: most of an English run's time). Here all pairs go together:

* every phrase of at most `longest` known words of every line is listed with its 64-bit key
  (`paraphrases.extend_hash`, the table's `phrase_hash`);
* reference side, once per reference list (it is the same for every system): each reference
  phrase that is a source gives one entry per paraphrase of it, keyed by (pair, paraphrase key)
  (the jar's first loop); each reference phrase that is some source's paraphrase gives one entry
  per such source, keyed by (pair, source key) (the second loop, seen from its target);
* hypothesis side: each hypothesis phrase is looked up among those keys. A hit is kept only after
  its words are compared with the table's (pair, length and every word), so a key collision can
  never make a match, as in matchers.py.

The matches come out as matchers.match_paraphrases adds them to a stage (first loop by reference
start, phrase length, paraphrase rank in file order, hypothesis start; then second loop by
hypothesis start, phrase length, rank, reference start), as rows for corpus_alignment.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from mteval_core.metrics.meteor.paraphrases import ParaphraseTable

_MULTIPLIER = np.uint64(0x100000001B3)  # paraphrases._MULTIPLIER
_PAIR_MIX = np.uint64(0x9E3779B97F4A7C15)  # spreads pair numbers over a key's bits


class _Phrases:
    """Every phrase of at most `longest` known words of a list of lines."""

    def __init__(self, word_ids: np.ndarray, offsets: np.ndarray, longest: int) -> None:
        n = len(word_ids)
        self.word_ids = word_ids
        line_of = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
        line_end = offsets[1:][line_of]
        every = np.arange(n)
        hashes = np.zeros(n, dtype=np.uint64)
        alive = np.ones(n, dtype=bool)
        tokens, lengths, keys = [], [], []
        with np.errstate(over="ignore"):
            for length in range(1, longest + 1):
                last = every + (length - 1)
                alive &= last < line_end
                chosen = np.flatnonzero(alive)
                alive[chosen] = word_ids[last[chosen]] >= 0
                chosen = np.flatnonzero(alive)
                if not len(chosen):
                    break
                added = (word_ids[last[chosen]] + 1).astype(np.uint64)
                hashes[chosen] = hashes[chosen] * _MULTIPLIER + added
                tokens.append(chosen)
                lengths.append(np.full(len(chosen), length, dtype=np.int64))
                keys.append(hashes[chosen].copy())
        self.token = np.concatenate(tokens) if tokens else np.zeros(0, dtype=np.int64)
        self.length = np.concatenate(lengths) if lengths else np.zeros(0, dtype=np.int64)
        self.key = np.concatenate(keys) if keys else np.zeros(0, dtype=np.uint64)
        self.line = line_of[self.token]
        self.start = self.token - offsets[self.line]

    def equal_to(
        self, which: np.ndarray, table: ParaphraseTable, phrases: np.ndarray
    ) -> np.ndarray:
        """Whether phrase `which[k]` of the lines has the words of table phrase `phrases[k]`."""
        first = table.phrase_offsets[phrases]
        same = (table.phrase_offsets[phrases + 1] - first) == self.length[which]
        for position in range(int(self.length[which].max(initial=0))):
            inside = same & (self.length[which] > position)
            k = np.flatnonzero(inside)
            same[k] = (
                self.word_ids[self.token[which[k]] + position]
                == table.phrase_words[first[k] + position]
            )
        return same


def _ranges(sorted_keys: np.ndarray, keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(index into keys, index into sorted_keys) of every equal pair."""
    low = np.searchsorted(sorted_keys, keys, side="left")
    high = np.searchsorted(sorted_keys, keys, side="right")
    counts = high - low
    which = np.repeat(np.arange(len(keys)), counts)
    within = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return which, np.repeat(low, counts) + within


def _mixed(lines: np.ndarray, keys: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return keys ^ (lines.astype(np.uint64) * _PAIR_MIX)


class TableIndex:
    """The table's lookups the joins need, built once per table (about a second for English)."""

    def __init__(self, table: ParaphraseTable) -> None:
        self.table = table

    @cached_property
    def phrase_order(self) -> np.ndarray:
        """Phrase ids by phrase key."""
        return np.argsort(self.table.phrase_hash, kind="stable")

    @cached_property
    def sorted_phrase_hash(self) -> np.ndarray:
        return self.table.phrase_hash[self.phrase_order]

    @cached_property
    def sorted_targets(self) -> np.ndarray:
        return self.table.targets[self.targets_order]

    @cached_property
    def group_of_target(self) -> np.ndarray:
        """For every position of `targets`, the source group (index of `source_hash`) it is in."""
        table = self.table
        counts = table.source_count.astype(np.int64)
        groups = np.repeat(np.arange(len(counts)), counts)
        within = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        owner = np.empty(len(table.targets), dtype=np.int64)
        owner[np.repeat(table.source_start, counts) + within] = groups
        return owner

    @cached_property
    def targets_order(self) -> np.ndarray:
        """Positions of `targets` by the paraphrase's phrase id."""
        return np.argsort(self.table.targets, kind="stable")

    def sources(self, phrases: _Phrases) -> tuple[np.ndarray, np.ndarray]:
        """(phrase, source group) of every phrase of the lines that is a source of the table."""
        table = self.table
        which, group = _ranges(table.source_hash, phrases.key)
        same = phrases.equal_to(which, table, table.source_phrase[group].astype(np.int64))
        return which[same], group[same]

    def phrase_ids(self, phrases: _Phrases) -> tuple[np.ndarray, np.ndarray]:
        """(phrase, table phrase id) of every phrase of the lines that the table holds."""
        table = self.table
        which, place = _ranges(self.sorted_phrase_hash, phrases.key)
        ids = self.phrase_order[place]
        same = phrases.equal_to(which, table, ids)
        return which[same], ids[same]


class _ReferenceSide:
    """The reference entries of both loops, sorted by their (pair, key)."""

    def __init__(self, index: TableIndex, phrases: _Phrases) -> None:
        table = index.table
        # first loop: reference phrase -> each of its paraphrases, keyed by the paraphrase's key
        which, group = index.sources(phrases)
        counts = table.source_count[group].astype(np.int64)
        self.forward_phrase = np.repeat(which, counts)
        rank = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        self.forward_target = table.targets[np.repeat(table.source_start[group], counts) + rank]
        self.forward_rank = rank
        keys = _mixed(phrases.line[self.forward_phrase], table.phrase_hash[self.forward_target])
        order = np.argsort(keys, kind="stable")
        self.forward_keys = keys[order]
        self.forward_phrase = self.forward_phrase[order]
        self.forward_target = self.forward_target[order].astype(np.int64)
        self.forward_rank = self.forward_rank[order]
        # second loop: reference phrase as the paraphrase of a source, keyed by the source's key
        which, ids = index.phrase_ids(phrases)
        sorted_targets = index.sorted_targets
        low = np.searchsorted(sorted_targets, ids, side="left")
        counts = np.searchsorted(sorted_targets, ids, side="right") - low
        within = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        position = index.targets_order[np.repeat(low, counts) + within]
        group = index.group_of_target[position]
        self.backward_phrase = np.repeat(which, counts)
        self.backward_group = group
        self.backward_rank = position - table.source_start[group]
        keys = _mixed(phrases.line[self.backward_phrase], table.source_hash[group])
        order = np.argsort(keys, kind="stable")
        self.backward_keys = keys[order]
        self.backward_phrase = self.backward_phrase[order]
        self.backward_group = self.backward_group[order]
        self.backward_rank = self.backward_rank[order]
        self.phrases = phrases


def _word_ids(table: ParaphraseTable, lines: Sequence[list[str]]) -> tuple[np.ndarray, np.ndarray]:
    vocabulary = table.vocabulary
    lengths = np.fromiter(map(len, lines), np.int64, len(lines))
    offsets = np.zeros(len(lines) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    ids = np.fromiter(
        (vocabulary.get(word, -1) for line in lines for word in line), np.int64, int(offsets[-1])
    )
    return ids, offsets


class CorpusParaphrases:
    """The paraphrase matcher over many pairs; the reference side kept for the last list."""

    def __init__(self, table: ParaphraseTable) -> None:
        self.index = TableIndex(table)
        self._reference: tuple[Sequence[list[str]], _ReferenceSide] | None = None

    def _reference_side(self, references: Sequence[list[str]]) -> _ReferenceSide:
        if self._reference is None or self._reference[0] is not references:
            ids, offsets = _word_ids(self.index.table, references)
            phrases = _Phrases(ids, offsets, self.index.table.longest_phrase)
            self._reference = (references, _ReferenceSide(self.index, phrases))
        return self._reference[1]

    def matches(
        self, hypotheses: Sequence[list[str]], references: Sequence[list[str]], module: int
    ) -> np.ndarray:
        """(n, 6) rows: pair, reference start, length, hypothesis start, length, module; by pair,
        then in the order match_paraphrases adds them."""
        table = self.index.table
        side = self._reference_side(references)
        ids, offsets = _word_ids(table, hypotheses)
        hyp = _Phrases(ids, offsets, table.longest_phrase)
        ref = side.phrases
        hyp_keys = _mixed(hyp.line, hyp.key)
        # first loop: a paraphrase of a reference phrase found in the hypothesis
        which, entry = _ranges(side.forward_keys, hyp_keys)
        phrase = side.forward_phrase[entry]
        same = (hyp.line[which] == ref.line[phrase]) & hyp.equal_to(
            which, table, side.forward_target[entry]
        )
        which, entry, phrase = which[same], entry[same], phrase[same]
        first = np.column_stack(
            [
                hyp.line[which],
                np.zeros(len(which), dtype=np.int64),
                ref.start[phrase],
                ref.length[phrase],
                side.forward_rank[entry],
                hyp.start[which],
                hyp.length[which],
            ]
        )
        # second loop: a paraphrase of a hypothesis phrase found in the reference
        which, entry = _ranges(side.backward_keys, hyp_keys)
        group = side.backward_group[entry]
        phrase = side.backward_phrase[entry]
        same = (hyp.line[which] == ref.line[phrase]) & hyp.equal_to(
            which, table, table.source_phrase[group].astype(np.int64)
        )
        which, entry, phrase = which[same], entry[same], phrase[same]
        second = np.column_stack(
            [
                hyp.line[which],
                np.ones(len(which), dtype=np.int64),
                hyp.start[which],
                hyp.length[which],
                side.backward_rank[entry],
                ref.start[phrase],
                ref.length[phrase],
            ]
        )
        both = np.concatenate([first, second]).astype(np.int64)
        both = both[np.lexsort(both.T[::-1])]  # pair, loop, then the loop's own order
        is_first = both[:, 1] == 0
        rows = np.empty((len(both), 6), dtype=np.int64)
        rows[:, 0] = both[:, 0]
        rows[:, 1] = np.where(is_first, both[:, 2], both[:, 5])  # reference start
        rows[:, 2] = np.where(is_first, both[:, 3], both[:, 6])  # reference length
        rows[:, 3] = np.where(is_first, both[:, 5], both[:, 2])  # hypothesis start
        rows[:, 4] = np.where(is_first, both[:, 6], both[:, 3])  # hypothesis length
        rows[:, 5] = module
        return rows
