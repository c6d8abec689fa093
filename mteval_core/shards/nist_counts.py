"""NIST on shards: the reference n-gram counts of the whole corpus, made in a first pass.

NIST weighs each matched n-gram by its information in the whole reference corpus, log2 of
count(prefix) / count(n-gram) over every reference segment, which no shard sees alone. So a run
with NIST makes two passes over the shards:

1. each shard returns the counts of its reference n-grams (``count_shard``), keyed by a 128-bit
   hash of the n-gram's tokens, the same in every process (BLAKE2b of each token, combined per
   order); the driver adds them up (``merged``) and keeps, per shard, the corpus-wide counts of
   the shard's own n-grams (``for_shard``: what its scoring needs, no more);
2. each shard is scored as before, its EncodedCorpus given those counts (``CorpusCounts``), so
   its NIST weights, and so its per-segment statistics, are the in-memory path's.

Why not one pass returning, per shard, count tables and match tables keyed by n-gram (NIST's
information sum is linear in the matches, so the driver could weigh them at the end)? That gives
the corpus score, but not the per-segment statistics that the Poisson bootstrap and
``--segment-scores-out`` need; and the match tables of every system would travel to the driver.
The first pass costs a reading and a tokenizing of the references.

A segment's references are counted once, in the first shard that has the segment: where shards
share segments (a segment's systems in different shards), the first pass checks the shards
together (``coverage``: the same references wherever a segment is) and counts the later shards
again without the segments an earlier shard has.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.metrics.nist import MAX_ORDER
from mteval_core.model.testset import TestSet
from mteval_core.settings.options import Options
from mteval_core.shards.coverage import ShardIndex, check_coverage, index_of
from mteval_core.shards.reading import read_shard

KEY = np.dtype([("high", "<u8"), ("low", "<u8")])  # an n-gram's 128-bit key, sorted as a pair
# per lane: key(w1..wn) = key(w1..wn-1) * MULTIPLIER + hash(wn), modulo 2**64 (odd, so two
# n-grams that differ in one token always differ in key)
MULTIPLIERS = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F))
Run = Callable[[Sequence["CountTask"]], list["ShardCounts"]]


@dataclass(frozen=True, eq=False)
class NgramCounts:
    """Per order (index n - 1): sorted n-gram keys and their counts over the references."""

    keys: list[np.ndarray]  # KEY arrays
    counts: list[np.ndarray]  # int64, aligned with keys
    total_words: int  # the number of reference tokens, over every reference


@dataclass(frozen=True)
class CountTask:
    """The first pass on one shard: count the references of its segments but ``skipped``."""

    path: str
    options: Options
    skipped: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False)
class ShardCounts:
    """What the first pass returns of one shard: its counts and what ``coverage`` checks."""

    counts: NgramCounts
    index: ShardIndex


@dataclass(frozen=True, eq=False)
class CorpusCounts:
    """The whole corpus's counts of one shard's reference n-grams, for its NIST weights (the
    ``corpus_counts`` of ``EncodedCorpus``)."""

    counts: NgramCounts

    @property
    def total_words(self) -> int:
        return self.counts.total_words

    def totals_for(self, corpus: EncodedCorpus) -> list[np.ndarray]:
        """Per order, the corpus-wide count of each n-gram of ``corpus``'s reference dictionary,
        in the dictionary's order (``corpus`` is one group of the shard: its n-grams are among
        the shard's)."""
        totals = []
        for n, keys in enumerate(ngram_keys(corpus), start=1):
            known = self.counts.keys[n - 1]
            where = np.searchsorted(known, keys)
            if len(keys) and (where.max() >= len(known) or np.any(known[where] != keys)):
                raise AssertionError(f"an order-{n} reference n-gram was not counted")
            totals.append(self.counts.counts[n - 1][where])
        return totals


