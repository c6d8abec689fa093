"""One pass over the n-grams of every sentence for everything the analyses count with them:
each sentence's BLEU statistics (``compare_mt_bleu``) and each n-gram's matches summed over the
corpus (``ngram_differences``). Both count a hypothesis n-gram as matched min(count in the
hypothesis, count in the reference) times, for n = 1..4, so they share the counting; the
reference's n-grams are counted once for both systems.

Statistics columns: reference length, hypothesis length, matches of n = 1..4, hypothesis n-grams
of n = 1..4, each at least 1 (compare-mt's and NLTK's ``max(1, count)``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

MAX_ORDER = 4
N_STATISTICS = 2 + 2 * MAX_ORDER


@dataclass(frozen=True, eq=False)  # it holds arrays
class NgramMatches:
    statistics: np.ndarray  # (n_sentences, N_STATISTICS) float64, whole numbers
    matched: Counter  # n-gram (tuple of words) -> matches summed over the sentences


def ngrams_of(tokens: Sequence[str], max_order: int = MAX_ORDER) -> Counter:
    """Every n-gram of orders 1..max_order, as tuples of words, with its count."""
    counts = Counter(zip(tokens))
    for n in range(2, max_order + 1):
        counts.update(zip(*(tokens[i:] for i in range(n))))
    return counts


def ngram_matches(
    reference: Sequence[Sequence[str]], hypotheses: Sequence[Sequence[Sequence[str]]]
) -> list[NgramMatches]:
    """For each system (a list of tokenised sentences): its statistics and matched n-grams."""
    rows: list[list[list[int]]] = [[] for _ in hypotheses]
    matched: list[Counter] = [Counter() for _ in hypotheses]
    for i, ref in enumerate(reference):
        in_reference = ngrams_of(ref)
        for s, hypothesis in enumerate(hypotheses):
            hyp = hypothesis[i]
            row = [len(ref), len(hyp)] + [0] * (2 * MAX_ORDER)
            found = matched[s]
            for gram, count in ngrams_of(hyp).items():
                order = len(gram)
                row[1 + MAX_ORDER + order] += count
                hit = in_reference.get(gram)
                if hit:
                    hit = min(count, hit)
                    row[1 + order] += hit
                    found[gram] += hit
            for column in range(2 + MAX_ORDER, N_STATISTICS):  # at least 1 n-gram of each order
                row[column] = max(row[column], 1)
            rows[s].append(row)
    return [
        NgramMatches(np.array(r, dtype=np.float64).reshape(len(r), N_STATISTICS), found)
        for r, found in zip(rows, matched)
    ]
