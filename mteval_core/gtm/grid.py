"""What the bitext-grid viewer shows for one segment, and where greedy and exact part ways.

``bitext_grid`` rebuilds one segment's grid on demand (a 100 x 100 grid takes about a millisecond)
with the same compiled code that scores GTM, so the picture and the numbers cannot disagree.
``compare_matchings`` says how the two matchings of that segment stand to each other, and
``one_reference`` cuts one reference's columns out of a grid of several.
``matching_gaps`` scores a whole system both ways and says, per segment, how far GTM 1.4's greedy
falls short of the exact maximum matching; ``segment_table`` turns that into the sortable list of
segments the viewer picks from, and ``segments_matching`` searches it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import pandas as pd

from mteval_core.engine.ngrams import BARRIER, EncodedCorpus
from mteval_core.engine.tokens import Vocabulary
from mteval_core.errors import InputError
from mteval_core.gtm.matching import (
    exact_matching,
    exact_sizes,
    greedy_matching,
    greedy_sizes,
    mean_reference_lengths,
    precision_recall_f,
    run_lengths,
    segment_grids,
)
from mteval_core.model.testset import TestSet
from mteval_core.settings.limits import GRID_MAX_CELLS
from mteval_core.settings.options import Options
from mteval_core.text.stemming import stemmer
from mteval_core.text.tokenizers import tokenize

SHORT_TEXT = 80  # characters of candidate text a table row shows; the grid shows every token
SAME_WEIGHT = 1e-9  # relative difference of two matchings' sum of len^e that is only rounding


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
    reference_names: list[str]
    reference_spans: list[tuple[int, int]]  # [start, end) columns of each reference
    hits: np.ndarray  # (n, 2) cells (i, j) whose tokens (or stems) are identical
    runs: np.ndarray  # (n, 3) maximal runs (i, j, length)
    cap: float  # min(|C|, mean reference length)
    exponent: float
    greedy: GridMatching
    exact: GridMatching | None


def bitext_grid(  # long: tokens, hits, runs and both matchings of one grid, in order
    test_set: TestSet, system: str, segment: int, options: Options, exact: bool = False
) -> BitextGrid:
    """The grid of one segment (1-based, as in human judgments) of one system."""
    _check_system(test_set, system)
    if exact:
        _check_exact_exponent(options.gtm.exponent)
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
    if len(candidate_ids) * len(rcat_ids) > GRID_MAX_CELLS:
        raise InputError(
            f"segment {segment} of {system} is too large to draw: its grid has "
            f"{len(candidate_ids):,} x {len(rcat_ids):,} cells, and the viewer draws up to "
            f"{GRID_MAX_CELLS:,}",
            hint="Its GTM scores are in the segment list and on the Scores page; pick a shorter "
            "segment to see a grid.",
        )
    mean_reference_length = sum(len(r) for r in references) / len(references)
    cap = min(len(candidate), mean_reference_length)
    e = float(options.gtm.exponent)

    def numbers(blocks: np.ndarray, weight: float, method: str) -> GridMatching:
        size = weight ** (1.0 / e)
        totals = np.array([size, len(candidate), mean_reference_length])
        precision, recall, f = (float(v) for v in precision_recall_f(totals))
        return GridMatching(blocks, weight, size, precision, recall, f, method)

    weight, blocks = greedy_matching(candidate_ids, rcat_ids, cap, e)
    exact_result = None
    if exact:
        found = exact_matching(candidate_ids, rcat_ids, cap, e)
        exact_result = numbers(found.blocks.astype(np.float64), found.total, found.method)
    lengths = run_lengths(candidate_ids, rcat_ids)[:-1, :-1]  # chain of hits from each cell
    return BitextGrid(
        candidate=candidate,
        columns=columns,
        reference_names=test_set.reference_names,
        reference_spans=spans,
        hits=np.argwhere(lengths > 0),
        runs=_runs(lengths),
        cap=cap,
        exponent=e,
        greedy=numbers(blocks, weight, "greedy"),
        exact=exact_result,
    )


def one_reference(grid: BitextGrid, index: int) -> BitextGrid:
    """The columns of ``grid``'s reference ``index`` (and its barrier) with the hits, runs and
    blocks that fall there, so the viewer can show one of several references at a readable size.

    Blocks never cross a barrier, so each lies wholly in one reference. The matchings' numbers
    stay those of the whole grid: GTM matches against all references at once.
    """
    start, end = grid.reference_spans[index]

    def inside(cells: np.ndarray) -> np.ndarray:  # rows (i, j, ...) with start <= j < end
        kept = cells[(cells[:, 1] >= start) & (cells[:, 1] < end)].copy()
        kept[:, 1] -= start
        return kept

    def part(matching: GridMatching) -> GridMatching:
        return replace(matching, blocks=inside(matching.blocks))

    return replace(
        grid,
        columns=grid.columns[start : end + 1],
        reference_names=[grid.reference_names[index]],
        reference_spans=[(0, end - start)],
        hits=inside(grid.hits),
        runs=inside(grid.runs),
        greedy=part(grid.greedy),
        exact=None if grid.exact is None else part(grid.exact),
    )


def viewer_options(options: Options, exponent: float) -> Options:
    """``options`` at the viewer's own exponent. The viewer computes both matchings whatever
    ``options`` chose, so the choice is set to one value: results cached under these options do
    not split by a setting that changes none of their numbers."""
    return options.updated(gtm_exponent=exponent, gtm_matching="greedy")


QUICK_EXACT_SEGMENTS = 10_000  # with one reference: segments matched exactly at once, unasked
QUICK_EXACT_CELLS = 1_000  # with several: segments x references


def exact_table_is_quick(test_set: TestSet) -> bool:
    """Whether the exact matching of every segment takes well under a second, so the viewer
    lists exact F unasked. With one reference the bound settles most segments and the search
    the rest in microseconds: WMT17 en-de (3,004 segments) takes 0.04 s. Several references make
    the search far harder: WMT21 news en-de (1,002 x 3) takes 0.4 s at e = 2 and 1.2 s at e = 1.1,
    a few segments going to the integer program."""
    if len(test_set.references) == 1:
        return test_set.n_segments <= QUICK_EXACT_SEGMENTS
    return test_set.n_segments * len(test_set.references) <= QUICK_EXACT_CELLS


def viewer_exponent(options: Options, low: float, high: float) -> float:
    """The viewer's first exponent: the one every other page uses (the Data page's), within the
    viewer's range (the exact matching needs e >= 1)."""
    return min(max(float(options.gtm.exponent), low), high)


