"""All of compare-mt's analyses of two systems at once, with a bootstrap interval on every
bucket.

``compare_pair`` reads the text as its ``readings.Reading`` says (the test set's tokenizer and
sacreBLEU's BLEU, as Scores reads it, or compare-mt's split on spaces and its BLEU), computes
every bucket analysis as per-sentence matrices (``buckets.BucketMatrices``), and resamples the
sentences once for all of them: one seeded count matrix (``stats.bootstrap.resampled_sums``), so
both systems and every bucket see the same resamples. The observed values are those of the plain
column sums (under the compare-mt reading, compare-mt's numbers); the intervals are percentile
intervals of the resamples (compare-mt's own ``output_bucket_details`` resamples half the
sentences with numpy's global generator; these resample all of them, like the rest of mteval).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core import __version__
from mteval_core.compare import sentence_buckets
from mteval_core.compare.buckets import BucketMatrices, Buckets
from mteval_core.compare.ngram_differences import (
    ALPHA,
    MIN_ORDER,
    NgramDifference,
    salient_between,
)
from mteval_core.compare.ngram_matches import (
    MAX_ORDER,
    NgramMatches,
    ReferenceIndex,
    index_reference,
    match_system,
)
from mteval_core.compare.readings import Reading, unsplit_note
from mteval_core.compare.sentence_examples import SentenceExample, differing_most
from mteval_core.compare.word_accuracy import (
    WordBuckets,
    WordCounts,
    system_word_counts,
    word_accuracy_matrices,
    word_buckets,
    word_frequencies,
)
from mteval_core.stats.bootstrap import BootstrapOptions, resampled_sums, resampling_record


@dataclass(frozen=True, eq=False)  # it holds arrays
class BucketResult:
    """One analysis: per system, bucket and measure, the value and (resampled) its interval."""

    key: str
    title: str
    labels: tuple[str, ...]
    measures: tuple[str, ...]
    measure_labels: tuple[str, ...]
    values: np.ndarray  # (2, n_buckets, n_measures)
    intervals: np.ndarray | None  # (2, n_buckets, n_measures, 2): low, high
    sizes: tuple[dict[str, list[int]], ...]  # per system: what each bucket holds
    # a's value minus b's on the same resamples: (n_buckets, n_measures, 2); an interval that
    # excludes 0 says the two differ in that bucket
    difference_intervals: np.ndarray | None = None
    main_measure: int = -1  # the one drawn and compared (BLEU, F-measure, sentences)
    members: tuple[np.ndarray, ...] | None = None  # per system, each sentence's bucket

    @property
    def differences(self) -> np.ndarray:
        """(n_buckets, n_measures): a's value minus b's."""
        return self.values[0] - self.values[1]

    def to_dict(self, systems: Sequence[str]) -> dict:
        buckets = []
        for b, label in enumerate(self.labels):
            bucket: dict = {"label": label, "size": {}, "values": {}}
            for s, system in enumerate(systems):
                for name, counts in self.sizes[s].items():
                    bucket["size"].setdefault(name, {})[system] = counts[b]
                bucket["values"][system] = dict(zip(self.measures, self.values[s, b].tolist()))
                if self.intervals is not None:
                    bucket.setdefault("ci", {})[system] = {
                        m: self.intervals[s, b, i].tolist() for i, m in enumerate(self.measures)
                    }
            bucket["difference"] = {
                m: {"value": float(self.differences[b, i])} for i, m in enumerate(self.measures)
            }
            if self.difference_intervals is not None:
                for i, m in enumerate(self.measures):
                    bucket["difference"][m]["ci"] = self.difference_intervals[b, i].tolist()
            buckets.append(bucket)
        return {"title": self.title, "measures": list(self.measures), "buckets": buckets}


@dataclass(frozen=True, eq=False)
class Comparison:
    """compare-mt's analyses of systems a and b against one reference, read as ``reading``
    says."""

    systems: tuple[str, str]
    analyses: tuple[BucketResult, ...]  # scores, word accuracy, then the sentence buckets
    ngrams: tuple[tuple[NgramDifference, ...], tuple[NgramDifference, ...]]  # a better, b better
    examples: tuple[tuple[SentenceExample, ...], tuple[SentenceExample, ...]]
    sentence_bleu: tuple[np.ndarray, np.ndarray]  # every sentence's, per system
    frequencies_from: str  # "reference" or "training corpus"
    bootstrap: BootstrapOptions | None
    texts: tuple[Sequence[str], Sequence[str], Sequence[str]]  # reference, a, b (segments)
    reading: Reading
    source: Sequence[str] | None = None
    words: WordBuckets | None = None  # each word's frequency bucket (word accuracy)
    notes: tuple[str, ...] = ()  # what the numbers cannot say themselves (``unsplit_note``)

    def to_dict(self) -> dict:
        """The JSON of `mteval compare` (README: The comparison's JSON)."""
        a, b = self.systems
        report: dict = {
            "signature": self.signature,
            "reading": self.reading.key,
            "systems": [a, b],
            "n_segments": len(self.texts[0]),
            "word_frequencies_from": self.frequencies_from,
            "bootstrap": None if self.bootstrap is None else resampling_record(self.bootstrap),
            "notes": list(self.notes),
        }
        for analysis in self.analyses:
            report[analysis.key] = analysis.to_dict(self.systems)
        a_better, b_better = self.ngrams
        report["ngram_differences"] = {
            "orders": [MIN_ORDER, MAX_ORDER],
            "alpha": ALPHA,
            "a_better": [d.to_dict() for d in a_better],
            "b_better": [d.to_dict() for d in b_better],
        }
        report["sentence_examples"] = {
            "measure": self.reading.sentence_bleu_label,
            "a_better": [self.example_dict(e) for e in self.examples[0]],
            "b_better": [self.example_dict(e) for e in self.examples[1]],
        }
        return report

    def example_dict(self, example: SentenceExample) -> dict:
        """An example with its texts: source (when given), reference and both outputs."""
        i = example.line - 1
        record = example.to_dict()
        if self.source is not None:
            record["source"] = self.source[i]
        record["reference"] = self.texts[0][i]
        record["output_a"], record["output_b"] = self.texts[1][i], self.texts[2][i]
        return record

    def analysis(self, key: str) -> BucketResult:
        return next(a for a in self.analyses if a.key == key)

    def lines_in(self, key: str, bucket: int, system: int) -> list[int]:
        """The 1-based lines that system ``system`` (0: a, 1: b) puts in bucket ``bucket`` of a
        sentence-bucket analysis (``length_buckets``, ``length_difference_buckets``,
        ``sentence_bleu_buckets``), for a page that lists a bucket's sentences."""
        members = self.analysis(key).members
        if members is None:
            raise ValueError(f"the buckets of {key} hold words, not sentences")
        return (np.flatnonzero(members[system] == bucket) + 1).tolist()

    def lines_with_word_bucket(self, bucket: int) -> list[int]:
        """The 1-based lines whose reference has words of frequency bucket ``bucket`` (word
        accuracy's buckets hold words, so a bucket's sentences are those with its words)."""
        if self.words is None:
            raise ValueError("this comparison does not know its words' buckets")
        return (np.flatnonzero(self.words.reference[:, bucket] > 0) + 1).tolist()

    def word_bucket(self, word: str) -> int:
        """The frequency bucket of ``word`` (a token of the reading), as word accuracy counts
        it."""
        if self.words is None:
            raise ValueError("this comparison does not know its words' buckets")
        return self.words.of(word)

    def lines_with_ngram(self, ngram: str) -> list[tuple[int, int, int]]:
        """(line, matches of a, matches of b) for every sentence where either system matches
        ``ngram`` (words joined by spaces) in the reference, as the n-gram analysis counts."""
        gram = tuple(ngram.split(" "))
        n = len(gram)
        found = []
        reference, out_a, out_b = (self.reading.tokens(t) for t in self.texts)
        for i, ref in enumerate(reference):
            in_reference = _count(ref, gram, n)
            if not in_reference:
                continue
            a = min(_count(out_a[i], gram, n), in_reference)
            b = min(_count(out_b[i], gram, n), in_reference)
            if a or b:
                found.append((i + 1, a, b))
        return found

    @property
    def signature(self) -> str:
        """Every choice that changes a number, sacreBLEU-style, then mteval's version."""
        parts = [
            "nrefs:1",
            *self.reading.text_signature(),
            f"freq:{'train' if self.frequencies_from != 'reference' else 'ref'}",
            f"ngram:{MIN_ORDER}-{MAX_ORDER}",
            f"alpha:{ALPHA:g}",
            *self.reading.bleu_signature(),
        ]
        if self.bootstrap is not None:
            parts += [f"resamples:{self.bootstrap.n_resamples}", f"seed:{self.bootstrap.seed}"]
        return "|".join([*parts, f"version:{__version__}"])


def _scores_matrices(statistics: Sequence[np.ndarray], reading: Reading) -> BucketMatrices:
    """compare-mt's aggregate scores (its default ``--compare_scores``): the reading's corpus
    BLEU and the length ratio (hypothesis tokens over reference tokens), as one bucket holding
    every sentence."""

    def evaluate(totals: np.ndarray) -> np.ndarray:
        totals = np.asarray(totals)
        reference = totals[..., 0]
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.where(
                reference != 0, totals[..., 1] / np.where(reference != 0, reference, 1), 0.0
            )
        return np.stack([reading.corpus_bleu(totals), ratio], axis=-1)[..., None, :]

    return BucketMatrices(
        "scores",
        "corpus scores",
        Buckets((), ("all",)),
        ("bleu", "length_ratio"),
        (reading.bleu_label, "length ratio"),
        tuple(statistics),
        evaluate,
        lambda totals: {"sentences": [len(statistics[0])]},
        main_measure=0,
    )


@dataclass(frozen=True, eq=False)  # it holds arrays
class ReferenceSide:
    """What every system compared against one reference shares: how the text is read, the
    reference's tokens, its n-grams numbered, and every token's frequency bucket."""

    segments: Sequence[str]
    reading: Reading
    index: ReferenceIndex
    words: WordBuckets
    frequencies_from: str  # "reference" or "training corpus"
    notes: tuple[str, ...] = ()  # the reference's tokens are not words (``unsplit_note``)


def reference_side(
    reference: Sequence[str], reading: Reading, training: Sequence[str] | None = None
) -> ReferenceSide:
    """The reference read as ``reading`` reads it; ``training`` (segments), when given, gives
    the token frequencies in place of the reference."""
    tokens = reading.tokens(reference)
    index = index_reference(tokens)
    frequencies = word_frequencies(reading.tokens(training) if training is not None else tokens)
    note = unsplit_note(reading, tokens)
    return ReferenceSide(
        reference,
        reading,
        index,
        word_buckets(index, frequencies),
        "training corpus" if training is not None else "reference",
        (note,) if note is not None else (),
    )


@dataclass(frozen=True, eq=False)  # it holds arrays
class SystemSide:
    """One system's half of every comparison against a reference: its counts, its sentence
    BLEUs, its bucket matrices and, when resampled, their resampled column sums. Computed once
    per system, it serves every pair the system is in."""

    name: str
    segments: Sequence[str]
    matches: NgramMatches
    sentence_bleu: np.ndarray
    analyses: tuple[BucketMatrices, ...]  # each with this system's matrix alone
    resampled: tuple[np.ndarray, ...] | None  # counts @ matrix, every analysis in order


def system_side(
    reference: ReferenceSide,
    name: str,
    segments: Sequence[str],
    n_resamples: int = 0,
    rng: np.random.Generator | None = None,
    counts: np.ndarray | None = None,
) -> SystemSide:
    """``name``'s statistics against ``reference``; with ``n_resamples``, the resampled sums
    drawn from ``rng``, or given the drawn ``counts`` (``stats.bootstrap.resample_counts``:
    the same numbers, drawn once for every system). Two systems compared must be resampled
    from generators in the same state, so both see the same resamples (the draws do not depend
    on the matrices)."""
    reading = reference.reading
    tokens = reading.tokens(segments)
    matches = match_system(reference.index, tokens)
    statistics = reading.bleu_statistics(matches.statistics)
    bleus = reading.sentence_bleus(statistics)
    ref_lengths = statistics[:, 0]
    analyses = (
        _scores_matrices([statistics], reading),
        word_accuracy_matrices(
            _word_counts(reference.words, [system_word_counts(reference.words, matches, tokens)]),
            reference.frequencies_from,
        ),
        sentence_buckets.bleu_by_length(ref_lengths, [statistics], reading),
        sentence_buckets.by_length_difference(ref_lengths, [statistics[:, 1]], reading),
        sentence_buckets.by_sentence_bleu([bleus], reading),
    )
    flat = [matrix for analysis in analyses for matrix in analysis.matrices]
    resampled = None
    if counts is not None:
        if counts.shape != (n_resamples, len(segments)):
            raise ValueError(f"counts of shape {counts.shape} for {n_resamples} resamples")
        # one product for every matrix; whole numbers, so the sums are exact either way
        together = counts @ np.hstack(flat)
        edges = np.cumsum([m.shape[1] for m in flat])[:-1]
        resampled = tuple(np.split(together, edges, axis=1))
    elif n_resamples > 0:
        assert rng is not None, "resampling needs a generator"
        resampled = tuple(resampled_sums(flat, n_resamples, rng))
    return SystemSide(name, segments, matches, bleus, analyses, resampled)


def _word_counts(words: WordBuckets, counted: Sequence[tuple[np.ndarray, np.ndarray]]):
    return WordCounts(
        words.buckets, words.reference, tuple(c[0] for c in counted), tuple(c[1] for c in counted)
    )


def compare_sides(
    reference: ReferenceSide,
    a: SystemSide,
    b: SystemSide,
    bootstrap: BootstrapOptions | None = None,
    source: Sequence[str] | None = None,
) -> Comparison:
    """compare-mt's analyses of two systems' sides against the same reference (with
    ``bootstrap``, both sides resampled with its number of resamples, from the same draws)."""
    resampled = bootstrap is not None and bootstrap.n_resamples > 0
    if resampled and (a.resampled is None or b.resampled is None):
        raise ValueError("both sides must be resampled for intervals")
    joined = [x.joined(y) for x, y in zip(a.analyses, b.analyses)]
    analyses = _resampled(joined, bootstrap if resampled else None, (a.resampled, b.resampled))
    bleus = (a.sentence_bleu, b.sentence_bleu)
    return Comparison(
        (a.name, b.name),
        analyses,
        salient_between(a.matches, b.matches),
        # a repeated sentence is a repeated stripped text: compare-mt's repeated words (split
        # on spaces), and for a tokenizer the same text (not merely the same tokens)
        differing_most(*(_stripped(x.segments) for x in (reference, a, b)), *bleus),
        bleus,
        reference.frequencies_from,
        bootstrap,
        (reference.segments, a.segments, b.segments),
        reference.reading,
        source,
        reference.words,
        reference.notes,
    )


def compare_pair(
    reference: Sequence[str],
    systems: Sequence[tuple[str, Sequence[str]]],
    reading: Reading,
    training: Sequence[str] | None = None,
    bootstrap: BootstrapOptions | None = None,
    rng: np.random.Generator | None = None,
    source: Sequence[str] | None = None,
) -> Comparison:
    """compare-mt's analyses of two systems (name, segments) against one reference, the text
    read as ``reading`` says (``readings.TokenizedReading(options)``: as Scores reads it;
    ``readings.COMPARE_MT``: compare-mt's numbers).

    ``training`` (segments) gives the word frequencies in place of the reference; ``source``
    is only shown beside the example sentences. With ``bootstrap``, every bucket gets an
    interval (and so does a - b) from ``bootstrap.n_resamples`` resamples of the sentences
    drawn from ``rng`` (default: seeded with ``bootstrap.seed``), the same for both systems.
    """
    if len(systems) != 2:
        raise ValueError(f"compare two systems, not {len(systems)}")
    side = reference_side(reference, reading, training)
    n_resamples = bootstrap.n_resamples if bootstrap is not None else 0
    if n_resamples > 0 and rng is None:
        assert bootstrap is not None
        rng = np.random.default_rng(bootstrap.seed)
    # each side draws from a copy of the generator in the same state: the same resamples
    sides = [
        system_side(side, name, text, n_resamples, copy.deepcopy(rng)) for name, text in systems
    ]
    return compare_sides(side, sides[0], sides[1], bootstrap, source)


def _resampled(
    analyses: Sequence[BucketMatrices],
    bootstrap: BootstrapOptions | None,
    sums: tuple[tuple[np.ndarray, ...] | None, tuple[np.ndarray, ...] | None],
) -> tuple[BucketResult, ...]:
    """Values and, with ``bootstrap``, intervals of every analysis from the sides' resampled
    sums (each side's matrices in the order of its analyses)."""
    results = []
    for slot, analysis in enumerate(analyses):
        totals = [matrix.sum(axis=0) for matrix in analysis.matrices]
        values = np.stack([analysis.evaluate(t) for t in totals])
        intervals = difference = None
        if bootstrap is not None:
            samples = [analysis.evaluate(side[slot]) for side in sums]  # (R, k, m) each
            intervals = np.stack([_percentiles(x, bootstrap.confidence) for x in samples])
            difference = _percentiles(samples[0] - samples[1], bootstrap.confidence)
        results.append(
            BucketResult(
                analysis.key,
                analysis.title,
                analysis.buckets.labels,
                analysis.measures,
                analysis.measure_labels,
                values,
                intervals,
                tuple(analysis.sizes(t) for t in totals),
                difference,
                analysis.main_measure % len(analysis.measures),
                analysis.members,
            )
        )
    return tuple(results)


def _stripped(segments: Sequence[str]) -> list[str]:
    return [segment.strip() for segment in segments]


def _count(tokens: Sequence[str], gram: tuple[str, ...], n: int) -> int:
    return sum(1 for i in range(len(tokens) - n + 1) if tuple(tokens[i : i + n]) == gram)


def _percentiles(samples: np.ndarray, confidence: float) -> np.ndarray:
    """(R, ...) resampled values -> (..., 2): the central ``confidence`` share's ends."""
    tail = (1.0 - confidence) / 2.0 * 100.0
    low, high = np.percentile(samples, [tail, 100.0 - tail], axis=0)
    return np.stack([low, high], axis=-1)
