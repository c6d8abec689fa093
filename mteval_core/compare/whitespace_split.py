"""compare-mt's tokens: it reads text that is tokenised already and splits each line on single
spaces after stripping it, so an empty line is one empty token and two spaces make an empty token
between them. Its numbers depend on that, so the analyses read the text exactly so."""

from __future__ import annotations

from collections.abc import Sequence


def split_tokens(segment: str) -> tuple[str, ...]:
    """One segment as compare-mt's ``corpus_utils.iterate_tokens`` splits it."""
    return tuple(segment.strip().split(" "))


def split_corpus(segments: Sequence[str]) -> list[tuple[str, ...]]:
    return [split_tokens(segment) for segment in segments]
