"""The two BLEUs compare-mt uses, from one table of per-sentence n-gram counts.

- Corpus BLEU (compare-mt's ``BleuScorer``: the aggregate score and each length bucket's): clipped
  n-gram matches over hypothesis n-grams for n = 1..4, summed over sentences, with two quirks
  kept because its numbers have them: each sentence's n-gram count is at least 1 (a sentence
  shorter than n adds 1 to the denominator), and an order with no match adds log 1 = 0 instead
  of sending the score to 0; only no unigram match at all gives 0. Brevity penalty
  min(1, exp(1 - r / c)) on the summed lengths.
- Sentence BLEU (compare-mt's ``sentbleu``: NLTK's ``sentence_bleu`` with Chen & Cherry's
  smoothing method 2, as NLTK 3.6.6 and later compute it): 1 is added to the matches and the
  count of every order but unigrams; no unigram match gives 0; the four logarithms are summed
  exactly (``math.fsum``), as NLTK does, so bucket edges fall where compare-mt's fall.

Both are on compare-mt's default scale, 0-100, and read the statistics of ``ngram_matches`` as
``counted_as_compare_mt`` gives them (its n-gram counts of at least 1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from mteval_core.compare.ngram_matches import MAX_ORDER
from mteval_core.engine import libm

SCALE = 100.0


def counted_as_compare_mt(statistics: np.ndarray) -> np.ndarray:
    """``ngram_matches``' statistics with every sentence's n-gram counts at least 1, as
    compare-mt's ``BleuScorer`` and NLTK count them (``max(1, count)``), before any sum."""
    counted = np.array(statistics, dtype=np.float64)
    counts = counted[:, 2 + MAX_ORDER :]
    counts[...] = np.maximum(counts, 1.0)
    return counted


def corpus_bleu(totals: np.ndarray) -> np.ndarray:
    """compare-mt's corpus BLEU of summed statistics; ``totals`` is (..., N_STATISTICS)."""
    totals = np.asarray(totals, dtype=np.float64)
    reference, hypothesis = totals[..., 0], totals[..., 1]
    matches, counts = totals[..., 2 : 2 + MAX_ORDER], totals[..., 2 + MAX_ORDER :]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(counts != 0, matches / np.where(counts != 0, counts, 1), 0.0)
        logs = np.where(precision > 0, libm.log(np.where(precision > 0, precision, 1.0)), 0.0)
        brevity = np.where(
            hypothesis != 0,
            np.minimum(1.0, libm.exp(1.0 - reference / np.where(hypothesis != 0, hypothesis, 1))),
            0.0,
        )
    weighted = 0.0
    for n in range(MAX_ORDER):  # in order, as compare-mt adds them
        weighted = weighted + logs[..., n] * (1.0 / MAX_ORDER)
    return np.where(matches[..., 0] == 0, 0.0, SCALE * brevity * libm.exp(weighted))


def sentence_bleu(row: Sequence[float]) -> float:
    """NLTK's smoothed sentence BLEU (method 2) of one row of statistics."""
    reference, hypothesis = int(row[0]), int(row[1])
    matches = [int(x) for x in row[2 : 2 + MAX_ORDER]]
    counts = [int(x) for x in row[2 + MAX_ORDER :]]
    if matches[0] == 0:
        return 0.0
    precisions = [matches[0] / counts[0]]
    precisions += [(m + 1) / (c + 1) for m, c in zip(matches[1:], counts[1:])]
    exponent = math.fsum(0.25 * math.log(p) for p in precisions if p > 0)
    if hypothesis > reference:
        brevity = 1.0
    elif hypothesis == 0:
        brevity = 0.0
    else:
        brevity = math.exp(1 - reference / hypothesis)
    return SCALE * (brevity * math.exp(exponent))


def sentence_bleus(statistics: np.ndarray) -> np.ndarray:
    """Every sentence's smoothed BLEU (one row of statistics each)."""
    return np.array([sentence_bleu(row) for row in statistics.tolist()], dtype=np.float64)
