"""The paraphrase module's matches for many segment pairs at once, with numpy joins.

matchers.match_paraphrases looks up every phrase of a line in the table one at a time (a few
milliseconds a pair: most of an English run's time). Here all pairs go together:

* every phrase of at most `longest` known words of every line is listed with its 64-bit key
  (`paraphrases.extend_hash`, the table's `phrase_hash`);
* first loop (a reference phrase's paraphrases found in the hypothesis): once per reference list
  (it is the same for every system), each reference phrase that is a source gives one entry per
  paraphrase of it, keyed by (pair, paraphrase key); each hypothesis phrase is looked up there;
* second loop (a hypothesis phrase's paraphrases found in the reference): each hypothesis phrase
  that is a source gives one entry per paraphrase, looked up among the reference phrases keyed
  by (pair, phrase key).

A hit is kept only after its words are compared with the table's (pair, length and every word),
so a key collision can never make a match, as in matchers.py.

The matches come out as matchers.match_paraphrases adds them to a stage (first loop by reference
start, phrase length, paraphrase rank in file order, hypothesis start; then second loop by
hypothesis start, phrase length, rank, reference start), as rows for corpus_alignment.

The hits of each pair are counted before they are listed: a pair with more than ``limit``
(METEOR_MAX_MATCHES) hits in either loop is left out (METEOR leaves the segment out), so that one
hostile pair (a word repeated thousands of times on one line, a paraphrase of it on the other)
never lists millions of rows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval_core.metrics.meteor.paraphrases import ParaphraseTable
from mteval_core.settings.limits import METEOR_MAX_MATCHES

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


class _Over:
    """The pairs whose hits pass ``limit`` (``over[pair]``), gathered over the loops."""

    def __init__(self, n_pairs: int, limit: int) -> None:
        self.limit = limit
        self.over = np.zeros(n_pairs, dtype=bool)

    def within(self, lines: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """``counts`` (the hits of keys of the pairs ``lines``) with those of every pair over the
        limit made 0, so that they are never listed."""
        per_pair = np.bincount(lines, weights=counts, minlength=len(self.over))
        self.over |= per_pair > self.limit
        return np.where(self.over[lines], 0, counts)


def _ranges(
    sorted_keys: np.ndarray,
    keys: np.ndarray,
    lines: np.ndarray | None = None,
    pairs: _Over | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(index into keys, index into sorted_keys) of every equal pair; with ``pairs``, none of
    the keys (of the pairs ``lines``) of a pair whose hits pass the limit."""
    low = np.searchsorted(sorted_keys, keys, side="left")
    high = np.searchsorted(sorted_keys, keys, side="right")
    counts = high - low
    if pairs is not None:
        counts = pairs.within(lines, counts)
    which = np.repeat(np.arange(len(keys)), counts)
    within = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return which, np.repeat(low, counts) + within


