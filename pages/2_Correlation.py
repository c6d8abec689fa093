"""Correlation page: how well each metric agrees with the human scores of the current test set.

With judgments of segments (MQM, segment-level DA) the intervals resample the segments, and the
page goes down to them: one system's segments, the segment-level statistics, the reliability
against test size. With judgments of systems only (WMT's DA tables) the intervals resample the
systems, as `mteval correlate` does, and one line says that the segment views need more.
"""

import pandas as pd
import streamlit as st

from mteval_core.metrics.external import ExternalMetric
from mteval_core.metrics.scoring import Progress, Scores
from mteval_core.report.comparison_frames import metric_comparison_frame
from mteval_core.report.figures import differential_scatter, reliability_figure, system_scatter
from mteval_core.report.frames import (
    correlation_frame,
    primary_correlation_columns,
    system_segments_frame,
)
from mteval_core.report.writers import metric_labels
from mteval_core.settings.languages import languages_of, stemmer_for
from mteval_core.settings.options import STEMMER_CHOICES, Options, stemming_variants
from mteval_core.stats import meta
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.reliability import ReliabilityOptions, is_quick, reliability_of_test_set
from mteval_core.stats.undefined import UNDEFINED
from pages.ui.caching import cache_key, cached
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.resamples import RESAMPLES_HELP, resample_choices, warn_of_few_resamples
from pages.ui.segment_level import show_segment_level
from pages.ui.session import session_options, session_test_set
from pages.ui.session_scores import scores_of
from pages.ui.table_display import chosen_columns, static_table
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: correlation", layout="wide")
show_refused_upload()  # while the last upload is refused

test_set = session_test_set()
options = session_options()
st.title("Correlation with human judgments")
if test_set.human is None or not len(test_set.human):
    st.info("This test set has no human judgments: add them on the Data page.")
    st.stop()
# the default first; every part below that is the same for every session with this content
# and these choices is cached (keyed by cache_key), so a second session only draws it
criteria = cached(cache_key("criteria"), lambda _: tuple(meta.criterion_choices(test_set.human)))
left, middle, right = st.columns(3)
if len(criteria) > 1:
    criterion = left.selectbox("Human criterion", criteria, help="adequacy+fluency: Lavie's total")
else:
    criterion = criteria[0]
    left.caption(f"Human criterion: {escape_markdown(criterion)}, the only one judged.")
segments = cached(
    cache_key("segment judgments", criterion),
    lambda _: meta.has_segment_judgments(test_set.human, criterion),
)
units = "Segments" if segments else "Systems (the judgments are system-level only)"
resamples = middle.select_slider(
    "Bootstrap resamples",
    resample_choices([0, 200, 1000, 2000]),
    value=1000,
    help=f"{units} drawn with replacement, for the intervals and the comparisons of metrics. "
    f"{RESAMPLES_HELP}",
)
stemmer = right.selectbox(
    "Stemmed columns use",
    STEMMER_CHOICES,
    STEMMER_CHOICES.index(stemmer_for(options, languages_of(test_set))),
)
exclude = tuple(st.multiselect("Leave out systems", test_set.system_names))
rated_only = segments and st.toggle(
    "Rated segments only",
    help="Score each system on the segments people rated, not on all of them (as the command "
    "line can): for judgments that cover part of the test set.",
)


def meta_evaluation(variant_options: Options) -> tuple[Scores, meta.MetaEvaluation]:
    """Scores and every correlation (with intervals) under one set of options, cached."""
    scores = scores_of(test_set, variant_options)
    bootstrap = BootstrapOptions(n_resamples=resamples) if resamples else None
    key = cache_key("meta", criterion, exclude, rated_only, resamples, options=variant_options)

    def compute(progress: Progress) -> meta.MetaEvaluation:
        return meta.evaluate_and_compare(
            test_set, scores, criterion, exclude, rated_only, bootstrap, progress
        )

    return scores, cached(key, compute, "Resampling...")


def disagreements(system: str, metric: str) -> pd.DataFrame:
    """The system's 50 segments where the metric and people disagree most."""
    segment_scores = meta.segment_scores_against_human(test_set, scores, system, metric, criterion)
    assert segment_scores is not None  # segment-level judgments
    higher = scores.metrics[scores.metric_names.index(metric)].higher_is_better
    return system_segments_frame(test_set, *segment_scores, system, higher).head(50)


def interval_note(evaluation: meta.MetaEvaluation) -> str:
    """What the intervals of the table and of the comparisons come from."""
    if evaluation.resampled_units == "segments":
        return f"Intervals: {resamples:,} bootstrap resamples of the segments (95%, percentile)."
    if evaluation.resampled_units == "systems":
        return (
            f"Intervals: {resamples:,} bootstrap resamples of the systems (95%, percentile), as "
            "`mteval correlate` draws them: the judgments are system-level only, so there are "
            "no segments to resample."
        )
    return "No intervals: choose a number of bootstrap resamples above."


with friendly_errors():
    scores, result = meta_evaluation(options)  # the options of every page: the scatter's
    by_variant = {
        name: meta_evaluation(variant)[1].correlations_as_dicts()
        for name, variant in stemming_variants(options, stemmer).items()
    }
labels = metric_labels(scores.metrics)
choices = (criterion, exclude, rated_only, resamples)  # what every figure and table depends on