def segment_number(text: str, n_segments: int) -> int | None:
    """``text`` (e.g. from a link) as a segment number from 1 to ``n_segments``, else None.

    ASCII digits only: str.isdigit() also accepts '²', which int() refuses, and a number of
    5,000 digits would make int() raise, so the length is checked first.
    """
    if not re.fullmatch(r"[0-9]{1,9}", text):
        return None
    number = int(text)
    return number if 1 <= number <= n_segments else None


Finding = Literal["exact not found", "greedy falls short", "fractional cap"]


@dataclass(frozen=True)
class MatchingComparison:
    """How a segment's exact matching stands to GTM 1.4's greedy, for the viewer to say so."""

    differ: bool  # their sums of len^e differ by more than rounding: both are worth showing
    finding: Finding | None  # None: nothing to say, the two agree


def compare_matchings(grid: BitextGrid) -> MatchingComparison:
    """'exact not found': the exact search ran out of time or size, its numbers are the greedy's;
    'greedy falls short': the exact matching is heavier; 'fractional cap': the greedy is heavier,
    having taken a fraction of its last cell where the length cap is fractional, which the
    exact matching (whole cells only) never does."""
    greedy, exact = grid.greedy, grid.exact
    if exact is None:
        return MatchingComparison(differ=False, finding=None)
    differ = abs(exact.weight - greedy.weight) > SAME_WEIGHT * max(greedy.weight, 1.0)
    finding: Finding | None = None
    if exact.method == "greedy-fallback":
        finding = "exact not found"
    elif differ and exact.weight > greedy.weight:
        finding = "greedy falls short"
    elif differ:
        finding = "fractional cap"
    return MatchingComparison(differ, finding)