def _mixed(lines: np.ndarray, keys: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return keys ^ (lines.astype(np.uint64) * _PAIR_MIX)


class TableIndex:
    """The table's source lookup the joins need."""

    def __init__(self, table: ParaphraseTable) -> None:
        self.table = table

    def sources(self, phrases: _Phrases) -> tuple[np.ndarray, np.ndarray]:
        """(phrase, source group) of every phrase of the lines that is a source of the table."""
        table = self.table
        which, group = _ranges(table.source_hash, phrases.key)
        same = phrases.equal_to(which, table, table.source_phrase[group].astype(np.int64))
        return which[same], group[same]

    def paraphrases(self, phrases: _Phrases) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(phrase, paraphrase id, rank in file order) for every paraphrase of every phrase of
        the lines that is a source."""
        table = self.table
        which, group = self.sources(phrases)
        counts = table.source_count[group].astype(np.int64)
        rank = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        targets = table.targets[np.repeat(table.source_start[group], counts) + rank]
        return np.repeat(which, counts), targets.astype(np.int64), rank


class _ReferenceSide:
    """The reference phrases and their paraphrases, each sorted by (pair, key)."""

    def __init__(self, index: TableIndex, phrases: _Phrases) -> None:
        table = index.table
        self.phrases = phrases
        # first loop: reference phrase -> each of its paraphrases, keyed by the paraphrase's key
        phrase, target, rank = index.paraphrases(phrases)
        keys = _mixed(phrases.line[phrase], table.phrase_hash[target])
        order = np.argsort(keys, kind="stable")
        self.forward_keys = keys[order]
        self.forward_phrase = phrase[order]
        self.forward_target = target[order]
        self.forward_rank = rank[order]
        # second loop: the reference phrases themselves, where hypothesis paraphrases are sought
        keys = _mixed(phrases.line, phrases.key)
        self.phrase_order = np.argsort(keys, kind="stable")
        self.phrase_keys = keys[self.phrase_order]


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
    """The paraphrase matcher over many pairs; the reference sides of the last few reference
    lists kept (each is used again for every system)."""

    KEPT_REFERENCES = 8

    def __init__(self, table: ParaphraseTable) -> None:
        self.index = TableIndex(table)
        self._references: list[tuple[Sequence[list[str]], _ReferenceSide]] = []

    def _reference_side(self, references: Sequence[list[str]]) -> _ReferenceSide:
        for kept, side in self._references:
            if kept is references:
                return side
        ids, offsets = _word_ids(self.index.table, references)
        side = _ReferenceSide(self.index, _Phrases(ids, offsets, self.index.table.longest_phrase))
        self._references = [*self._references[-(self.KEPT_REFERENCES - 1) :], (references, side)]
        return side

    def matches(
        self,
        hypotheses: Sequence[list[str]],
        references: Sequence[list[str]],
        module: int,
        limit: int = METEOR_MAX_MATCHES,
    ) -> tuple[np.ndarray, np.ndarray]:
        """(n, 6) rows: pair, reference start, length, hypothesis start, length, module; by pair,
        then in the order match_paraphrases adds them; and whether each pair has more than
        ``limit`` hits in a loop (its rows are then left out)."""
        table = self.index.table
        side = self._reference_side(references)
        ids, offsets = _word_ids(table, hypotheses)
        hyp = _Phrases(ids, offsets, table.longest_phrase)
        pairs = _Over(len(hypotheses), limit)
        both = np.concatenate(
            [self._first_loop(hyp, side, pairs), self._second_loop(hyp, side, pairs)]
        )
        both = both[~pairs.over[both[:, 0]]]  # over in the second loop: its first loop's go too
        both = both[np.lexsort(both.T[::-1])]  # pair, loop, then the loop's own order
        is_first = both[:, 1] == 0
        rows = np.empty((len(both), 6), dtype=np.int64)
        rows[:, 0] = both[:, 0]
        rows[:, 1] = np.where(is_first, both[:, 2], both[:, 5])  # reference start
        rows[:, 2] = np.where(is_first, both[:, 3], both[:, 6])  # reference length
        rows[:, 3] = np.where(is_first, both[:, 5], both[:, 2])  # hypothesis start
        rows[:, 4] = np.where(is_first, both[:, 6], both[:, 3])  # hypothesis length
        rows[:, 5] = module
        return rows, pairs.over

    def _first_loop(self, hyp: _Phrases, side: _ReferenceSide, pairs: _Over) -> np.ndarray:
        """A paraphrase of a reference phrase found in the hypothesis: rows (pair, 0, reference
        start, length, rank, hypothesis start, length)."""
        table, ref = self.index.table, side.phrases
        which, entry = _ranges(side.forward_keys, _mixed(hyp.line, hyp.key), hyp.line, pairs)
        phrase = side.forward_phrase[entry]
        same = (hyp.line[which] == ref.line[phrase]) & hyp.equal_to(
            which, table, side.forward_target[entry]
        )
        which, entry, phrase = which[same], entry[same], phrase[same]
        return np.column_stack(
            [
                hyp.line[which],
                np.zeros(len(which), dtype=np.int64),
                ref.start[phrase],
                ref.length[phrase],
                side.forward_rank[entry],
                hyp.start[which],
                hyp.length[which],
            ]
        ).astype(np.int64)

    def _second_loop(self, hyp: _Phrases, side: _ReferenceSide, pairs: _Over) -> np.ndarray:
        """A paraphrase of a hypothesis phrase found in the reference: rows (pair, 1, hypothesis
        start, length, rank, reference start, length)."""
        table, ref = self.index.table, side.phrases
        phrase, target, rank = self.index.paraphrases(hyp)
        lines = hyp.line[phrase]
        found, place = _ranges(
            side.phrase_keys, _mixed(lines, table.phrase_hash[target]), lines, pairs
        )
        phrase, target, rank = phrase[found], target[found], rank[found]
        in_reference = side.phrase_order[place]
        same = (hyp.line[phrase] == ref.line[in_reference]) & ref.equal_to(
            in_reference, table, target
        )
        phrase, rank, in_reference = phrase[same], rank[same], in_reference[same]
        return np.column_stack(
            [
                hyp.line[phrase],
                np.ones(len(phrase), dtype=np.int64),
                hyp.start[phrase],
                hyp.length[phrase],
                rank,
                ref.start[in_reference],
                ref.length[in_reference],
            ]
        ).astype(np.int64)
