"""The dashboard's tables of one metric against every other: which agrees better with people.

``metric_comparison_frame`` reads system-level comparisons (``stats.significance.MetricComparison``,
Williams' test and the share of resamples), ``ranking_p_value_frame`` the segment-level
permutation tests of a ``stats.ranking.MetricRanking``. Cells are text, never None or NaN: a
statistic without a value reads "undefined (why)". Metrics are called by their labels
(``writers.metric_labels``), as on every page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from mteval_core.stats.ranking import MetricRanking
from mteval_core.stats.significance import (
    SIGNIFICANCE_LEVEL,
    MetricComparison,
    undefined_pearson,
)
from mteval_core.stats.undefined import UNDEFINED, format_statistic

COMPARISON_COLUMNS = (
    "Pearson r",
    "Williams p: selected better",
    "Williams p: other better",
    "resamples with selected higher",
    f"at p < {SIGNIFICANCE_LEVEL}",
)


def format_p(p: float) -> str:
    """A p-value for people: three decimals, or '< 0.001'."""
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def metric_comparison_frame(
    comparisons: Sequence[MetricComparison],
    labels: Mapping[str, str],
    significance: float = SIGNIFICANCE_LEVEL,
) -> pd.DataFrame:
    """One row per other metric (the comparisons' b, by its label; a is the selected metric): its
    Pearson r, Williams' one-sided p in each direction, the share of resamples in which the
    selected metric's r is the higher (ties half), and which one is significantly better, if
    either."""
    rows = {}
    for comparison in comparisons:
        record = comparison.to_dict() | {UNDEFINED: _labelled_reasons(comparison, labels)}
        williams = comparison.williams_p_a_better
        if williams is None:
            selected_better = other_better = verdict = format_statistic(
                record, "williams_p_a_better"
            )
        else:
            selected_better, other_better = format_p(williams), format_p(1.0 - williams)
            verdict = _verdict(williams, significance)
        share = comparison.share_a_better
        rows[labels[comparison.b]] = dict(
            zip(
                COMPARISON_COLUMNS,
                (
                    format_statistic(record, "pearson_b"),
                    selected_better,
                    other_better,
                    f"{share:.1%}" if share is not None else _undefined(record, "share_a_better"),
                    verdict,
                ),
            )
        )
    frame = pd.DataFrame.from_dict(rows, orient="index", columns=list(COMPARISON_COLUMNS))
    frame.index.name = "other metric"
    return frame


def _labelled_reasons(comparison: MetricComparison, labels: Mapping[str, str]) -> dict[str, str]:
    """The comparison's reasons, with a metric whose Pearson correlation is undefined (which
    leaves the share and Williams' test undefined) called by its label, not its name."""
    reasons = dict(comparison.undefined)
    for side, metric in (("a", comparison.a), ("b", comparison.b)):
        why = reasons.get(f"pearson_{side}")
        if why is not None:
            reasons["share_a_better"] = reasons["williams_p_a_better"] = undefined_pearson(
                labels[metric], why
            )
    return reasons


def _verdict(williams_p_selected_better: float, significance: float) -> str:
    if williams_p_selected_better < significance:
        return "selected better"
    if 1.0 - williams_p_selected_better < significance:
        return "other better"
    return "no significant difference"


def _undefined(record: dict, key: str) -> str:
    return f"undefined ({record[UNDEFINED].get(key, 'no value')})"


def ranking_p_value_frame(
    ranking: MetricRanking, metric: str, labels: Mapping[str, str]
) -> pd.DataFrame:
    """``metric`` against every other metric of the ranking, in its order, each by its label:
    the other's rank and value, the permutation test's p-value between the two and what it says
    at the ranking's level (``PermutationParams.significance``, 0.05 by default)."""
    ranked = {entry.name: entry for entry in ranking.metrics}
    rows = {}
    for pair in ranking.p_values_of(metric):
        other = ranked[pair.other]
        if pair.p_value is None:
            p = result = "not tested (a statistic is undefined)"
        else:
            p = format_p(pair.p_value)
            result = (
                f"{labels[pair.higher]} better" if pair.significant else "no significant difference"
            )
        rows[labels[pair.other]] = {
            "rank": other.rank,
            ranking.statistic: "undefined" if other.value is None else f"{other.value:.4f}",
            "p-value": p,
            "result": result,
        }
    frame = pd.DataFrame.from_dict(
        rows, orient="index", columns=["rank", ranking.statistic, "p-value", "result"]
    )
    frame["rank"] = frame["rank"].astype("Int64")  # whole numbers; none for an unranked metric
    frame.index.name = "other metric"
    return frame