def _runs(lengths: np.ndarray) -> np.ndarray:
    """Maximal diagonal chains of hits, as (i, j, length): the hits with no hit up-left of them."""
    starts = lengths > 0
    starts[1:, 1:] &= lengths[:-1, :-1] == 0
    rows, cols = np.nonzero(starts)
    return np.column_stack([rows, cols, lengths[rows, cols]]).astype(np.int64).reshape(-1, 3)


def _check_system(test_set: TestSet, system: str) -> None:
    if system not in test_set.system_names:
        raise InputError(
            f"there is no system named {system!r} in this test set",
            hint=f"The systems are: {', '.join(test_set.system_names)}.",
        )


def _check_exact_exponent(exponent: float) -> None:
    """The exact matching is defined for e >= 1 only; Options says why in plain words."""
    Options.from_flags(gtm_exponent=exponent, gtm_matching="exact")


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
    """Every segment of ``system`` matched both ways at ``options.gtm.exponent`` (e >= 1)."""
    corpus = _system_corpus(test_set, system, options)
    return _gaps(corpus, system, options.gtm.exponent)


def _system_corpus(test_set: TestSet, system: str, options: Options) -> EncodedCorpus:
    """The references and one system, tokenized once: the other systems are not needed here.

    Human judgments are dropped: they name the other systems too, and play no part here.
    """
    _check_system(test_set, system)
    column = next(c for c in test_set.systems if c.name == system)
    return EncodedCorpus(replace(test_set, systems=(column,), human=None), options)


def _gaps(corpus: EncodedCorpus, system: str, exponent: float) -> MatchingGaps:
    _check_exact_exponent(exponent)
    grids = segment_grids(corpus, system)
    exact, methods = exact_sizes(*grids, exponent)
    return MatchingGaps(greedy_sizes(*grids, exponent), exact, methods)


def segment_table(
    test_set: TestSet,
    system: str,
    options: Options,
    exact: bool = True,
    progress: Callable[[float], None] | None = None,
) -> pd.DataFrame:
    """One row per segment of ``system``, in segment order, for the viewer's sortable list.

    GTM F greedy (GTM 1.4) at ``options.gtm.exponent``, and with ``exact`` the exact F and the
    size shortfall of the greedy (the exact matching of every segment takes seconds on a WMT set
    with several references: ``progress`` is told how far it is); then the token counts and the
    candidate text cut to SHORT_TEXT characters. Every column but the text is numeric, so sorting
    by a header sorts numbers. The F values come from the same sizes and GTM's own float
    operations (the gtm metric's), so a row and its grid agree exactly.
    """
    corpus = _system_corpus(test_set, system, options)
    grids = segment_grids(corpus, system)
    candidate_lengths = corpus.hypothesis_lengths(system)
    reference_lengths = mean_reference_lengths(corpus)

    def f(sizes: np.ndarray) -> np.ndarray:  # GTM's own F of (size, |C|, mean |R|) per segment
        return precision_recall_f(np.column_stack([sizes, candidate_lengths, reference_lengths]))[2]

    greedy = greedy_sizes(*grids, options.gtm.exponent)
    columns: dict[str, object] = {
        "segment": np.arange(1, test_set.n_segments + 1),
        "F greedy": f(greedy),
    }
    if exact:
        _check_exact_exponent(options.gtm.exponent)
        exact_size = exact_sizes(*grids, options.gtm.exponent, progress)[0]
        columns["F exact"] = f(exact_size)
        columns["size shortfall"] = exact_size - greedy
    columns["candidate tokens"] = candidate_lengths
    columns["reference tokens"] = reference_lengths
    columns["candidate"] = [_shorten(text) for text in test_set.system(system)]
    return pd.DataFrame(columns)


def _shorten(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= SHORT_TEXT else text[: SHORT_TEXT - 1] + "…"


def segments_matching(test_set: TestSet, system: str, query: str) -> np.ndarray:
    """Per segment, whether the candidate or any reference contains ``query``, ignoring case.

    Searches the raw texts, as a person reads them, not the tokens; an empty query keeps all.
    """
    _check_system(test_set, system)
    needle = query.strip().casefold()
    if not needle:
        return np.ones(test_set.n_segments, dtype=bool)
    texts = zip(test_set.system(system), *(ref.segments for ref in test_set.references))
    return np.array([any(needle in text.casefold() for text in row) for row in texts], bool)
