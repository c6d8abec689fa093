"""One pass over the n-grams of every sentence for everything the analyses count with them:
each sentence's BLEU statistics (``compare_mt_bleu``), each n-gram's matches summed over the
corpus (``ngram_differences``) and each sentence's matched words (``word_accuracy``). All count
a hypothesis n-gram as matched min(count in the hypothesis, count in the reference) times, for
n = 1..4, so they share the counting.

The reference is indexed once (``index_reference``) and every system is matched against that
index on its own (``match_system``), so a page comparing many pairs counts each system once.
The counting is vectorised: words become integer ids (the reference's vocabulary; a word the
reference lacks can match nothing), an n-gram is numbered by its (n-1)-gram prefix's number and
its last word, and a sentence's n-grams are counted by sorting (sentence, n-gram) keys. Only
n-grams the reference has get a number, and each n-gram's words are read back only when asked.

Statistics columns: reference length, hypothesis length, matches of n = 1..4, hypothesis n-grams
of n = 1..4 (0 where the sentence is shorter than n: sacreBLEU's count; compare-mt's BLEU counts
at least 1, and ``readings`` makes that its own reading's).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MAX_ORDER = 4
N_STATISTICS = 2 + 2 * MAX_ORDER
MISSING = -1  # the number of an n-gram the reference does not have


def ngrams_of(tokens: Sequence[str], max_order: int = MAX_ORDER) -> Counter:
    """Every n-gram of orders 1..max_order, as tuples of words, with its count."""
    counts = Counter(zip(tokens))
    for n in range(2, max_order + 1):
        counts.update(zip(*(tokens[i:] for i in range(n))))
    return counts


@dataclass(frozen=True, eq=False)  # it holds arrays
class Vocabulary:
    """The distinct words of a corpus in the order first seen; a word's id is its position + 1
    (0: a word the corpus lacks). A dict, not pandas: `mteval compare` starts without importing
    pandas, a third of its time."""

    words: np.ndarray  # (n_words,) object: id - 1 -> word
    position: dict[str, int]  # word -> id - 1

    @classmethod
    def of(cls, flat: np.ndarray) -> Vocabulary:
        position = {word: k for k, word in enumerate(dict.fromkeys(flat.tolist()))}
        words = np.empty(len(position), dtype=object)
        words[:] = list(position)
        return cls(words, position)

    def __len__(self) -> int:
        return len(self.words)

    def __iter__(self):
        return iter(self.words.tolist())

    def ids_of(self, flat: np.ndarray) -> np.ndarray:
        """Each token's id (1-based; 0 for a word not in the vocabulary)."""
        get = self.position.get
        return np.fromiter((get(word, -1) for word in flat.tolist()), np.int64, len(flat)) + 1


@dataclass(frozen=True, eq=False)  # it holds arrays
class TokenArray:
    """A tokenised corpus as flat arrays: each token's word id and sentence."""

    ids: np.ndarray  # (n_tokens,) int64; 0 for a word the reference lacks
    sentence: np.ndarray  # (n_tokens,) int64
    lengths: np.ndarray  # (n_sentences,) int64

    @classmethod
    def of(cls, corpus: Sequence[Sequence[str]], words: Vocabulary) -> TokenArray:
        """``corpus``'s tokens by their id in ``words`` (0: not there)."""
        lengths = np.fromiter((len(s) for s in corpus), dtype=np.int64, count=len(corpus))
        ids = words.ids_of(_flat(corpus))
        return cls(ids, np.repeat(np.arange(len(corpus)), lengths), lengths)

    def starts(self, n: int) -> np.ndarray:
        """The flat positions where an n-gram starts (it ends within its sentence)."""
        offsets = np.concatenate([[0], np.cumsum(self.lengths)])
        position = np.arange(len(self.ids))
        return position[position + n <= offsets[1:][self.sentence]]


@dataclass(frozen=True, eq=False)  # it holds arrays
class OrderIndex:
    """The reference's n-grams of one order: numbered 0..len(codes)-1 by their sorted codes."""

    codes: np.ndarray  # sorted unique codes (prefix number * (V + 1) + last word id)
    first: np.ndarray  # a flat reference position where each n-gram occurs (to read its words)
    keys: np.ndarray  # sorted unique sentence * len(codes) + number
    counts: np.ndarray  # how often each (sentence, n-gram) key occurs in the reference


@dataclass(frozen=True, eq=False)  # it holds arrays
class ReferenceIndex:
    """The reference's words and n-grams, numbered once for matching every system."""

    words: Vocabulary
    tokens: TokenArray
    orders: tuple[OrderIndex, ...]  # n = 1..MAX_ORDER

    def ngram(self, order: int, number: int) -> tuple[str, ...]:
        """The words of the reference's n-gram ``number`` of order ``order``."""
        start = int(self.orders[order - 1].first[number])
        return tuple(self.words.words[i - 1] for i in self.tokens.ids[start : start + order])

    def ngram_texts(self, order: int, numbers: np.ndarray) -> list[str]:
        """The words of many n-grams of one order at once, each joined by spaces."""
        starts = self.orders[order - 1].first[numbers]
        ids = self.tokens.ids[starts[:, None] + np.arange(order)]
        words = self.words.words[ids - 1]
        return [" ".join(row) for row in words.tolist()]


