"""Example sentences where the two systems differ most (compare-mt's default
``--compare_sentence_examples``): by sentence BLEU (``compare_mt_bleu.sentence_bleu``), the ten
where a beats b by most and the ten where b beats a by most.

As compare-mt: a sentence whose (a, b, reference) triple was seen on an earlier line is left
out; sentences are ordered by b's score minus a's, then a's score, then b's, then line, and the
first ten and the last ten are taken. compare-mt lists b's ten from the smallest difference up;
here they are listed from the largest, like a's.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import asdict, dataclass

import numpy as np

REPORT_LENGTH = 10


@dataclass(frozen=True)
class SentenceExample:
    line: int  # 1-based
    score_a: float
    score_b: float

    @property
    def difference(self) -> float:
        """a's score minus b's."""
        return self.score_a - self.score_b

    def to_dict(self) -> dict:
        return {**asdict(self), "difference": self.difference}


def differing_most(
    reference: Sequence[Sequence[str]],
    system_a: Sequence[Sequence[str]],
    system_b: Sequence[Sequence[str]],
    scores_a: np.ndarray,
    scores_b: np.ndarray,
    length: int = REPORT_LENGTH,
) -> tuple[tuple[SentenceExample, ...], tuple[SentenceExample, ...]]:
    """(where a is better, most first; where b is better, most first). A sentence is its
    tokens or any value equal where they are (its stripped text)."""
    seen: set[tuple] = set()
    rows = []
    for i, triple in enumerate(zip(system_a, system_b, reference)):
        key = tuple(x if isinstance(x, Hashable) else tuple(x) for x in triple)
        if key in seen:
            continue
        seen.add(key)
        a, b = float(scores_a[i]), float(scores_b[i])
        rows.append((b - a, a, b, i))
    rows.sort()
    a_better = [SentenceExample(i + 1, a, b) for _, a, b, i in rows[:length]]
    b_better = [SentenceExample(i + 1, a, b) for _, a, b, i in reversed(rows[-length:])]
    return tuple(a_better), tuple(b_better)
