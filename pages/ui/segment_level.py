"""The Correlation page's segment-level view: every statistic by grouping with its interval and
the constant baseline, a density of the rated cells, and the metrics ranked in clusters."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from mteval_core.figures import metric_ranking_figure, segment_density
from mteval_core.scoring import Scores
from mteval_core.stats import segment_meta
from mteval_core.stats.bootstrap import DEFAULT_SEED
from mteval_core.stats.segment_level import ACCURACIES, CORRELATIONS, GROUPINGS
from mteval_core.tables import segment_level_frame
from mteval_core.testset import TestSet
from pages.ui import cached, escape_markdown, friendly_errors, session_external_metrics

STATISTICS = (*ACCURACIES[::-1], *CORRELATIONS)  # acc_eq first: WMT's segment-level statistic
RANKING_PERMUTATIONS = 200
AUTOMATIC_CELLS = 5_000  # larger test sets compute the view when asked


def show_segment_level(
    test_set: TestSet,
    scores: Scores,
    criterion: str,
    exclude: Sequence[str],
    resamples: int,
) -> None:
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
    external = tuple(session_external_metrics())  # part of the key, as in scores_of
    key = (test_set.content_hash, scores.signature, external, criterion, tuple(exclude), resamples)
    with friendly_errors(stop=False):
        matrices, result = cached(
            ("segment level", *key),
            lambda progress: _statistics(test_set, scores, criterion, exclude, resamples),
            "Segment-level statistics...",
        )
        correlations = segment_meta.segment_correlations(matrices, result)
        left, right = st.columns(2)
        statistic = left.selectbox("Statistic", STATISTICS, help=_STATISTIC_HELP)
        metric = right.selectbox("Metric for the density", list(matrices.metrics))
        st.dataframe(segment_level_frame(correlations, statistic, GROUPINGS), width="stretch")
        st.caption(
            f"{result.n_cells:,} rated cells of {len(matrices.systems)} systems; "
            f"{escape_markdown(matrices.oriented)}. Groupings: none = all cells together, item = "
            "across systems within a segment, system = across segments within a system "
            f"(mt-metrics-eval's). Intervals: {resamples:,} segment resamples."
        )
        st.plotly_chart(
            segment_density(matrices.metrics[metric], matrices.human, metric, criterion),
            width="stretch",
        )
        grouping = st.radio("Rank the metrics by grouping", GROUPINGS, index=1, horizontal=True)
        ranking = cached(
            ("metric ranking", *key, statistic, grouping),
            lambda progress: segment_meta.rank_oriented_metrics(
                matrices, statistic, grouping, RANKING_PERMUTATIONS, DEFAULT_SEED, result
            ),
            "Permutation tests...",
        )
        label = f"{statistic} ({grouping})"
        st.plotly_chart(metric_ranking_figure(ranking, label), width="stretch")
        st.caption(
            f"Rank 1: no metric is significantly better (mt-metrics-eval's permutation test, "
            f"{RANKING_PERMUTATIONS} permutations, p < 0.05, its significance clusters)."
        )


def _statistics(
    test_set: TestSet, scores: Scores, criterion: str, exclude: Sequence[str], resamples: int
) -> tuple[segment_meta.SegmentMatrices, object]:
    matrices = segment_meta.segment_matrices(test_set, scores, criterion, exclude)
    return matrices, segment_meta.segment_statistics(matrices, resamples, DEFAULT_SEED)


_STATISTIC_HELP = (
    "acc_eq: pairwise accuracy with tie calibration (Deutsch et al. 2023), WMT's segment-level "
    "statistic since 2023; acc23 at epsilon 0; Pearson, Spearman, Kendall tau-b/c; Kendall-like "
    "(WMT DARR, pairs whose human scores differ by 25 or more)."
)
