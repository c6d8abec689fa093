"""METEOR's alignment of one segment as plain data, for a viewer: beam (the jar's) and exact.

The bitext grid draws the alignment METEOR keeps for one hypothesis: which words it matched to
which (a paraphrase match spans several words on both lines), by which module, how the matches
group into chunks, and the numbers the segment's score comes from. Both searches are shown, the
jar's beam and the exact one (``--meteor-alignment exact``), each with the reference it keeps
(METEOR scores a segment against its best reference, the first on ties), so that a user sees where
the beam's heuristic costs chunks.

Nothing here aligns or scores on its own: the words, matchers and function words are the
`METEOR` metric's for the session's options, the alignments are `aligner.align` and
`optimal.align_optimally`, the statistics `scorer.statistics_row` and the score
`scorer.score_parts`, so the view and the metric's numbers cannot part ways. The candidate
matches the modules offered (drawn as hits the search did not keep) are the matchers' own, run
once more on a fresh `Stage`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.aligner import Alignment, align
from mteval_core.metrics.meteor.configuration import MeteorConfiguration
from mteval_core.metrics.meteor.metric import METEOR, configuration_of
from mteval_core.metrics.meteor.optimal import align_optimally
from mteval_core.metrics.meteor.scorer import score_parts, statistics_row
from mteval_core.metrics.meteor.stage import Match, Stage, TooManyMatches
from mteval_core.settings.limits import GRID_MAX_CELLS, METEOR_MAX_MATCHES, METEOR_MAX_WORDS
from mteval_core.settings.options import Options
from mteval_core.settings.parameters import METEOR_ALIGNMENTS


@dataclass(frozen=True)
class AlignedSpan:
    """One match: hypothesis words [hypothesis_start, + hypothesis_length) matched to reference
    words [reference_start, + reference_length) by ``module``; ``chunk`` counts from 0 in
    reference order (-1 for a candidate the search did not keep)."""

    hypothesis_start: int
    hypothesis_length: int
    reference_start: int
    reference_length: int
    module: str
    chunk: int = -1


@dataclass(frozen=True)
class ModuleCount:
    """What one module contributed: its matches, and the words they cover on each line."""

    module: str
    matches: int
    hypothesis_words: int
    reference_words: int


@dataclass(frozen=True)
class SearchResult:
    """One search's alignment of the hypothesis with the reference METEOR keeps, and its numbers.

    ``reference_scores`` holds the segment's score against every reference under this search;
    ``reference`` is the index of the best (the first on ties), the one whose alignment
    ``matches`` is. ``found`` is False where the exact search had too many states and kept the
    beam's alignment (always True for the beam)."""

    search: str  # "beam" or "exact"
    reference: int
    reference_scores: tuple[float, ...]
    matches: tuple[AlignedSpan, ...]
    chunks: int
    per_module: tuple[ModuleCount, ...]
    hypothesis_matched: int
    reference_matched: int
    precision: float
    recall: float
    fmean: float
    fragmentation: float  # chunks / mean matched words (0 for a complete one-chunk alignment)
    penalty: float  # gamma * fragmentation ** beta
    score: float
    found: bool = True

    @property
    def chunk_spans(self) -> tuple[tuple[int, int, int, int], ...]:
        """Each chunk's (hypothesis start, hypothesis end, reference start, reference end),
        ends exclusive: a chunk's matches are contiguous on both lines."""
        spans: dict[int, list[int]] = {}
        for m in self.matches:
            h_end, r_end = (
                m.hypothesis_start + m.hypothesis_length,
                m.reference_start + m.reference_length,
            )
            if m.chunk not in spans:
                spans[m.chunk] = [m.hypothesis_start, h_end, m.reference_start, r_end]
            else:
                span = spans[m.chunk]
                span[0], span[1] = min(span[0], m.hypothesis_start), max(span[1], h_end)
                span[2], span[3] = min(span[2], m.reference_start), max(span[3], r_end)
        return tuple(tuple(spans[k]) for k in sorted(spans))  # type: ignore[misc]


