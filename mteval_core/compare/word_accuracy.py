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
from mteval_core.compare.ngram_matches import (
    NgramMatches,
    ReferenceIndex,
    index_reference,
    match_system,
)

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


@dataclass(frozen=True, eq=False)  # it holds arrays
class WordBuckets:
    """Each word's frequency bucket, and the reference's words counted by bucket: what every
    system's word accuracy against one reference shares."""

    buckets: Buckets
    frequencies: dict[str, int]  # word -> count
    of_reference_word: np.ndarray  # by reference word id (``ReferenceIndex``); 0 unused
    reference: np.ndarray  # (n_sentences, n_buckets): the reference's words per bucket

    def of(self, word: str) -> int:
        """The bucket of any word: the number of edges at or below its frequency."""
        return bisect_right(self.buckets.edges, int(self.frequencies.get(word, 0)))


def word_buckets(
    reference: ReferenceIndex, frequencies: Counter, edges: Sequence[int] = FREQUENCY_EDGES
) -> WordBuckets:
    buckets = Buckets.whole(edges)
    counts = np.fromiter((frequencies.get(w, 0) for w in reference.words), dtype=np.float64)
    frequency = {word: int(count) for word, count in frequencies.items()}
    of_word = np.concatenate([[0], buckets.index(counts)]).astype(np.int64)
    tokens = reference.tokens
    n, k = len(tokens.lengths), len(buckets)
    per_sentence = _per_bucket(tokens.sentence, of_word[tokens.ids], n, k)
    return WordBuckets(buckets, frequency, of_word, per_sentence)


def _per_bucket(sentence, bucket, n_sentences: int, k: int, weights=None) -> np.ndarray:
    """(n_sentences, k): the (weighted) count of items per sentence and bucket."""
    flat = np.bincount(sentence * k + bucket, weights=weights, minlength=n_sentences * k)
    return flat.astype(np.float64).reshape(n_sentences, k)


def system_word_counts(
    words: WordBuckets, matches: NgramMatches, hypothesis: Sequence[Sequence[str]]
) -> tuple[np.ndarray, np.ndarray]:
    """One system's words and matches per sentence and bucket (n_sentences, n_buckets) each. A
    word matches min(count in the hypothesis, count in the reference) times in its sentence,
    the unigram matches ``ngram_matches`` counted."""
    n, k = len(words.reference), len(words.buckets)
    tokens = matches.tokens
    bucket = words.of_reference_word[tokens.ids]
    unknown = np.flatnonzero(tokens.ids == 0)  # not in the reference: its frequency decides
    if len(unknown):
        flat = np.array([w for sentence in hypothesis for w in sentence], dtype=object)
        get = words.frequencies.get
        counts = np.fromiter((get(w, 0) for w in flat[unknown].tolist()), np.int64, len(unknown))
        bucket[unknown] = words.buckets.index(counts)
    sentence, word, clipped = matches.word_matches
    return (
        _per_bucket(tokens.sentence, bucket, n, k),
        _per_bucket(sentence, words.of_reference_word[word], n, k, weights=clipped),
    )


def word_counts(
    reference: Sequence[Sequence[str]],
    systems: Sequence[Sequence[Sequence[str]]],
    frequencies: Counter,
    edges: Sequence[int] = FREQUENCY_EDGES,
) -> WordCounts:
    """Count every sentence's words by bucket, the bucket of a word by ``frequencies``."""
    index = index_reference(reference)
    words = word_buckets(index, frequencies, edges)
    counted = [system_word_counts(words, match_system(index, s), s) for s in systems]
    return WordCounts(
        words.buckets, words.reference, tuple(c[0] for c in counted), tuple(c[1] for c in counted)
    )


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
