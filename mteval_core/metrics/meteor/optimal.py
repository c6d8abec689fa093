"""The alignment METEOR means, found exactly: most weighted coverage, then fewest chunks.

The jar's beam search is a heuristic: it keeps 40 partial alignments, truncates their weighted
coverage to whole numbers and can miss the alignment its own ordering prefers. This search finds,
among all alignments of the candidate matches (no word used twice), one of maximum weighted
coverage (each match counts its words on both lines times the search weight of its module: 1 for
exact, 0.5 for the others, as the jar's search weighs them, without truncation), and among those
one with the fewest chunks, which is what Lavie et al. (2004) and Banerjee & Lavie (2005) ask of
the alignment.

Method: dynamic programming over the reference, left to right, as the beam walks it. What the
rest of an alignment can do depends only on the reference position, the set of hypothesis words
already used and where the open chunk ends in the hypothesis (none after a skipped reference word),
so the best completion of each such state is computed once, and kept as its first match and the
state it leads to (a shared chain, so that memory grows with the states, not with states times
the alignment's length). The number of states can grow exponentially with many competing
matches; a segment whose search takes more than METEOR_EXACT_MAX_STEPS steps (a state visited,
or a match tried from it; settings/limits.py) has no optimal alignment here, and the caller keeps
the beam's and says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from mteval_core.metrics.meteor.aligner import (
    BEAM_SIZE,
    Alignment,
    Matcher,
    align,
    count_chunks,
    counted_alignment,
    search_weights,
)
from mteval_core.metrics.meteor.stage import Match, Stage
from mteval_core.settings.limits import METEOR_EXACT_MAX_STEPS


class TooManySteps(Exception):
    """The search of one segment went over METEOR_EXACT_MAX_STEPS steps."""


def weighted_coverage(matches: Sequence[Match], weights: Sequence[float]) -> float:
    """The words both lines have matched, each match's times its module's search weight."""
    return sum((m.length + m.match_length) * weights[m.module] for m in matches)


def optimal_matches(
    stage: Stage, weights: Sequence[float], max_steps: int = METEOR_EXACT_MAX_STEPS
) -> tuple[Match, ...]:
    """The matches of an alignment with the most weighted coverage and then the fewest chunks;
    among equals, the first found (matches in the matchers' order before skipping a word).
    TooManySteps past ``max_steps``.

    A state keeps only what can still change the rest: the used hypothesis words that a match
    starting at or after the position could cover, and the end of the open chunk only where a
    match at the position starts there (anywhere else it opens a new chunk either way)."""
    n_reference = len(stage.reference)
    spans = [
        [(m, ((1 << m.match_length) - 1) << m.match_start) for m in matches]
        for matches in stage.matches
    ]
    future = [0] * (n_reference + 1)  # hypothesis words the matches from here on can cover
    for position in range(n_reference - 1, -1, -1):
        future[position] = future[position + 1]
        for _, span in spans[position]:
            future[position] |= span
    continuing = [{m.match_start for m in matches} for matches in stage.matches]
    steps = 0

    @cache
    def best(position: int, used: int, last_end: int) -> tuple[float, int, tuple | None]:
        """(coverage, chunks, chain) of the best completion: chain = (match, rest) or None."""
        nonlocal steps
        steps += 1 + (len(spans[position]) if position < n_reference else 0)
        if steps > max_steps:
            raise TooManySteps
        if position == n_reference:
            return 0.0, 0, None
        options = []
        for match, span in spans[position]:
            if used & span:
                continue
            after = position + match.length
            end = match.match_start + match.match_length
            coverage, chunks, rest = best(
                after,
                (used | span) & future[after],
                end if after < n_reference and end in continuing[after] else -1,
            )
            opens = 0 if match.match_start == last_end else 1
            gain = (match.length + match.match_length) * weights[match.module]
            options.append((coverage + gain, chunks + opens, (match, rest)))
        after = position + 1
        options.append(best(after, used & future[after], -1))
        return max(options, key=lambda option: (option[0], -option[1]))  # first of equals

    try:
        chain = best(0, 0, -1)[2]
    finally:
        best.cache_clear()
    matches = []
    while chain is not None:
        matches.append(chain[0])
        chain = chain[1]
    return tuple(matches)


def optimal_alignment(
    hypothesis: Sequence[str],
    reference: Sequence[str],
    matchers: Sequence[Matcher],
    modules: Sequence[str],
    function_words: frozenset[str],
) -> Alignment | None:
    """The optimal alignment of two lines; None where the search is too large (its steps, or
    Python's recursion depth for lines of about a thousand words). A pair whose modules find more
    than METEOR_MAX_MATCHES candidates raises stage.TooManyMatches, as the beam's does."""
    stage = Stage(list(hypothesis), list(reference))
    used_modules = 1 if stage.hypothesis_keys == stage.reference_keys else len(matchers)
    for module in range(used_modules):
        matchers[module](stage, module)
    try:
        matches = optimal_matches(stage, search_weights(modules))
    except (TooManySteps, RecursionError):
        return None
    alignment = counted_alignment(stage, matches, len(matchers), function_words)
    assert alignment.chunks == count_chunks(matches)
    return alignment


def align_optimally(
    hypothesis: Sequence[str],
    reference: Sequence[str],
    matchers: Sequence[Matcher],
    modules: Sequence[str],
    function_words: frozenset[str],
) -> tuple[Alignment, bool]:
    """The optimal alignment of two lines, and whether it was found (False: the segment was too
    large for the search and the beam's alignment is returned)."""
    alignment = optimal_alignment(hypothesis, reference, matchers, modules, function_words)
    if alignment is None:
        beam = align(hypothesis, reference, matchers, modules, function_words, BEAM_SIZE)
        return beam, False
    return alignment, True
