"""AutoRank of a scored test set: the dashboard's own metrics (BLEU, chrF, TER, ...) combined as
WMT25 combines its metrics, for a test set that has no WMT score files.

WMT25's recipe takes each metric's system-level score; here that is the corpus score the Scores
page shows (from the summed statistics, so BLEU is corpus BLEU, not a mean of sentence BLEU).
AutoRank reads every metric as higher-is-better, so a lower-is-better metric (TER) enters with
its sign flipped: its robust z-score then points the same way as the others', and nothing else
changes (the recipe is invariant to a metric's shift and scale); tables show its own score.
The bootstrap draws the segments once (the same counts for every system and metric, seeded)
and recomputes every corpus score from the resampled sums, as the Scores page's intervals do.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from mteval_core.errors import InputError
from mteval_core.metrics.base import Metric
from mteval_core.metrics.scoring import Scores
from mteval_core.rankings.autorank import autorank_of_means, autorank_table
from mteval_core.rankings.table import LanguagePairRanking
from mteval_core.settings.limits import MAX_RESAMPLED_CELLS
from mteval_core.stats.bootstrap import resampled_sums


def rankable_metrics(scores: Scores) -> list[str]:
    """The metrics AutoRank can combine with intervals: those with segment statistics."""
    undefined = scores.not_resampled()
    return [m.name for m in scores.metrics if m.name not in undefined]


def scored_autorank(
    scores: Scores,
    metrics: Sequence[str],
    resamples: int,
    seed: int,
    name: str = "test set",
) -> LanguagePairRanking:
    """WMT25's AutoRank of every system of ``scores`` over ``metrics`` (registry names), with
    95% intervals and rank ranges from ``resamples`` resamples of the segments (0: none)."""
    chosen = _chosen(scores, metrics)
    if len(scores.systems) < 2:
        raise InputError(
            f"{name}: {len(scores.systems)} system to rank", hint="AutoRank ranks two or more."
        )
    corpus = scores.corpus()
    signs = np.array([1.0 if m.higher_is_better else -1.0 for m in chosen])
    means = np.array([[corpus[s][m.name] for m in chosen] for s in scores.systems]) * signs
    draws = None
    if resamples:
        draws = _resampled(scores, chosen, resamples, seed) * signs
    about = (name, "wmt25", tuple(scores.systems), tuple(m.label for m in chosen))
    result = autorank_of_means(about, means, draws, leave_one_out=True)
    flipped = [m.label for m in chosen if not m.higher_is_better]
    notes = (f"{', '.join(flipped)}: lower is better, entered with the sign flipped",) * bool(
        flipped
    )
    ranking = autorank_table(result, notes)
    shown = [  # each metric's own score, not the flipped one AutoRank read
        replace(entry, extra={**entry.extra, "metrics": _own_scores(corpus[entry.system], chosen)})
        for entry in ranking.systems
    ]
    return replace(ranking, systems=tuple(shown))


def _own_scores(corpus: dict[str, float], metrics: list[Metric]) -> dict[str, float]:
    return {m.label: corpus[m.name] for m in metrics}


def _chosen(scores: Scores, metrics: Sequence[str]) -> list[Metric]:
    by_name = {m.name: m for m in scores.metrics}
    unknown = [m for m in metrics if m not in rankable_metrics(scores)]
    if unknown or not metrics:
        raise InputError(
            f"AutoRank cannot combine {', '.join(unknown)}" if unknown else "no metric chosen",
            hint=f"Choose among {', '.join(rankable_metrics(scores))}.",
        )
    return [by_name[m] for m in metrics]


def _resampled(scores: Scores, metrics: list[Metric], resamples: int, seed: int) -> np.ndarray:
    """Resamples x systems x metrics corpus scores, every system and metric on the same draws
    (a generator seeded alike for each metric draws the same counts)."""
    systems = scores.systems
    n_segments = len(scores.statistics[metrics[0].name][systems[0]])
    if resamples * n_segments > MAX_RESAMPLED_CELLS:
        raise InputError(
            f"{resamples:,} resamples x {n_segments:,} segments are over the limit of "
            f"{MAX_RESAMPLED_CELLS:,} resampled cells",
            hint="Choose fewer resamples.",
        )
    draws = np.empty((resamples, len(systems), len(metrics)))
    for j, metric in enumerate(metrics):
        matrices = [scores.statistics[metric.name][s] for s in systems]
        sums = resampled_sums(matrices, resamples, np.random.default_rng(seed))
        for i, totals in enumerate(sums):
            draws[:, i, j] = metric.score_from_totals(totals)
    return draws
