"""METEOR's matching modules: each adds its candidate matches to a `Stage`, in the jar's order.

The order of the matches within `Stage.matches[j]` decides ties in the aligner's beam search, so
every matcher walks the words as the jar's matcher does: reference words in the outer loop,
hypothesis words in the inner one.
"""

from __future__ import annotations

from mteval_core.metrics.meteor.stage import Match, Stage


def match_exact(stage: Stage, module: int) -> None:
    """One-word matches between identical words (the jar's `ExactMatcher`)."""
    for j, reference_word in enumerate(stage.reference):
        for i, hypothesis_word in enumerate(stage.hypothesis):
            if hypothesis_word == reference_word:
                stage.add(Match(j, 1, i, 1, 1.0, module))
