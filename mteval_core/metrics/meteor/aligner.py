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

from mteval_core.metrics.meteor.stage import Match, Stage

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


class _Path:
    """A partial alignment of the beam (the jar's PartialAlignment, with what its ordering and
    its search read)."""

    __slots__ = (
        "chosen",
        "chunks",
        "distance",
        "hyp_used",
        "idx",
        "last_end",
        "ref_used",
        "weighted",
    )

    def __init__(self, chosen: list[Match | None], hyp_used: list[bool], ref_used: list[bool]):
        self.chosen = chosen
        self.hyp_used = hyp_used
        self.ref_used = ref_used
        self.weighted = [0, 0]  # truncated weighted coverage of the hypothesis, the reference
        self.chunks = 0
        self.idx = 0  # the next reference word not inside a chosen match
        self.last_end = -1  # end of the last match in the hypothesis; -1: no chunk is open
        self.distance = 0

    def copy(self) -> _Path:
        new = _Path(self.chosen.copy(), self.hyp_used.copy(), self.ref_used.copy())
        new.weighted = self.weighted.copy()
        new.chunks, new.idx = self.chunks, self.idx
        new.last_end, new.distance = self.last_end, self.distance
        return new

    def uses_any(self, match: Match) -> bool:
        ref_used = self.ref_used
        hyp_used = self.hyp_used
        return any(ref_used[match.start : match.start + match.length]) or any(
            hyp_used[match.match_start : match.match_start + match.match_length]
        )

    def take(self, match: Match, weight: float) -> None:
        """Extend by ``match``: coverage (truncated as the jar's int), chunk, position."""
        self.weighted[0] = int(self.weighted[0] + match.match_length * weight)
        self.weighted[1] = int(self.weighted[1] + match.length * weight)
        if self.last_end != -1 and match.match_start != self.last_end:
            self.chunks += 1
        self.idx = match.start + match.length
        self.last_end = match.match_start + match.match_length

    def sort_key(self) -> tuple[int, int, int]:
        """The jar's PARTIAL_COMPARE_TOTAL: more weighted coverage, fewer chunks, less distance."""
        return (-(self.weighted[0] + self.weighted[1]), self.chunks, self.distance)


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
) -> Alignment:
    """The jar's alignment of two tokenized lines, with ``matchers[k]`` as module k."""
    stage = Stage(list(hypothesis), list(reference))
    used_modules = len(matchers)
    if list(hypothesis) == list(reference):  # the jar: identical lines need exact matches only
        used_modules = 1
    for module in range(used_modules):
        matchers[module](stage, module)
    start = fixed_start(stage)
    if sum(map(len, stage.matches)) == sum(m is not None for m in start.chosen):
        chosen = tuple(m for m in start.chosen if m is not None)  # nothing left to search
    else:
        best = beam_search(stage, start, search_weights(modules), beam_size)
        chosen = tuple(m for m in best.chosen if m is not None)
    return counted_alignment(stage, chosen, len(matchers), function_words)


def fixed_start(stage: Stage) -> _Path:
    """The partial alignment holding every match that competes with no other."""
    path = _Path(
        [None] * len(stage.reference),
        [False] * len(stage.hypothesis),
        [False] * len(stage.reference),
    )
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
            path.chosen[start] = match
            _mark(path, match)
    return path


def _mark(path: _Path, match: Match) -> None:
    for j in range(match.start, match.start + match.length):
        path.ref_used[j] = True
    for i in range(match.match_start, match.match_start + match.match_length):
        path.hyp_used[i] = True


def beam_search(stage: Stage, start: _Path, weights: Sequence[float], beam_size: int) -> _Path:
    """The best complete partial alignment after the jar's left-to-right beam search."""
    n_reference = len(stage.reference)
    next_paths = [start]
    for current in range(n_reference + 1):
        paths = sorted(next_paths, key=_Path.sort_key)
        next_paths = []
        for path in paths[:beam_size]:
            if current == n_reference:  # complete: close the open chunk
                if path.last_end != -1:
                    path.chunks += 1
                next_paths.append(path)
            elif path.ref_used[current]:
                _continue_or_fix(path, current, weights, next_paths)
            else:
                _branch(path, stage.matches[current], weights, next_paths)
        if not next_paths:  # the jar warns and carries the best path on
            next_paths.append(paths[0])
    return min(next_paths, key=_Path.sort_key)  # min keeps the first of equals, as the jar


def _continue_or_fix(path: _Path, current: int, weights: Sequence[float], out: list[_Path]) -> None:
    """A reference word already taken: inside the last chosen match, or a fixed match's start
    (which the path now takes, with its own distance); any other path is dropped."""
    if current < path.idx:
        out.append(path)
        return
    match = path.chosen[path.idx]
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
        if path.uses_any(match):
            continue
        extended = path.copy()
        _mark(extended, match)
        extended.chosen[match.start] = match
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
    its lowercase form is in the list, as the jar checks)."""
    hyp_function = [w.lower() in function_words for w in stage.hypothesis]
    ref_function = [w.lower() in function_words for w in stage.reference]
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
