"""Word accuracy by frequency bucket (compare-mt's default ``--compare_word_accuracies``).

Each word type falls in a bucket by how often it occurs in the frequency corpus: the reference
by default, or a training corpus (compare-mt's ``freq_corpus_file``). In each sentence a
hypothesis word matches when the reference still has an unmatched occurrence of it (so a word
matches min(count in hypothesis, count in reference) times), and matches, reference words and
hypothesis words are counted per bucket. Summed over sentences: recall = matches / reference
words, precision = matches / hypothesis words, F = 2PR / (P + R); all three are 0 where a bucket
has no match, as compare-mt gives them (an empty bucket reads 0, its counts say it is empty).

compare-mt's word report maps ``acc_type=prec`` to recall's column and ``rec`` to precision's (a
swap in its ``acc_type_map``); its default, the F-measure, is unaffected. Here each is named for
what it is.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.compare.buckets import FREQUENCY_EDGES, BucketMatrices, Buckets

STATISTICS = ("recall", "precision", "f_measure")


def word_frequencies(corpus: Iterable[Sequence[str]]) -> Counter:
    return Counter(word for sentence in corpus for word in sentence)


@dataclass(frozen=True, eq=False)  # it holds arrays
class WordCounts:
    """Per sentence and bucket: reference words, and each system's words and matches."""

    buckets: Buckets
    reference: np.ndarray  # (n_sentences, n_buckets)
    hypothesis: tuple[np.ndarray, ...]  # per system, (n_sentences, n_buckets)
    matches: tuple[np.ndarray, ...]  # per system, (n_sentences, n_buckets)


def word_counts(
    reference: Sequence[Sequence[str]],
    systems: Sequence[Sequence[Sequence[str]]],
    frequencies: Counter,
    edges: Sequence[int] = FREQUENCY_EDGES,
) -> WordCounts:
    """Count every sentence's words by bucket, the bucket of a word by ``frequencies``."""
    buckets = Buckets.whole(edges)
    bucket_of: dict[str, int] = {}

    def bucket(word: str) -> int:  # the number of edges at or below the word's frequency
        if word not in bucket_of:
            bucket_of[word] = bisect_right(buckets.edges, frequencies.get(word, 0))
        return bucket_of[word]

    n, k = len(reference), len(buckets)
    ref_counts = np.zeros((n, k))
    hyp_counts = [np.zeros((n, k)) for _ in systems]
    match_counts = [np.zeros((n, k)) for _ in systems]
    for i, ref_sentence in enumerate(reference):
        in_reference = Counter(ref_sentence)
        for word, count in in_reference.items():
            ref_counts[i, bucket(word)] += count
        for s, system in enumerate(systems):
            for word, count in Counter(system[i]).items():
                b = bucket(word)
                hyp_counts[s][i, b] += count
                match_counts[s][i, b] += min(count, in_reference.get(word, 0))
    return WordCounts(buckets, ref_counts, tuple(hyp_counts), tuple(match_counts))


def accuracies(matches: np.ndarray, reference: np.ndarray, hypothesis: np.ndarray) -> np.ndarray:
    """(..., 3): recall, precision and F-measure of summed counts, 0 where nothing matches."""
    matches, reference, hypothesis = (
        np.asarray(x, np.float64) for x in (matches, reference, hypothesis)
    )
    matched = matches > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = np.where(matched, matches / np.where(matched, reference, 1), 0.0)
        precision = np.where(matched, matches / np.where(matched, hypothesis, 1), 0.0)
        both = np.where(matched, precision + recall, 1.0)
        f_measure = np.where(matched, 2 * precision * recall / both, 0.0)
    return np.stack([recall, precision, f_measure], axis=-1)


def word_accuracy_matrices(counts: WordCounts, frequencies_from: str) -> BucketMatrices:
    """The analysis as ``BucketMatrices``: each system's columns are the reference words, its
    words and its matches, bucket by bucket."""
    k = len(counts.buckets)
    matrices = tuple(
        np.hstack([counts.reference, hyp, match])
        for hyp, match in zip(counts.hypothesis, counts.matches)
    )

    def evaluate(totals: np.ndarray) -> np.ndarray:
        totals = np.asarray(totals)
        reference, hypothesis, matches = (totals[..., i * k : (i + 1) * k] for i in range(3))
        return accuracies(matches, reference, hypothesis)

    def sizes(totals: np.ndarray) -> dict[str, list[int]]:
        names = ("reference_words", "words", "matches")
        return {name: [int(x) for x in totals[i * k : (i + 1) * k]] for i, name in enumerate(names)}

    return BucketMatrices(
        "word_accuracy",
        f"word accuracy by frequency in the {frequencies_from}",
        counts.buckets,
        STATISTICS,
        ("recall", "precision", "F-measure"),
        matrices,
        evaluate,
        sizes,
    )