st.subheader("Every metric against the human scores")
table = cached(
    cache_key("correlation table", stemmer, *choices),
    lambda _: correlation_frame(by_variant, labels),
)
st.dataframe(
    chosen_columns(st, table, primary_correlation_columns(list(table.columns))), width="stretch"
)
st.caption(
    f"Stemmed: {stemmer}. {interval_note(result)} "
    + ("Metric scores on the rated segments only. " if rated_only else "")
    + "Pairwise differences r: Coughlin's correlation of the differences between every two "
    "systems."
)
if result.resampled_units is not None:  # intervals from resamples: are they enough?
    warn_of_few_resamples(BootstrapOptions(n_resamples=resamples))

left, right = st.columns(2)
metric = left.selectbox("Metric", scores.metric_names, format_func=labels.__getitem__)
label = labels[metric]
view = result.against_human(metric)
clicked = st.session_state.get("scatter") or {}
points = [  # the systems' trace only
    p for p in clicked.get("selection", {}).get("points", []) if p.get("curve_number", 0) == 0
]
system = right.selectbox(
    "Segments of" if segments else "Highlight system",
    view.systems,
    points[0]["point_index"] if points and points[0]["point_index"] < len(view.systems) else 0,
    help="Marked in both plots below (its pairs among the differences); click a point in the "
    "scatter to choose it, or type a name here.",
)

comparisons = result.compared_with(metric)
if comparisons:
    static_table(
        st,
        cached(
            cache_key("metric comparisons", metric, *choices),
            lambda _: metric_comparison_frame(comparisons, labels),
        ),
    )
    st.caption(
        f"{escape_markdown(label)} (selected) against every other metric: the other's Pearson "
        "r; Williams' test (Graham & Baldwin 2014), the one-sided p that one correlates better "
        "than the other; the share of the bootstrap resamples in which the selected metric's r "
        "is the higher."
    )

left, right = st.columns(2)
scatter, differences = cached(  # cached figures are only read (drawn), never changed
    cache_key("correlation scatters", metric, system, *choices),
    lambda _: (
        system_scatter(view, label, criterion, system),
        differential_scatter(
            view.pair_labels,
            view.metric_differences,
            view.human_differences,
            label,
            view.correlations.differential_pearson,
            view.correlations.reason("differential_pearson"),
            view.pairs_with(system),
        ),
    ),
)
left.plotly_chart(
    scatter, width="stretch", on_select="rerun", selection_mode="points", key="scatter"
)
right.plotly_chart(differences, width="stretch")
st.caption(
    f"Signature: `{scores.signature}`. Names of the systems on hover, on the extremes of each "
    "axis and on the highlighted system; click a point to highlight it"
    + (" and see its segments below." if segments else ".")
    + (
        ""
        if scores.metrics[scores.metric_names.index(metric)].higher_is_better
        else f" {escape_markdown(label)} is lower-is-better: the plots show its scores as they "
        "are (agreement slopes down), and every r is computed on them negated, as "
        "mt-metrics-eval does, so that a positive r means agreement."
    )
)

without_segments = scores.without_segments()  # metric -> why it has no segment scores
if segments and metric in without_segments:
    st.info(
        escape_markdown(
            f"{system}'s segments under {label}: {UNDEFINED} ({without_segments[metric]})."
        )
    )
elif segments:  # segment-level judgments: the segments people and metric disagree on
    st.dataframe(
        cached(
            cache_key("segments against human", metric, system, criterion),
            lambda _: disagreements(system, metric),
        ),
        width="stretch",
    )
    st.caption(
        f"{escape_markdown(system)}'s rated segments, those where {escape_markdown(label)} and "
        "people disagree most first."
    )
st.page_link(
    "pages/3_Bitext_grid.py",
    label=f"Open {escape_markdown(system)}'s segments in the bitext grid",
    query_params={"system": system},
)

if not segments:
    st.info(
        f"The judgments under {escape_markdown(criterion)} are system-level only: a system's "
        "rated segments, the segment-level statistics and the reliability against test size "
        "need segment-level judgments."
    )
    st.stop()

show_segment_level(test_set, scores, labels, criterion, exclude, min(resamples, 1000))

st.subheader("Reliability against test size")
st.caption(
    "Melamed et al. (2003), Figure 3: pseudo-documents of k random segments of one system, the "
    "metric on their summed statistics against their mean human score; 300 documents per size, "
    "10 repetitions, one line per set of references."
)
if isinstance(scores.metrics[scores.metric_names.index(metric)], ExternalMetric):
    st.info(
        escape_markdown(
            f"{label}'s scores come from a file: the curves score every pseudo-document again "
            "with every set of references, which only the built-in metrics can do. Choose one "
            "of them above for its curves."
        )
    )
elif st.toggle(
    "Draw the reliability curves",
    value=cached(cache_key("reliability is quick"), lambda _: is_quick(test_set)),
    key=f"reliability_{test_set.content_hash}",
    help="On by itself where it takes about a second; with several references every "
    "combination of them is scored again (several seconds on a WMT set).",
):
    with friendly_errors():
        curves = cached(
            cache_key("reliability", metric, criterion, exclude, options=options),
            lambda progress: reliability_of_test_set(
                test_set, metric, criterion, options, ReliabilityOptions(), exclude, progress
            ),
            "Drawing pseudo-documents...",
        )
    st.plotly_chart(reliability_figure(curves, label), width="stretch")
