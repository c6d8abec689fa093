"""The Correlation page's segment-level view: every statistic by grouping with its interval and
the constant baseline, a density of the rated cells, and the metrics ranked in clusters, with the
permutation test's p-value between a chosen metric (click its bar) and every other."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import streamlit as st

from mteval_core.metrics.scoring import Scores
from mteval_core.model.testset import TestSet
from mteval_core.report.comparison_frames import ranking_p_value_frame
from mteval_core.report.figures import metric_ranking_figure, segment_density
from mteval_core.report.frames import segment_level_frame
from mteval_core.stats import segment_meta
from mteval_core.stats.bootstrap import DEFAULT_SEED
from mteval_core.stats.ranking import MetricRanking
from mteval_core.stats.segment_level import ACCURACIES, CORRELATIONS, GROUPINGS
from pages.ui.cache import CacheKey
from pages.ui.caching import cache_key, cached
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown

STATISTICS = (*ACCURACIES[::-1], *CORRELATIONS)  # acc_eq first: WMT's segment-level statistic
PERMUTATION_CHOICES = (100, 200, 500, 1000)  # 1,000: the command line's, mt-metrics-eval's
# On WMT21 TED en-de (13 systems x 529 segments, 7 metrics) acc_eq by item takes 0.1 s with
# 1,000 permutations (its test swaps pair outcomes, counted per group), Pearson by item about 20 s
# with 200 (each permutation recomputes the statistic); so acc_eq starts at the command line's
# 1,000, the correlations at 200, and the page says how many it used.
DEFAULT_PERMUTATIONS = {"acc_eq": 1000}
CORRELATION_PERMUTATIONS = 200
# Larger test sets compute the view when asked. Counted as systems x segments, rated or not: the
# statistics' time follows those matrices, not the rated cells (WMT21 en-de news, 4,216 of its
# 20,040 cells rated, took 20.7 s with 1,000 resamples where WMT21 TED en-de, 6,877 of 6,877,
# took 21.9 s, side by side at a load of 7 on 2 cores).
AUTOMATIC_CELLS = 5_000


def show_segment_level(
    test_set: TestSet,
    scores: Scores,
    labels: Mapping[str, str],
    criterion: str,
    exclude: Sequence[str],
    resamples: int,
) -> None:
    """The view, every metric called by its label in ``labels`` (name -> label)."""
    st.subheader("Segment level")
    if not len(test_set.human.segment_rows):
        st.info("The judgments are system-level only: segment-level statistics need scores of "
                "segments.")  # fmt: skip
        return
    cells = len(test_set.system_names) * test_set.n_segments
    if not st.toggle(
        "Compute the segment-level statistics",
        value=cells <= AUTOMATIC_CELLS,
        help=f"On by default up to {AUTOMATIC_CELLS:,} system-segment cells; this test set has "
        f"{cells:,}, which takes a few seconds per metric with intervals.",
    ):
        return
    key = cache_key(
        "segment level",
        scores.signature,
        criterion,
        tuple(exclude),
        resamples,
        content=test_set.content_hash,
    )
    with friendly_errors(stop=False):
        matrices, result = cached(
            key,
            lambda progress: _statistics(test_set, scores, criterion, exclude, resamples),
            "Segment-level statistics...",
        )
        correlations = segment_meta.segment_correlations(matrices, result)
        left, right = st.columns(2)
        statistic = left.selectbox("Statistic", STATISTICS, help=_STATISTIC_HELP)
        metric = right.selectbox(
            "Metric for the density", list(matrices.metrics), format_func=labels.__getitem__
        )
        st.dataframe(
            segment_level_frame(correlations, statistic, GROUPINGS, labels), width="stretch"
        )
        negated = ", ".join(labels[name] for name in matrices.negated) or "no metric"
        st.caption(
            f"{result.n_cells:,} rated cells of {len(matrices.systems)} systems; higher is better: "
            f"{escape_markdown(negated)} negated. Groupings: none = all cells together, item = "
            "across systems within a segment, system = across segments within a system "
            f"(mt-metrics-eval's). Intervals: {resamples:,} segment resamples."
        )
        st.plotly_chart(
            segment_density(matrices.metrics[metric], matrices.human, labels[metric], criterion),
            width="stretch",
        )
        _show_ranking(matrices, result, statistic, key, labels)


def _show_ranking(
    matrices: segment_meta.SegmentMatrices,
    result: object,
    statistic: str,
    statistics_key: CacheKey,
    labels: Mapping[str, str],
) -> None:
    """The metrics in significance clusters, and one metric's p-values against the others
    (cached under the key of the statistics they start from, ``statistics_key``)."""
    left, right = st.columns(2)
    grouping = left.radio("Rank the metrics by grouping", GROUPINGS, index=1, horizontal=True)
    permutations = right.select_slider(
        "Permutations per pair",
        PERMUTATION_CHOICES,
        value=DEFAULT_PERMUTATIONS.get(statistic, CORRELATION_PERMUTATIONS),
        key=f"ranking_permutations_{statistic}",
        help=_PERMUTATIONS_HELP,
    )
    ranking = cached(
        cache_key("metric ranking", statistics_key, statistic, grouping, permutations),
        lambda progress: segment_meta.rank_oriented_metrics(
            matrices, statistic, grouping, permutations, DEFAULT_SEED, result
        ),
        "Permutation tests...",
    )
    ranked = list(ranking.defined)
    clicked = st.session_state.get("ranking") or {}
    points = clicked.get("selection", {}).get("points", [])
    index = points[0].get("point_index", 0) if points else 0
    selected = st.selectbox(
        "p-values of",
        ranked,
        index if index < len(ranked) else 0,
        format_func=labels.__getitem__,
        help="Click a metric's bar, or choose it here.",
    )
    label = f"{statistic} ({grouping})"
    st.plotly_chart(
        metric_ranking_figure(ranking, label, labels, selected),
        width="stretch",
        on_select="rerun",
        selection_mode="points",
        key="ranking",
    )
    st.caption(
        "Rank 1: no metric is significantly better (mt-metrics-eval's permutation test, "
        f"{permutations:,} permutations per pair, p < 0.05, its significance clusters). "
        "Click a bar for its p-values."
    )
    _show_unranked(ranking, label, labels)
    if selected is not None:
        st.dataframe(ranking_p_value_frame(ranking, selected, labels), width="stretch")
        st.caption(
            f"{escape_markdown(labels[selected])} against every other metric: the p-value that "
            "the lower ranked of the two is at least as good as the higher (small: the higher "
            f"one is significantly better), from {permutations:,} permutations, not corrected "
            "for multiple comparisons (as in mt-metrics-eval)."
        )


def _show_unranked(ranking: MetricRanking, label: str, labels: Mapping[str, str]) -> None:
    """The metrics whose statistic is undefined, which the figure leaves out, and why."""
    unranked = [metric for metric in ranking.metrics if metric.rank is None]
    if unranked:
        reasons = "; ".join(
            f"{escape_markdown(labels[metric.name])} ({escape_markdown(metric.undefined or '')})"
            for metric in unranked
        )
        st.caption(f"Not ranked, their {escape_markdown(label)} being undefined: {reasons}.")


def _statistics(
    test_set: TestSet, scores: Scores, criterion: str, exclude: Sequence[str], resamples: int
) -> tuple[segment_meta.SegmentMatrices, object]:
    matrices = segment_meta.segment_matrices(test_set, scores, criterion, exclude)
    return matrices, segment_meta.segment_statistics(matrices, resamples, DEFAULT_SEED)


_PERMUTATIONS_HELP = (
    "How often the permutation test swaps two metrics' scores at random, for every pair of "
    "metrics. The command line's metric ranking and mt-metrics-eval use 1,000, as this page does "
    "for acc_eq (a fraction of a second on a 13-system WMT set); the correlations start at 200, "
    "as each permutation recomputes them (about 20 s for Pearson by item with 200, five times "
    "that with 1,000). Each result is kept once computed."
)
_STATISTIC_HELP = (
    "acc_eq: pairwise accuracy with tie calibration (Deutsch et al. 2023), WMT's segment-level "
    "statistic since 2023; acc23 at epsilon 0; Pearson, Spearman, Kendall tau-b/c; Kendall-like "
    "(WMT DARR, pairs whose human scores differ by 25 or more)."
)
