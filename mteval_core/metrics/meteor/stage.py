"""The candidate matches between a hypothesis and a reference, as METEOR's matchers leave them.

METEOR's aligner (the jar's `edu.cmu.meteor.aligner`) first lets every matching module add all
the matches it can find, then searches among them. Both halves meet in this record, kept in the
jar's order because the order decides ties in the beam search. Line 1 is the hypothesis and
line 2 the reference, as in the jar's `Aligner.align(test, reference)`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mteval_core.metrics.meteor.java_strings import java_hash
from mteval_core.settings.limits import METEOR_MAX_MATCHES


class TooManyMatches(Exception):
    """The modules found more candidate matches for one pair than its stage takes
    (METEOR_MAX_MATCHES): the segment is left out of METEOR."""


@dataclass(frozen=True, slots=True)
class Match:
    """A span of the reference matched to a span of the hypothesis by one module."""

    start: int  # first reference word (the jar's line 2)
    length: int  # number of reference words
    match_start: int  # first hypothesis word (line 1)
    match_length: int  # number of hypothesis words
    prob: float  # the matcher's confidence (1 for exact, stem, synonym; a paraphrase's probability)
    module: int  # the index of the module in the configured list (0 for the first module)


@dataclass(slots=True)
class Stage:
    """Every candidate match, listed by the reference word it starts at, with coverage counts.

    `matches[j]` holds the matches starting at reference word j in the order the modules added
    them; `hypothesis_coverage[i]` and `reference_coverage[j]` count the matches covering each
    word, which the aligner uses to fix one-to-one matches before its search. `hypothesis_keys`
    and `reference_keys` are the words' Java `hashCode()`s: the jar compares words by these keys
    (the exact matcher matches equal keys, the stem and synonym matchers skip them, the aligner's
    identical-sentences shortcut compares them), so two words with one hash are one word to it.

    A stage takes at most ``limit`` matches (METEOR_MAX_MATCHES): one more raises
    TooManyMatches, so that no module's matches of a hostile pair (one word repeated thousands
    of times on both lines) are held in memory, nor searched.
    """

    hypothesis: list[str]
    reference: list[str]
    limit: int = METEOR_MAX_MATCHES
    count: int = field(init=False, default=0)
    matches: list[list[Match]] = field(init=False)
    hypothesis_coverage: list[int] = field(init=False)
    reference_coverage: list[int] = field(init=False)
    hypothesis_keys: list[int] = field(init=False)
    reference_keys: list[int] = field(init=False)

    def __post_init__(self) -> None:
        self.matches = [[] for _ in self.reference]
        self.hypothesis_coverage = [0] * len(self.hypothesis)
        self.reference_coverage = [0] * len(self.reference)
        self.hypothesis_keys = [java_hash(word) for word in self.hypothesis]
        self.reference_keys = [java_hash(word) for word in self.reference]

    def add(self, match: Match) -> None:
        """Record a match and the words it covers, as every matcher of the jar does."""
        if self.count == self.limit:
            raise TooManyMatches
        self.count += 1
        self.matches[match.start].append(match)
        for i in range(match.match_start, match.match_start + match.match_length):
            self.hypothesis_coverage[i] += 1
        for j in range(match.start, match.start + match.length):
            self.reference_coverage[j] += 1
