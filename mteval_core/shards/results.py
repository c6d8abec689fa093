"""The summed statistics as the in-memory path's results, so that its writers print them.

``Scores`` holds per-segment statistics and scores a corpus as ``score_from_totals(stats.sum(0))``:
given one row, the corpus totals, it gives the same numbers, and its JSON, CSV, text and LaTeX
writers work unchanged (segment and document scores excepted: they are not there). The bootstrap
follows ``stats.significance.bootstrap_scores`` step by step, on the Poisson resamples' sums.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mteval_core.config import Options
from mteval_core.metrics import get_metric
from mteval_core.scoring import Scores, run_signature
from mteval_core.shards.sums import Sums
from mteval_core.stats.bootstrap import BootstrapOptions, percentile_interval
from mteval_core.stats.significance import BootstrapResult, PairedTest, paired_tests


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
    )


def poisson_bootstrap(sums: Sums, scores: Scores, options: BootstrapOptions) -> BootstrapResult:
    """Intervals and paired tests from the Poisson resamples, as ``bootstrap_scores`` derives
    them from the multinomial ones: a percentile interval per system and metric, a paired test
    per two systems (Holm-corrected per metric); every system shares each resample's weights."""
    corpus = scores.corpus()
    samples: dict[str, np.ndarray] = {}
    ci: dict[str, dict[str, tuple[float, float]]] = {system: {} for system in scores.systems}
    pairs: list[PairedTest] = []
    for metric in scores.metrics:
        resampled = sums.resampled[metric.name]
        columns = [metric.score_from_totals(resampled[system]) for system in scores.systems]
        samples[metric.name] = np.column_stack(columns)
        for system, column in zip(scores.systems, columns):
            interval = percentile_interval(column, options.confidence)
            assert interval is not None  # score_from_totals scores every resample (0 if empty)
            ci[system][metric.name] = interval
        observed = np.array([corpus[system][metric.name] for system in scores.systems])
        pairs += paired_tests(scores.systems, metric.name, samples[metric.name], observed)
    return BootstrapResult(options, samples, ci, tuple(pairs))
