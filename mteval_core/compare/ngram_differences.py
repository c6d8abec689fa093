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
    (lowest first). The saliences are computed for every n-gram at once (the same float
    operations as compare-mt's); only the n-grams that can make a list are sorted."""
    grams = list(set(matches_a) | set(matches_b))
    if not grams:
        return (), ()
    a = np.array([matches_a.get(g, 0) for g in grams], dtype=np.int64)
    b = np.array([matches_b.get(g, 0) for g in grams], dtype=np.int64)
    salience = (a + alpha) / ((a + b) + 2 * alpha)
    return (
        _listed(grams, a, b, salience, -salience, length),
        _listed(grams, a, b, salience, salience, length),
    )


def _listed(grams, a, b, salience, key, length) -> tuple[NgramDifference, ...]:
    """The ``length`` smallest by (key, more matches in all, code-point order)."""
    if length < len(key):
        cut = np.partition(key, length - 1)[length - 1]
        candidates = np.flatnonzero(key <= cut)  # every n-gram tied with the last one too
    else:
        candidates = np.arange(len(key))
    order = sorted(candidates.tolist(), key=lambda i: (key[i], -(a[i] + b[i]), " ".join(grams[i])))[
        :length
    ]
    return tuple(
        NgramDifference(" ".join(grams[i]), len(grams[i]), float(salience[i]), int(a[i]), int(b[i]))
        for i in order
    )
