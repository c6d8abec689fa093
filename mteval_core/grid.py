"""What the bitext-grid viewer shows for one segment, and where greedy and exact part ways.

``bitext_grid`` rebuilds one segment's grid on demand (a 100 x 100 grid takes about a millisecond)
with the same compiled code that scores GTM, so the picture and the numbers cannot disagree.
``matching_gaps`` scores a whole system both ways and says, per segment, how far GTM 1.4's greedy
falls short of the exact maximum matching.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mteval_core.config import Options
from mteval_core.errors import InputError
from mteval_core.matching import exact_matching, exact_sizes, greedy_matching, greedy_sizes
from mteval_core.ngrams import BARRIER, EncodedCorpus, Vocabulary
from mteval_core.testset import TestSet
from mteval_core.text import stemmer, tokenize


@dataclass(frozen=True)
class GridMatching:
    """One matching: its blocks (i, j, len) in selection order, len fractional where cut."""

    blocks: np.ndarray
    weight: float  # sum of len ** e
    size: float  # weight ** (1 / e)
    precision: float
    recall: float
    f: float
    method: str  # 'greedy' (GTM 1.4), or how the exact matching was proven


@dataclass(frozen=True)
class BitextGrid:
    """A segment's bitext grid: candidate tokens are rows, the concatenated references columns."""

    candidate: list[str]
    columns: list[str | None]  # reference tokens, None at each reference's barrier
    reference_spans: list[tuple[int, int]]  # [start, end) columns of each reference
    hits: np.ndarray  # (n, 2) cells (i, j) whose tokens (or stems) are identical
    runs: np.ndarray  # (n, 3) maximal runs (i, j, length)
    cap: float  # min(|C|, mean reference length)
    exponent: float
    greedy: GridMatching
    exact: GridMatching | None


def bitext_grid(
    test_set: TestSet, system: str, segment: int, options: Options, exact: bool = False
) -> BitextGrid:
    """The grid of one segment (1-based, as in human judgments) of one system."""
    if exact and options.gtm_exponent < 1:
        Options(gtm_exponent=options.gtm_exponent, gtm_matching="exact")  # raises the advice
    if not 1 <= segment <= test_set.n_segments:
        raise InputError(
            f"segment {segment} does not exist; the test set has {test_set.n_segments} segments",
            hint="Segments are numbered from 1.",
        )
    index = segment - 1
    candidate = tokenize([test_set.system(system)[index]], options)[0]
    references = tokenize([ref.segments[index] for ref in test_set.references], options)
    vocabulary = Vocabulary(stemmer(options.stem, options.stem_language))
    encoded = vocabulary.encode([candidate, *references])
    ids = np.split(encoded.ids, encoded.offsets[1:-1])
    columns: list[str | None] = []
    rcat: list[np.ndarray] = []
    spans = []
    for tokens, reference_ids in zip(references, ids[1:]):
        spans.append((len(columns), len(columns) + len(tokens)))
        columns += [*tokens, None]
        rcat += [reference_ids, np.array([BARRIER])]
    rcat_ids = np.concatenate(rcat).astype(np.int64)
    candidate_ids = np.ascontiguousarray(ids[0], dtype=np.int64)
    mean_reference_length = sum(len(r) for r in references) / len(references)
    cap = min(len(candidate), mean_reference_length)
    e = float(options.gtm_exponent)

    def numbers(blocks: np.ndarray, weight: float, method: str) -> GridMatching:
        size = weight ** (1.0 / e)
        precision = size / len(candidate) if candidate else 0.0
        recall = size / mean_reference_length if mean_reference_length else 0.0
        f = (2 * (precision * recall)) / (precision + recall) if precision + recall else 0.0
        return GridMatching(blocks, weight, size, precision, recall, f, method)

    weight, blocks = greedy_matching(candidate_ids, rcat_ids, cap, e)
    exact_result = None
    if exact:
        found = exact_matching(candidate_ids, rcat_ids, cap, e)
        exact_result = numbers(found.blocks.astype(np.float64), found.total, found.method)
    hits = np.argwhere(candidate_ids[:, None] == rcat_ids[None, :])
    return BitextGrid(
        candidate=candidate,
        columns=columns,
        reference_spans=spans,
        hits=hits,
        runs=_runs(hits),
        cap=cap,
        exponent=e,
        greedy=numbers(blocks, weight, "greedy"),
        exact=exact_result,
    )


def _runs(hits: np.ndarray) -> np.ndarray:
    """Maximal diagonal chains of hits, as (i, j, length)."""
    cells = {(int(i), int(j)) for i, j in hits}
    runs = []
    for i, j in sorted(cells):
        if (i - 1, j - 1) in cells:
            continue
        length = 1
        while (i + length, j + length) in cells:
            length += 1
        runs.append((i, j, length))
    return np.array(runs, dtype=np.int64).reshape(-1, 3)


@dataclass(frozen=True)
class MatchingGaps:
    """Per segment: GTM 1.4's greedy size, the exact size, and how the exact one was found."""

    greedy: np.ndarray
    exact: np.ndarray
    methods: list[str]

    @property
    def shortfall(self) -> np.ndarray:
        """exact - greedy: positive where the greedy fell short. Negative only under a fractional
        cap, where greedy uses a fraction of a cell and the exact matching only whole cells."""
        return self.exact - self.greedy


def matching_gaps(test_set: TestSet, system: str, options: Options) -> MatchingGaps:
    only = test_set.with_systems([c for c in test_set.systems if c.name == system])
    corpus = EncodedCorpus(only, options)
    candidate, rcat = corpus.systems[system], corpus.concatenated_references
    lengths = candidate.lengths.astype(np.float64)
    caps = np.minimum(lengths, corpus.reference_lengths.sum(axis=0) / corpus.n_references)
    arrays = (candidate.ids, candidate.offsets, rcat.ids, rcat.offsets, caps, options.gtm_exponent)
    exact, methods = exact_sizes(*arrays)
    return MatchingGaps(greedy_sizes(*arrays), exact, methods)
