"""Human judgments as numbers per system and segment, ready for correlation and resampling.

Several raters of one segment are averaged first; a system's score is the mean over the segments
it was rated on (partial coverage allowed). A criterion may be a sum such as
'adequacy+fluency': Lavie et al.'s total human score, the sum of the two criteria's means.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval_core.errors import InputError
from mteval_core.model.testset import HumanScores


def criteria_of(expression: str, human: HumanScores) -> list[str]:
    """'adequacy+fluency' -> ['adequacy', 'fluency'], each checked against the judgments."""
    parts = [part.strip() for part in expression.split("+") if part.strip()]
    for part in parts:
        if part not in human.criteria:
            raise InputError(
                f"no human judgments for the criterion {part!r}",
                hint=f"The judgments have: {', '.join(human.criteria) or 'none'}.",
            )
    return parts


def default_criterion(human: HumanScores) -> str:
    """Lavie et al.'s total when adequacy and fluency are both there, else the only criterion."""
    criteria = human.criteria
    if {"adequacy", "fluency"} <= set(criteria):
        return "adequacy+fluency"
    if len(criteria) == 1:
        return criteria[0]
    raise InputError(
        f"the human judgments have several criteria ({', '.join(criteria)})",
        hint="Choose one, or a sum such as adequacy+fluency.",
    )


def segment_matrix(
    human: HumanScores, systems: Sequence[str], n_segments: int, criterion: str
) -> np.ndarray:
    """(n_systems, n_segments): each segment's score averaged over raters; NaN if not rated."""
    rows = human.segment_rows[human.segment_rows["criterion"] == criterion]
    means = rows.groupby(["system", "segment"], sort=False)["score"].mean().reset_index()
    position = {name: i for i, name in enumerate(systems)}
    known = means["system"].isin(position)
    matrix = np.full((len(systems), n_segments), np.nan)
    matrix[means.loc[known, "system"].map(position), means.loc[known, "segment"] - 1] = means.loc[
        known, "score"
    ]
    return matrix


def criterion_matrix(
    human: HumanScores, systems: Sequence[str], n_segments: int, expression: str
) -> np.ndarray:
    """Like ``segment_matrix`` for a criterion or a sum of criteria ('adequacy+fluency')."""
    parts = criteria_of(expression, human)
    return np.sum([segment_matrix(human, systems, n_segments, c) for c in parts], axis=0)


def system_scores(
    human: HumanScores, systems: Sequence[str], n_segments: int, expression: str
) -> np.ndarray:
    """One score per system (NaN where a system has no judgment), summed over the criteria."""
    total = np.zeros(len(systems))
    for criterion in criteria_of(expression, human):
        total += criterion_scores(human, systems, n_segments, criterion)
    return total


def criterion_scores(
    human: HumanScores, systems: Sequence[str], n_segments: int, criterion: str
) -> np.ndarray:
    matrix = segment_matrix(human, systems, n_segments, criterion)
    scores = np.full(len(systems), np.nan)
    rated = np.isfinite(matrix).any(axis=1)
    scores[rated] = np.nanmean(matrix[rated], axis=1)
    rows = human.system_rows[human.system_rows["criterion"] == criterion]
    given = dict(zip(rows["system"], rows["score"]))
    for i, name in enumerate(systems):  # system-level rows fill what segments do not cover
        if not rated[i] and name in given:
            scores[i] = given[name]
    return scores
