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
    (lowest first)."""
    scored = [
        NgramDifference(
            " ".join(gram),
            len(gram),
            (matches_a[gram] + alpha) / (matches_a[gram] + matches_b[gram] + 2 * alpha),
            matches_a[gram],
            matches_b[gram],
        )
        for gram in set(matches_a) | set(matches_b)
    ]

    def evidence(d: NgramDifference) -> tuple:
        return (-(d.matches_a + d.matches_b), d.ngram)

    a_better = sorted(scored, key=lambda d: (-d.salience, *evidence(d)))[:length]
    b_better = sorted(scored, key=lambda d: (d.salience, *evidence(d)))[:length]
    return tuple(a_better), tuple(b_better)