@dataclass(frozen=True)
class MeteorSegmentView:
    """METEOR's view of one segment: the words as METEOR reads them (its own split, after -norm
    and -lower), the modules that ran, and the beam's and the exact search's results."""

    hypothesis: tuple[str, ...]
    references: tuple[tuple[str, ...], ...]
    modules: tuple[str, ...]
    left_out: tuple[str, ...]  # default modules without their data here
    scored_with: str  # the search the session's scores use (Options.meteor.alignment)
    beam: SearchResult
    exact: SearchResult
    candidates: tuple[tuple[AlignedSpan, ...], ...]  # per reference, every module's matches

    def result(self, search: str) -> SearchResult:
        return self.beam if search == "beam" else self.exact

    @property
    def searches_differ(self) -> bool:
        """Whether beam and exact keep different references or different matches."""
        return (self.beam.reference, self.beam.matches) != (
            self.exact.reference,
            self.exact.matches,
        )


def meteor_segment_view(
    hypothesis: str, references: Sequence[str], options: Options
) -> MeteorSegmentView:
    """METEOR's alignments of one raw hypothesis against its raw references, beam and exact,
    under the session's METEOR options (its data auto-detected or ``options.meteor.data``)."""
    metric = METEOR(options)
    configuration = metric.configuration
    hypothesis_words = metric.words(hypothesis)
    reference_words = [metric.words(text) for text in references]
    _check_size(hypothesis_words, reference_words)
    try:
        results = {
            search: _search(metric, search, hypothesis_words, reference_words)
            for search in METEOR_ALIGNMENTS
        }
    except TooManyMatches:
        raise InputError(
            f"METEOR's modules find more than {METEOR_MAX_MATCHES:,} candidate matches in this "
            "segment, the most it aligns",
            hint="METEOR leaves the segment out of its scores (a note beside them says so); "
            "pick another segment to see an alignment.",
        ) from None
    requested = configuration_of(options).modules
    return MeteorSegmentView(
        hypothesis=tuple(hypothesis_words),
        references=tuple(tuple(words) for words in reference_words),
        modules=configuration.modules,
        left_out=tuple(m for m in requested if m not in configuration.modules),
        scored_with=options.meteor.alignment,
        beam=results["beam"],
        exact=results["exact"],
        candidates=tuple(
            _candidates(metric, configuration, hypothesis_words, words) for words in reference_words
        ),
    )


def _check_size(hypothesis: list[str], references: list[list[str]]) -> None:
    """Refuse a segment over METEOR's words a line (left out of its scores too) or over the
    cells a grid draws (GRID_MAX_CELLS, as GTM's grid), before any matching."""
    longest = max(len(hypothesis), *map(len, references))
    if longest > METEOR_MAX_WORDS:
        raise InputError(
            f"this segment has a line of {longest:,} words, and METEOR aligns lines of up to "
            f"{METEOR_MAX_WORDS:,}",
            hint="METEOR leaves the segment out of its scores (a note beside them says so); "
            "pick another segment to see an alignment.",
        )
    cells = max(len(hypothesis) * len(reference) for reference in references)
    if cells > GRID_MAX_CELLS:
        raise InputError(
            f"this segment is too large to draw: its METEOR grid has {cells:,} cells, and the "
            f"viewer draws up to {GRID_MAX_CELLS:,}",
            hint="Its METEOR scores are on the Scores page; pick a shorter segment to see a grid.",
        )