def corpus_counts(paths: Sequence[str], options: Options, run: Run) -> list[CorpusCounts]:
    """For each shard, the whole corpus's counts of its reference n-grams. ``run`` runs a task
    on every shard (in this process or on Dask) and returns the results in order."""
    first = run([CountTask(path, options) for path in paths])
    check_coverage([shard.index for shard in first])  # the same references wherever a segment is
    skipped = _seen_before(first)
    again = [k for k, segments in enumerate(skipped) if segments]
    counted = list(first)
    recounted = run([CountTask(paths[k], options, skipped[k]) for k in again]) if again else []
    for k, shard in zip(again, recounted, strict=True):
        counted[k] = shard
    whole = merged([shard.counts for shard in counted])
    return [for_shard(whole, shard.counts) for shard in first]


def count_shard(task: CountTask) -> ShardCounts:
    """The first pass on one shard: its references, tokenized under the run's options, and the
    counts of their n-grams (over its segments but ``task.skipped``)."""
    rows = read_shard(task.path)
    skipped = set(task.skipped)
    ids = [s for s in sorted(rows.shared) if s not in skipped]
    if not ids:  # every segment counted in an earlier shard
        empty = [np.zeros(0, KEY)] * MAX_ORDER, [np.zeros(0, np.int64)] * MAX_ORDER
        return ShardCounts(NgramCounts(*empty, total_words=0), index_of(rows))
    references = rows.reference_columns(ids)
    corpus = EncodedCorpus(TestSet(references=references, name=rows.origin), task.options)
    keys = ngram_keys(corpus)
    orders = [np.argsort(k, kind="stable") for k in keys]
    totals = [total for _, total in corpus.reference_ngrams()]
    counts = NgramCounts(
        [k[order] for k, order in zip(keys, orders, strict=True)],
        [total[order] for total, order in zip(totals, orders, strict=True)],
        int(corpus.reference_lengths.sum()),
    )
    return ShardCounts(counts, index_of(rows))


def _seen_before(shards: Sequence[ShardCounts]) -> list[tuple[int, ...]]:
    """Per shard, its segments that an earlier shard has (whose references are counted there)."""
    seen = np.zeros(0, np.int64)
    skipped = []
    for shard in shards:
        segments = shard.index.segments
        skipped.append(tuple(segments[np.isin(segments, seen)].tolist()))
        seen = np.union1d(seen, segments)
    return skipped


def ngram_keys(corpus: EncodedCorpus) -> list[np.ndarray]:
    """Per order, the 128-bit key of each n-gram of ``corpus``'s reference dictionary."""
    tokens = _token_hashes(corpus.vocabulary.words)
    keys: list[np.ndarray] = []
    for prefix, last in corpus.reference_ngram_parts():
        key = np.empty(len(last), KEY)
        for lane, multiplier in zip(KEY.names, MULTIPLIERS, strict=True):
            own = tokens[lane][last]
            key[lane] = own if prefix is None else keys[-1][lane][prefix] * multiplier + own
        keys.append(key)
    return keys


def _token_hashes(words: Sequence[str]) -> np.ndarray:
    """128 bits of BLAKE2b per token: the same in every process (Python's hash() is salted)."""
    data = b"".join(
        hashlib.blake2b(word.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        for word in words
    )
    return np.frombuffer(data, KEY).copy()


def merged(shards: Sequence[NgramCounts]) -> NgramCounts:
    """The counts of every shard added up, per n-gram."""
    keys, counts = [], []
    for n in range(len(shards[0].keys)):
        every = np.concatenate([shard.keys[n] for shard in shards])
        unique, inverse = np.unique(every, return_inverse=True)
        added = np.bincount(
            inverse.ravel(),
            weights=np.concatenate([shard.counts[n] for shard in shards]),
            minlength=len(unique),
        )
        keys.append(unique)
        counts.append(added.astype(np.int64))  # counts below 2**53: float64 adds them exactly
    return NgramCounts(keys, counts, sum(shard.total_words for shard in shards))


def for_shard(whole: NgramCounts, shard: NgramCounts) -> CorpusCounts:
    """The corpus-wide counts of the n-grams of ``shard``, for its second pass (every one of
    them is in ``whole``: a segment counted elsewhere has the same references there)."""
    counts = [
        whole.counts[n][np.searchsorted(whole.keys[n], keys)] for n, keys in enumerate(shard.keys)
    ]
    return CorpusCounts(NgramCounts(shard.keys, counts, whole.total_words))
