"""Salient n-gram differences (compare-mt's default ``--compare_ngrams``): which n-grams one
system gets right (matches in the reference) more often than the other.

For every n-gram of orders 1-4, each system's matches are summed over sentences (in a sentence
an n-gram matches min(count in hypothesis, count in reference) times; ``ngram_matches``). An
n-gram matched by either system gets the salience (m_a + alpha) / (m_a + m_b + 2 alpha),
Laplace smoothing with alpha = 1: near 1 where only system a gets it right, near 0 where only b
does. The 50 highest are where a is better, the 50 lowest where b is.

compare-mt orders n-grams of equal salience as its Python set happens to hold them (string
hashing changes from run to run); here a tie goes to the n-gram with more matches in all, then
to the n-grams in code-point order, so the list is the same on every run. The saliences listed,
and every n-gram above the last one's salience, are compare-mt's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass

import numpy as np

from mteval_core.compare.ngram_matches import NgramMatches

MIN_ORDER = 1
ALPHA = 1.0
REPORT_LENGTH = 50


@dataclass(frozen=True)
class NgramDifference:
    ngram: str  # its words joined by spaces
    order: int
    salience: float
    matches_a: int
    matches_b: int

    def to_dict(self) -> dict:
        return asdict(self)


def salient_differences(
    matches_a: Counter,
    matches_b: Counter,
    alpha: float = ALPHA,
    length: int = REPORT_LENGTH,
) -> tuple[tuple[NgramDifference, ...], tuple[NgramDifference, ...]]:
    """The ``length`` n-grams where a is better (highest salience first) and where b is
    (lowest first), from each system's matched n-grams (tuple of words -> matches)."""
    grams = list(set(matches_a) | set(matches_b))
    a = np.array([matches_a.get(g, 0) for g in grams], dtype=np.int64)
    b = np.array([matches_b.get(g, 0) for g in grams], dtype=np.int64)
    orders = np.array([len(g) for g in grams], dtype=np.int64)

    def names(indices: np.ndarray) -> list[str]:
        return [" ".join(grams[i]) for i in indices.tolist()]

    return _salient(names, orders, a, b, alpha, length)


def salient_between(
    a: NgramMatches, b: NgramMatches, alpha: float = ALPHA, length: int = REPORT_LENGTH
) -> tuple[tuple[NgramDifference, ...], tuple[NgramDifference, ...]]:
    """``salient_differences`` of two systems matched against the same reference index: every
    reference n-gram's matches side by side, and only the words of the n-grams that can make a
    list read back."""
    order = np.concatenate([np.full(len(t), n) for n, t in enumerate(a.totals, start=1)])
    number = np.concatenate([np.arange(len(t)) for t in a.totals])
    matched_a, matched_b = np.concatenate(a.totals), np.concatenate(b.totals)
    either = np.flatnonzero(matched_a + matched_b)
    order, number = order[either], number[either]
    reference = a.reference

    def names(indices: np.ndarray) -> list[str]:
        texts = np.empty(len(indices), dtype=object)
        for n in np.unique(order[indices]).tolist():
            here = order[indices] == n
            texts[here] = reference.ngram_texts(n, number[indices[here]])
        return texts.tolist()

    return _salient(names, order, matched_a[either], matched_b[either], alpha, length)


def _salient(names, orders, a: np.ndarray, b: np.ndarray, alpha: float, length: int):
    """The saliences of every n-gram at once (the same float operations as compare-mt's);
    ``names(indices)`` gives those n-grams' words joined by spaces, asked only for the n-grams
    that can make a list."""
    if not len(a):
        return (), ()
    salience = (a + alpha) / ((a + b) + 2 * alpha)
    return (
        _listed(names, orders, a, b, salience, -salience, length),
        _listed(names, orders, a, b, salience, salience, length),
    )


def _listed(names, orders, a, b, salience, key, length) -> tuple[NgramDifference, ...]:
    """The ``length`` smallest by (key, more matches in all, code-point order). Every n-gram
    before the ``length``-th by (key, more matches) is listed; only those tied with it need
    their words to be ordered."""
    total = a + b
    candidates = np.arange(len(key))
    if length < len(key):
        last = np.lexsort((-total, key))[length - 1]
        ahead = (key < key[last]) | ((key == key[last]) & (total >= total[last]))
        candidates = np.flatnonzero(ahead)
    text = dict(zip(candidates.tolist(), names(candidates)))
    chosen = sorted(text, key=lambda i: (key[i], -total[i], text[i]))[:length]
    return tuple(
        NgramDifference(text[i], int(orders[i]), float(salience[i]), int(a[i]), int(b[i]))
        for i in chosen
    )
