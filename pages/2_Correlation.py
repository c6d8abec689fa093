"""Correlation page: how well each metric agrees with the human scores of the current test set."""

import streamlit as st

from mteval_core.config import STEMMER_CHOICES, Options, stemmer_choice, stemming_variants
from mteval_core.figures import differential_scatter, metric_human_scatter, reliability_figure
from mteval_core.scoring import Progress, Scores
from mteval_core.stats import meta
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.reliability import ReliabilityOptions, reliability_of_test_set
from mteval_core.tables import correlation_frame, system_segments_frame
from pages.ui import (
    DASHBOARD_METRICS,
    RESAMPLES_HELP,
    cached,
    escape_markdown,
    friendly_errors,
    resample_choices,
    scores_of,
    session_external_metrics,
    session_options,
    session_test_set,
)
from pages.ui.segment_level import show_segment_level

st.set_page_config(page_title="mteval: correlation", layout="wide")

test_set = session_test_set()
options = session_options()
st.title("Correlation with human judgments")
if test_set.human is None or not len(test_set.human):
    st.info("This test set has no human judgments: add them on the Data page.")
    st.stop()
criteria = meta.criterion_choices(test_set.human)  # the default first
left, middle, right = st.columns(3)
criterion = left.selectbox("Human criterion", criteria, help="adequacy+fluency: Lavie's total")
resamples = middle.select_slider(
    "Bootstrap resamples",
    resample_choices([0, 200, 1000, 2000]),
    value=1000,
    help=f"Segments drawn with replacement, for the intervals. {RESAMPLES_HELP}",
)
stemmer = right.selectbox(
    "Stemmed columns use", STEMMER_CHOICES, STEMMER_CHOICES.index(stemmer_choice(options))
)
exclude = tuple(st.multiselect("Leave out systems", test_set.system_names))


def meta_evaluation(variant_options: Options) -> tuple[Scores, meta.MetaEvaluation]:
    """Scores and every correlation (with intervals) under one set of options, cached."""
    scores = scores_of(test_set, DASHBOARD_METRICS, variant_options)
    bootstrap = BootstrapOptions(n_resamples=resamples) if resamples else None
    external = tuple(session_external_metrics())  # part of the key, as in scores_of
    key = ("meta", test_set.content_hash, variant_options, external, criterion, exclude, resamples)

    def compute(progress: Progress) -> meta.MetaEvaluation:
        return meta.evaluate(
            test_set, scores, criterion, exclude, bootstrap=bootstrap, progress=progress
        )

    return scores, cached(key, compute, "Resampling...")


with friendly_errors():
    scores, result = meta_evaluation(options)  # the options of every page: the scatter's
    by_variant = {
        name: meta_evaluation(variant)[1].correlations_as_dicts()
        for name, variant in stemming_variants(options, stemmer).items()
    }

st.subheader("Every metric against the human scores")
st.dataframe(correlation_frame(by_variant), width="stretch")
st.caption(
    f"Stemmed: {stemmer}. Intervals: {resamples} bootstrap resamples of the segments (95%, "
    "percentile). Pairwise differences r: Coughlin's correlation of the differences between "
    "every two systems."
)

metric = st.selectbox("Metric", scores.metric_names)
view = result.against_human(metric)
left, right = st.columns(2)
with left:
    chosen = st.plotly_chart(
        metric_human_scatter(
            view.systems,
            view.metric_scores,
            view.human_scores,
            metric,
            criterion,
            view.correlations.pearson,
            view.correlations.pearson_ci,
            view.correlations.reason("pearson"),  # why r is None, e.g. constant human scores
        ),
        width="stretch",
        on_select="rerun",
        selection_mode="points",
        key="scatter",
    )
right.plotly_chart(
    differential_scatter(
        view.pair_labels,
        view.metric_differences,
        view.human_differences,
        metric,
        view.correlations.differential_pearson,
        view.correlations.reason("differential_pearson"),
    ),
    width="stretch",
)
st.caption(f"Signature: `{scores.signature}`. Click a system's point to see its segments.")

points = [p for p in chosen.selection.points if p.get("curve_number", 0) == 0]  # systems only
system = st.selectbox("Segments of", view.systems, points[0]["point_index"] if points else 0)
segments = meta.segment_scores_against_human(test_set, scores, system, metric, criterion)
if segments is not None:  # segment-level judgments: the segments people and metric disagree on
    frame = system_segments_frame(test_set, *segments, system)
    st.dataframe(frame.head(50), width="stretch")
    st.caption(
        f"{escape_markdown(system)}'s rated segments, those where {metric} and people disagree "
        "most first."
    )
st.page_link(
    "pages/3_Bitext_grid.py",
    label=f"Open {escape_markdown(system)}'s segments in the bitext grid",
    query_params={"system": system},
)

show_segment_level(test_set, scores, criterion, exclude, min(resamples, 1000))

st.subheader("Reliability against test size")
st.caption(
    "Melamed et al. (2003), Figure 3: pseudo-documents of k random segments of one system, the "
    "metric on their summed statistics against their mean human score; 300 documents per size, "
    "10 repetitions, one line per set of references."
)
with friendly_errors():
    curves = cached(
        ("reliability", test_set.content_hash, options, metric, criterion, exclude),
        lambda progress: reliability_of_test_set(
            test_set, metric, criterion, options, ReliabilityOptions(), exclude, progress
        ),
        "Drawing pseudo-documents...",
    )
st.plotly_chart(reliability_figure(curves, metric), width="stretch")