def _search(
    metric: METEOR, search: str, hypothesis: list[str], references: list[list[str]]
) -> SearchResult:
    """One search against every reference; the best reference's alignment, as METEOR keeps it."""
    aligned = []
    for reference in references:
        if search == "beam":
            alignment = align(
                hypothesis,
                reference,
                metric.matchers(),
                metric.configuration.modules,
                metric.function_words(),
            )
            found = True
        else:
            alignment, found = align_optimally(
                hypothesis,
                reference,
                metric.matchers(),
                metric.configuration.modules,
                metric.function_words(),
            )
        row = statistics_row(alignment, len(hypothesis), len(reference))
        aligned.append((alignment, row, found))
    rows = np.array([row for _, row, _ in aligned], dtype=np.float64)
    parts = score_parts(rows, metric.configuration.parameters)
    best = int(np.argmax(parts["score"]))  # the first of equals, as best_reference_row
    alignment, row, found = aligned[best]
    return _result(
        search,
        best,
        tuple(float(s) for s in parts["score"]),
        alignment,
        {name: float(values[best]) for name, values in parts.items()} | {"counted_chunks": row[-1]},
        metric.configuration.modules,
        found,
    )


def _result(
    search: str,
    reference: int,
    scores: tuple[float, ...],
    alignment: Alignment,
    parts: dict[str, float],
    modules: tuple[str, ...],
    found: bool,
) -> SearchResult:
    spans = aligned_spans(alignment.matches, modules)
    hypothesis_matched = sum(m.hypothesis_length for m in spans)
    reference_matched = sum(m.reference_length for m in spans)
    per_module = tuple(
        ModuleCount(
            module,
            sum(1 for m in spans if m.module == module),
            sum(m.hypothesis_length for m in spans if m.module == module),
            sum(m.reference_length for m in spans if m.module == module),
        )
        for module in modules
    )
    return SearchResult(
        search=search,
        reference=reference,
        reference_scores=scores,
        matches=spans,
        chunks=alignment.chunks,
        per_module=per_module,
        hypothesis_matched=hypothesis_matched,
        reference_matched=reference_matched,
        precision=parts["precision"],
        recall=parts["recall"],
        fmean=parts["fmean"],
        fragmentation=_fragmentation(
            parts["counted_chunks"], hypothesis_matched, reference_matched
        ),
        penalty=parts["penalty"],
        score=parts["score"],
        found=found,
    )


def _fragmentation(counted_chunks: float, hypothesis: int, reference: int) -> float:
    """Chunks per mean matched word, with the chunks as the statistics count them (none for
    both lines matched whole in one chunk); 0 where nothing matched."""
    if hypothesis + reference == 0:
        return 0.0
    return counted_chunks / ((hypothesis + reference) / 2)


def aligned_spans(matches: Sequence[Match], modules: Sequence[str]) -> tuple[AlignedSpan, ...]:
    """The matches in reference order with their chunk: a new chunk wherever a match does not
    follow the last one directly on both lines (`aligner.count_chunks`' rule)."""
    spans = []
    chunk = -1
    last_hypothesis_end = next_reference = -1
    for match in matches:
        if match.start != next_reference or match.match_start != last_hypothesis_end:
            chunk += 1
        spans.append(
            AlignedSpan(
                match.match_start,
                match.match_length,
                match.start,
                match.length,
                modules[match.module],
                chunk,
            )
        )
        next_reference = match.start + match.length
        last_hypothesis_end = match.match_start + match.match_length
    return tuple(spans)


def _candidates(
    metric: METEOR,
    configuration: MeteorConfiguration,
    hypothesis: list[str],
    reference: list[str],
) -> tuple[AlignedSpan, ...]:
    """Every match the modules offer the search (the aligner's first step, run again); identical
    lines get the first module's only, as the aligner gives them."""
    stage = Stage(list(hypothesis), list(reference))
    matchers = metric.matchers()
    used = 1 if stage.hypothesis_keys == stage.reference_keys else len(matchers)
    for module in range(used):
        matchers[module](stage, module)
    return tuple(
        AlignedSpan(
            m.match_start, m.match_length, m.start, m.length, configuration.modules[m.module]
        )
        for matches in stage.matches
        for m in matches
    )


__all__ = [
    "AlignedSpan",
    "MeteorSegmentView",
    "ModuleCount",
    "SearchResult",
    "aligned_spans",
    "meteor_segment_view",
]
