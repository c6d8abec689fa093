"""The summed statistics as the in-memory path's results, so that its writers print them.

``Scores`` holds per-segment statistics and scores a corpus as ``score_from_totals(stats.sum(0))``:
given one row, the corpus totals, it gives the same numbers, and its JSON, CSV, text and LaTeX
writers work unchanged (segment and document scores excepted: they are not there). The bootstrap
follows ``stats.significance.bootstrap_scores`` step by step, on the Poisson resamples' sums.
"""

from __future__ import annotations

from collections.abc import Sequence

from mteval_core.metrics import get_metric
from mteval_core.metrics.scoring import Scores, metric_signatures, run_signature
from mteval_core.settings.options import Options
from mteval_core.shards.sums import Sums
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import (
    BootstrapResult,
    intervals_and_pairs,
    why_no_interval,
    without_resamples,
)


def corpus_scores(
    sums: Sums,
    metric_names: Sequence[str],
    options: Options,
    n_references: int,
    notes: Sequence[str] = (),
) -> Scores:
    """Scores whose statistics are one row per system: its sums over every shard."""
    metrics = [get_metric(name, options) for name in metric_names]
    statistics = {
        metric.name: {
            system: totals[None, :] for system, totals in sums.totals[metric.name].items()
        }
        for metric in metrics
    }
    return Scores(
        signature=run_signature(options, metrics, n_references),
        systems=list(sums.totals[metrics[0].name]),
        metrics=metrics,
        statistics=statistics,
        notes=tuple(notes),
        signatures=metric_signatures(options, metrics, n_references),
    )


def poisson_bootstrap(
    sums: Sums, scores: Scores, options: BootstrapOptions, n_segments: int
) -> BootstrapResult:
    """Intervals and paired tests from the Poisson resamples, as ``bootstrap_scores`` derives
    them from the multinomial ones: a percentile interval per system and metric, a paired test
    per two systems (Holm-corrected per metric); every system shares each resample's weights.
    ``n_segments`` (of every shard together) decides whether there are intervals and p-values
    at all (``stats.significance.why_no_interval``, ``why_no_paired_test``)."""
    if why_no_interval(n_segments):
        return without_resamples(scores, options, n_segments)
    samples, ci, pairs = intervals_and_pairs(
        scores,
        options,
        lambda metric: [
            metric.score_from_totals(sums.resampled[metric.name][system])
            for system in scores.systems
        ],
        n_segments,
    )
    return BootstrapResult(options, samples, ci, tuple(pairs))