def _flat(corpus: Sequence[Sequence[str]]) -> np.ndarray:
    """Every token of every sentence, in order, as an object array."""
    flat = np.empty(sum(len(s) for s in corpus), dtype=object)
    flat[:] = [w for s in corpus for w in s]
    return flat


def _numbered(previous: np.ndarray, ids: np.ndarray, starts: np.ndarray, n: int, width: int):
    """Codes of the n-grams at ``starts``: the (n-1)-gram's number there and the last word;
    MISSING where the prefix is missing or the last word is unknown."""
    prefix = previous[starts] if n > 1 else np.zeros(len(starts), dtype=np.int64)
    last = ids[starts + n - 1]
    codes = prefix * width + last
    codes[(prefix == MISSING) | (last == 0)] = MISSING
    return codes


def index_reference(reference: Sequence[Sequence[str]]) -> ReferenceIndex:
    """Number the reference's words and its n-grams of orders 1..MAX_ORDER."""
    words = Vocabulary.of(_flat(reference))
    tokens = TokenArray.of(reference, words)
    width = len(words) + 1
    number = np.zeros(len(tokens.ids), dtype=np.int64)  # of the (n-1)-gram at each position
    orders = []
    for n in range(1, MAX_ORDER + 1):
        starts = tokens.starts(n)
        codes = _numbered(number, tokens.ids, starts, n, width)
        unique, first, inverse = np.unique(codes, return_index=True, return_inverse=True)
        numbered = tokens.sentence[starts] * len(unique) + inverse
        keys, counts = np.unique(numbered, return_counts=True)
        orders.append(OrderIndex(unique, starts[first], keys, counts))
        number = np.full(len(tokens.ids), MISSING, dtype=np.int64)
        number[starts] = inverse
    return ReferenceIndex(words, tokens, tuple(orders))


@dataclass(frozen=True, eq=False)  # it holds arrays
class NgramMatches:
    """One system's matches against a reference."""

    statistics: np.ndarray  # (n_sentences, N_STATISTICS) float64, whole numbers
    # per order: matches summed over the sentences of each reference n-gram (by its number)
    totals: tuple[np.ndarray, ...]
    # unigram matches per (sentence, reference word): sentence, word id, clipped count
    word_matches: tuple[np.ndarray, np.ndarray, np.ndarray]
    tokens: TokenArray  # the hypothesis's
    reference: ReferenceIndex

    @property
    def matched(self) -> Counter:
        """n-gram (tuple of words) -> matches summed over the sentences, matched ones only."""
        return Counter(
            {
                self.reference.ngram(order, int(k)): int(total[k])
                for order, total in enumerate(self.totals, start=1)
                for k in np.flatnonzero(total)
            }
        )


def match_system(reference: ReferenceIndex, hypothesis: Sequence[Sequence[str]]) -> NgramMatches:
    """A system's statistics and matched n-grams against the indexed reference."""
    if len(hypothesis) != len(reference.tokens.lengths):
        raise ValueError(
            f"{len(hypothesis)} hypothesis sentences for {len(reference.tokens.lengths)} in "
            "the reference"
        )
    tokens = TokenArray.of(hypothesis, reference.words)
    n_sentences, width = len(tokens.lengths), len(reference.words) + 1
    statistics = np.zeros((n_sentences, N_STATISTICS))
    statistics[:, 0], statistics[:, 1] = reference.tokens.lengths, tokens.lengths
    number = np.zeros(len(tokens.ids), dtype=np.int64)
    totals, word_matches = [], None
    for n, order in enumerate(reference.orders, start=1):
        starts = tokens.starts(n)
        codes = _numbered(number, tokens.ids, starts, n, width)
        found, known = _lookup(order.codes, codes)
        number = np.full(len(tokens.ids), MISSING, dtype=np.int64)
        number[starts[known]] = found[known]
        keys, counts = np.unique(
            tokens.sentence[starts[known]] * len(order.codes) + found[known], return_counts=True
        )
        at, in_sentence = _lookup(order.keys, keys)
        clipped = np.where(in_sentence, np.minimum(counts, order.counts[at]), 0)
        sentence, gram = np.divmod(keys, max(len(order.codes), 1))
        statistics[:, 1 + n] = np.bincount(sentence, weights=clipped, minlength=n_sentences)
        statistics[:, 1 + MAX_ORDER + n] = np.maximum(tokens.lengths - n + 1, 0)
        totals.append(np.bincount(gram, weights=clipped, minlength=len(order.codes)).astype(int))
        if n == 1:  # a unigram's code is its word id
            word_matches = (sentence, order.codes[gram], clipped)
    assert word_matches is not None
    return NgramMatches(statistics, tuple(totals), word_matches, tokens, reference)


def _lookup(table: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each value is in the sorted ``table`` (0 where absent), and whether it is."""
    if len(table) == 0:
        return np.zeros(len(values), dtype=np.int64), np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(table, values), len(table) - 1)
    return at, table[at] == values


def ngram_matches(
    reference: Sequence[Sequence[str]], hypotheses: Sequence[Sequence[Sequence[str]]]
) -> list[NgramMatches]:
    """For each system (a list of tokenised sentences): its statistics and matched n-grams."""
    index = index_reference(reference)
    return [match_system(index, hypothesis) for hypothesis in hypotheses]
