"""Correlation page: how well each metric agrees with the human scores of the current test set."""

from dataclasses import replace

import streamlit as st

from mteval_core.config import SNOWBALL_LANGUAGES
from mteval_core.figures import differential_scatter, metric_human_scatter, reliability_figure
from mteval_core.human import criterion_matrix
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.correlation import pairwise_differentials
from mteval_core.stats.meta import evaluate
from mteval_core.stats.reliability import ReliabilityOptions, reliability_of_test_set
from mteval_core.stats.undefined import UNDEFINED
from mteval_core.tables import correlation_frame, system_segments_frame
from pages.ui import (
    DASHBOARD_METRICS,
    RESAMPLES_HELP,
    cached,
    escape_markdown,
    friendly_errors,
    resample_choices,
    scores_of,
    session_options,
    session_test_set,
)

st.set_page_config(page_title="mteval: correlation", layout="wide")
METRICS = DASHBOARD_METRICS
STEMMERS = ["porter", *(f"snowball-{language}" for language in SNOWBALL_LANGUAGES)]

test_set = session_test_set()
options = session_options()
st.title("Correlation with human judgments")
if test_set.human is None or not len(test_set.human):
    st.info("This test set has no human judgments: add them on the Data page.")
    st.stop()
criteria = test_set.human.criteria
if {"adequacy", "fluency"} <= set(criteria):
    criteria = ["adequacy+fluency", *criteria]
left, middle, right = st.columns(3)
criterion = left.selectbox("Human criterion", criteria, help="adequacy+fluency: Lavie's total")
resamples = middle.select_slider(
    "Bootstrap resamples",
    resample_choices([0, 200, 1000, 2000]),
    value=1000,
    help=f"Segments drawn with replacement, for the intervals. {RESAMPLES_HELP}",
)
current_stemmer = "porter" if options.stem != "snowball" else f"snowball-{options.stem_language}"
stemmer = right.selectbox("Stemmed columns use", STEMMERS, STEMMERS.index(current_stemmer))
exclude = tuple(st.multiselect("Leave out systems", test_set.system_names))
variants = {
    "unstemmed": replace(options, stem="none"),
    "stemmed": replace(
        options, stem=stemmer.split("-")[0], stem_language=stemmer.partition("-")[2] or "english"
    ),
}


def meta_evaluation(variant_options):
    """Scores and every correlation (with intervals) under one set of options, cached."""
    scores = scores_of(test_set, METRICS, variant_options)
    bootstrap = BootstrapOptions(n_resamples=resamples) if resamples else None
    key = ("meta", test_set.content_hash, variant_options, criterion, exclude, resamples)
    result = cached(
        key,
        lambda progress: evaluate(
            test_set, scores, criterion, exclude, bootstrap=bootstrap, progress=progress
        ),
        "Resampling...",
    )
    return scores, result


with friendly_errors():
    scores, result = meta_evaluation(options)  # the options of every page: the scatter's
    by_variant = {name: meta_evaluation(o)[1]["correlations"] for name, o in variants.items()}

st.subheader("Every metric against the human scores")
st.dataframe(correlation_frame(by_variant), width="stretch")
st.caption(
    f"Stemmed: {stemmer}. Intervals: {resamples} bootstrap resamples of the segments (95%, "
    "percentile). Pairwise differences r: Coughlin's correlation of the differences between "
    "every two systems."
)

metric = st.selectbox("Metric", METRICS)
human = result["human"]["scores"]
systems = list(human)
corpus = scores.corpus()
metric_scores = [corpus[s][metric] for s in systems]
statistics = result["correlations"][metric]
undefined = statistics.get(UNDEFINED, {})  # why a statistic is None, e.g. constant human scores
left, right = st.columns(2)
with left:
    chosen = st.plotly_chart(
        metric_human_scatter(
            systems,
            metric_scores,
            list(human.values()),
            metric,
            criterion,
            statistics["pearson"],
            statistics.get("pearson_ci"),
            undefined.get("pearson"),
        ),
        width="stretch",
        on_select="rerun",
        selection_mode="points",
        key="scatter",
    )
dx, dy = pairwise_differentials(metric_scores, list(human.values()))
pairs = [f"{a} − {b}" for i, a in enumerate(systems) for b in systems[i + 1 :]]
right.plotly_chart(
    differential_scatter(
        pairs,
        dx,
        dy,
        metric,
        statistics["differential_pearson"],
        undefined.get("differential_pearson"),
    ),
    width="stretch",
)
st.caption(f"Signature: `{scores.signature}`. Click a system's point to see its segments.")

points = [p for p in chosen.selection.points if p.get("curve_number", 0) == 0]
picked = systems[points[0]["point_index"]] if points else None
system = st.selectbox("Segments of", systems, systems.index(picked) if picked else 0)
if test_set.human is not None and len(test_set.human.segment_rows):
    human_row = criterion_matrix(test_set.human, [system], test_set.n_segments, criterion)[0]
    segment_scores = scores.segment_scores(system, metric)
    st.dataframe(
        system_segments_frame(test_set, segment_scores, human_row, system).head(50),
        width="stretch",
    )
    st.caption(
        f"{escape_markdown(system)}'s rated segments, those where {metric} and people disagree "
        "most first."
    )
st.page_link(
    "pages/3_Bitext_grid.py",
    label=f"Open {escape_markdown(system)}'s segments in the bitext grid",
    query_params={"system": system},
)

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
