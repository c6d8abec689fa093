"""METEOR 1.5's aligner: which of the candidate matches of a `Stage` the jar keeps.

The jar first fixes every match that competes with no other (the only match starting at its
reference word, and every word it covers covered by no other match), then walks the reference
left to right with a beam of partial alignments (40 by default), at each word either taking one
of the matches that start there or skipping the word. Partial alignments are ordered by weighted
coverage (more is better), then chunks (fewer), then the distance between the positions of the
matched spans (less); ties keep their order (a stable sort), so the order in which the matchers
added their matches decides the rest.

Everything the jar does on the way is kept, because it decides which alignment wins:

* the weighted coverage of a partial alignment is a Java ``int``: each match adds
  ``length * weight`` and the sum is truncated to a whole number at every step;
* the search weighs exact matches 1 and every other module 0.5, whatever the scoring weights;
* the distance of a match chosen in the search is added to the partial alignment it extends
  (which then goes on to skip the word), not to the new one; only fixed matches add their own;
* identical sentences are matched by the first module alone;
* a partial alignment whose current word is taken by a match it does not hold is dropped.

The chunks and the per-module counts of the result are then counted afresh from the chosen
matches, as the jar counts them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mteval_core.metrics.meteor.java_strings import java_lower
from mteval_core.metrics.meteor.stage import Match, Stage
from mteval_core.settings.limits import METEOR_MAX_MATCHES

BEAM_SIZE = 40
# The jar's aligner weighs the modules this way in its search (MeteorScorer sets them, "best
# weights for evaluation"): exact matches count fully, every other module's half.
SEARCH_WEIGHT_EXACT = 1.0
SEARCH_WEIGHT_OTHER = 0.5


@dataclass(frozen=True)
class Alignment:
    """The matches the aligner kept and the counts METEOR's score needs.

    ``matches`` are in reference order. The per-module lists have one entry per configured
    module; "content" and "function" split the matched words of each line by the function-word
    list (line 1 = hypothesis, line 2 = reference)."""

    matches: tuple[Match, ...]
    chunks: int
    hypothesis_content: tuple[int, ...]
    hypothesis_function: tuple[int, ...]
    reference_content: tuple[int, ...]
    reference_function: tuple[int, ...]
    hypothesis_function_words: int
    reference_function_words: int


def _span(first: int, length: int) -> int:
    """A bit mask of words first .. first + length - 1."""
    return ((1 << length) - 1) << first


class _Path:
    """A partial alignment of the beam (the jar's PartialAlignment, with what its ordering and
    its search read). Used words are bit masks and the chosen matches a linked list (match,
    rest), so that a copy costs no more than its few numbers."""

    __slots__ = (
        "chosen",
        "chunks",
        "coverage",
        "distance",
        "hyp_used",
        "idx",
        "last_end",
        "ref_used",
        "weighted_hyp",
        "weighted_ref",
    )

    def __init__(self, hyp_used: int, ref_used: int) -> None:
        self.chosen: tuple | None = None  # (match, rest) in reverse reference order
        self.hyp_used = hyp_used
        self.ref_used = ref_used
        self.weighted_hyp = 0  # truncated weighted coverage of the hypothesis, the reference
        self.weighted_ref = 0
        self.coverage = 0  # their sum, what the ordering reads
        self.chunks = 0
        self.idx = 0  # the next reference word not inside a chosen match
        self.last_end = -1  # end of the last match in the hypothesis; -1: no chunk is open
        self.distance = 0

    def copy(self) -> _Path:
        new = _Path.__new__(_Path)
        new.chosen, new.hyp_used, new.ref_used = self.chosen, self.hyp_used, self.ref_used
        new.weighted_hyp, new.weighted_ref = self.weighted_hyp, self.weighted_ref
        new.coverage, new.chunks, new.idx = self.coverage, self.chunks, self.idx
        new.last_end, new.distance = self.last_end, self.distance
        return new

    def take(self, match: Match, weight: float) -> None:
        """Extend by ``match``: coverage (truncated as the jar's int), chunk, position."""
        self.weighted_hyp = int(self.weighted_hyp + match.match_length * weight)
        self.weighted_ref = int(self.weighted_ref + match.length * weight)
        self.coverage = self.weighted_hyp + self.weighted_ref
        if self.last_end != -1 and match.match_start != self.last_end:
            self.chunks += 1
        self.idx = match.start + match.length
        self.last_end = match.match_start + match.match_length
        self.chosen = (match, self.chosen)

    def matches(self) -> tuple[Match, ...]:
        """The chosen matches in reference order."""
        found = []
        node = self.chosen
        while node is not None:
            found.append(node[0])
            node = node[1]
        return tuple(reversed(found))

    def sort_key(self) -> tuple[int, int, int]:
        """The jar's PARTIAL_COMPARE_TOTAL: more weighted coverage, fewer chunks, less distance."""
        return (-self.coverage, self.chunks, self.distance)


def search_weights(modules: Sequence[str]) -> list[float]:
    """The weight of each configured module in the beam search (not in the score)."""
    return [SEARCH_WEIGHT_EXACT if m == "exact" else SEARCH_WEIGHT_OTHER for m in modules]


Matcher = Callable[[Stage, int], None]  # adds its matches to the stage, as module number int


def align(
    hypothesis: Sequence[str],
    reference: Sequence[str],
    matchers: Sequence[Matcher],
    modules: Sequence[str],
    function_words: frozenset[str],
    beam_size: int = BEAM_SIZE,
    max_matches: int = METEOR_MAX_MATCHES,
) -> Alignment:
    """The jar's alignment of two tokenized lines, with ``matchers[k]`` as module k; a pair
    whose modules find more than ``max_matches`` candidates raises stage.TooManyMatches."""
    stage = Stage(list(hypothesis), list(reference), limit=max_matches)
    used_modules = len(matchers)
    if stage.hypothesis_keys == stage.reference_keys:  # the jar: identical lines (by Java hash
        used_modules = 1  # keys) need exact matches only
    for module in range(used_modules):
        matchers[module](stage, module)
    fixed = fixed_matches(stage)
    if sum(map(len, stage.matches)) == len(fixed):  # nothing left to search
        chosen = tuple(fixed[start] for start in sorted(fixed))
    else:
        best = beam_search(stage, fixed, search_weights(modules), beam_size)
        chosen = best.matches()
    return counted_alignment(stage, chosen, len(matchers), function_words)


def fixed_matches(stage: Stage) -> dict[int, Match]:
    """The matches that compete with no other, by the reference word they start at: the only
    match starting there, and every word it covers covered by no other match."""
    fixed = {}
    for start, matches in enumerate(stage.matches):
        if len(matches) != 1:
            continue
        match = matches[0]
        alone = all(
            stage.reference_coverage[j] == 1 for j in range(start, start + match.length)
        ) and all(
            stage.hypothesis_coverage[i] == 1
            for i in range(match.match_start, match.match_start + match.match_length)
        )
        if alone:
            fixed[start] = match
    return fixed


def beam_search(
    stage: Stage, fixed: dict[int, Match], weights: Sequence[float], beam_size: int
) -> _Path:
    """The best complete partial alignment after the jar's left-to-right beam search, starting
    from the fixed matches (their words taken, the matches themselves taken on the way)."""
    hyp_used = ref_used = 0
    for match in fixed.values():
        hyp_used |= _span(match.match_start, match.match_length)
        ref_used |= _span(match.start, match.length)
    n_reference = len(stage.reference)
    next_paths = [_Path(hyp_used, ref_used)]
    for current in range(n_reference + 1):
        paths = sorted(next_paths, key=_Path.sort_key)
        next_paths = []
        for path in paths[:beam_size]:
            if current == n_reference:  # complete: close the open chunk
                if path.last_end != -1:
                    path.chunks += 1
                next_paths.append(path)
            elif path.ref_used >> current & 1:
                _continue_or_fix(path, current, fixed, weights, next_paths)
            else:
                _branch(path, stage.matches[current], weights, next_paths)
        if not next_paths:  # the jar warns and carries the best path on
            next_paths.append(paths[0])
    return min(next_paths, key=_Path.sort_key)  # min keeps the first of equals, as the jar


def _continue_or_fix(
    path: _Path,
    current: int,
    fixed: dict[int, Match],
    weights: Sequence[float],
    out: list[_Path],
) -> None:
    """A reference word already taken: inside the last chosen match, or a fixed match's start
    (which the path now takes, with its own distance); any other path is dropped."""
    if current < path.idx:
        out.append(path)
        return
    match = fixed.get(path.idx)
    if match is None:
        return
    path.take(match, weights[match.module])
    path.distance += abs(match.start - match.match_start)
    out.append(path)


def _branch(
    path: _Path, matches: Sequence[Match], weights: Sequence[float], out: list[_Path]
) -> None:
    """A free reference word: a new path for every usable match starting there, then the path
    itself skipping the word. The jar adds each match's distance to the path it extends."""
    for match in matches:
        hyp_span = _span(match.match_start, match.match_length)
        ref_span = _span(match.start, match.length)
        if path.hyp_used & hyp_span or path.ref_used & ref_span:
            continue
        extended = path.copy()
        extended.hyp_used |= hyp_span
        extended.ref_used |= ref_span
        extended.take(match, weights[match.module])
        path.distance += abs(match.start - match.match_start)
        out.append(extended)
    if path.last_end != -1:
        path.chunks += 1
        path.last_end = -1
    path.idx += 1
    out.append(path)


def count_chunks(matches: Sequence[Match]) -> int:
    """Chunks of matches in reference order: a new chunk wherever the next match does not start
    where the last one ended in the hypothesis, or a reference word lies between them."""
    chunks = 0
    last_end = -1
    next_reference = 0
    for match in matches:
        if last_end != -1 and (match.start != next_reference or match.match_start != last_end):
            chunks += 1
        next_reference = match.start + match.length
        last_end = match.match_start + match.match_length
    return chunks + (1 if last_end != -1 else 0)


def counted_alignment(
    stage: Stage, matches: tuple[Match, ...], n_modules: int, function_words: frozenset[str]
) -> Alignment:
    """Per-module content and function matches of both lines (a word is a function word when
    its lowercase form, Java's, is in the list, as the jar checks)."""
    hyp_function = [java_lower(w) in function_words for w in stage.hypothesis]
    ref_function = [java_lower(w) in function_words for w in stage.reference]
    counts = [[0] * n_modules for _ in range(4)]  # hyp content, hyp function, ref ...
    for match in matches:
        for i in range(match.match_start, match.match_start + match.match_length):
            counts[1 if hyp_function[i] else 0][match.module] += 1
        for j in range(match.start, match.start + match.length):
            counts[3 if ref_function[j] else 2][match.module] += 1
    return Alignment(
        matches=matches,
        chunks=count_chunks(matches),
        hypothesis_content=tuple(counts[0]),
        hypothesis_function=tuple(counts[1]),
        reference_content=tuple(counts[2]),
        reference_function=tuple(counts[3]),
        hypothesis_function_words=sum(hyp_function),
        reference_function_words=sum(ref_function),
    )
