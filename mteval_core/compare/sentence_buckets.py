"""Sentences in buckets (compare-mt's default ``--compare_sentence_buckets``): by reference
length with each bucket's corpus BLEU, by length difference (hypothesis minus reference tokens)
and by sentence BLEU, each with the number of sentences in every bucket; the tokens and both
BLEUs are those of the comparison's ``readings.Reading``.

Each analysis gives, per system, a matrix with one row per sentence whose column sums make the
bucket statistics (``BucketMatrices``): the sentence's BLEU statistics placed in its bucket's
columns, or a 1 in its bucket's column. A resample's statistics are the same function of that
matrix's weighted sums, so one resample matrix serves every analysis (``analysis``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval_core.compare.buckets import (
    LENGTH_DIFFERENCE_EDGES,
    LENGTH_EDGES,
    SENTENCE_BLEU_EDGES,
    BucketMatrices,
    Buckets,
)
from mteval_core.compare.ngram_matches import N_STATISTICS
from mteval_core.compare.readings import Reading


def sentences_per_bucket(totals: np.ndarray) -> np.ndarray:
    return np.asarray(totals, dtype=np.float64)[..., None]


def counted(
    key: str, title: str, buckets: Buckets, indices: Sequence[np.ndarray]
) -> BucketMatrices:
    """Sentences counted per bucket; ``indices`` gives each system's bucket of every sentence."""
    matrices = tuple(_one_hot(index, len(buckets)) for index in indices)
    return BucketMatrices(
        key,
        title,
        buckets,
        ("sentences",),
        ("sentences",),
        matrices,
        sentences_per_bucket,
        lambda totals: {"sentences": [int(x) for x in totals]},
        members=tuple(np.asarray(index) for index in indices),
    )


def _one_hot(index: np.ndarray, width: int) -> np.ndarray:
    matrix = np.zeros((len(index), width))
    matrix[np.arange(len(index)), index] = 1.0
    return matrix


def bleu_by_length(
    reference_lengths: np.ndarray,
    statistics: Sequence[np.ndarray],
    reading: Reading,
    edges=LENGTH_EDGES,
) -> BucketMatrices:
    """The reading's corpus BLEU of the sentences in each reference-length bucket (the same
    buckets for both systems). An empty bucket scores 0, as compare-mt and sacreBLEU score it;
    its size says it is empty."""
    buckets = Buckets.whole(edges)
    index = buckets.index(reference_lengths)
    one_hot = _one_hot(index, len(buckets))
    k = len(buckets)

    def placed(stats: np.ndarray) -> np.ndarray:  # (n, k * N_STATISTICS)
        return (one_hot[:, :, None] * stats[:, None, :]).reshape(len(stats), k * N_STATISTICS)

    def evaluate(totals: np.ndarray) -> np.ndarray:
        shaped = np.asarray(totals).reshape(*np.shape(totals)[:-1], k, N_STATISTICS)
        return reading.corpus_bleu(shaped)[..., None]

    def sizes(totals: np.ndarray) -> dict[str, list[int]]:
        return {"sentences": [int(x) for x in one_hot.sum(axis=0)]}

    return BucketMatrices(
        "length_buckets",
        f"{reading.bleu_label} by reference length",
        buckets,
        ("bleu",),
        (reading.bleu_label,),
        tuple(placed(s) for s in statistics),
        evaluate,
        sizes,
        members=tuple(index for _ in statistics),
    )


def by_length_difference(
    reference_lengths: np.ndarray, hypothesis_lengths: Sequence[np.ndarray], reading: Reading
) -> BucketMatrices:
    buckets = Buckets.whole(LENGTH_DIFFERENCE_EDGES)
    indices = [buckets.index(h - reference_lengths) for h in hypothesis_lengths]
    return counted(
        "length_difference_buckets",
        f"sentences by length difference (hypothesis minus reference {reading.token}s)",
        buckets,
        indices,
    )


def by_sentence_bleu(sentence_bleus: Sequence[np.ndarray], reading: Reading) -> BucketMatrices:
    buckets = Buckets.real(SENTENCE_BLEU_EDGES)
    return counted(
        "sentence_bleu_buckets",
        f"sentences by {reading.sentence_bleu_label}",
        buckets,
        [buckets.index(scores) for scores in sentence_bleus],
    )
