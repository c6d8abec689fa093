"""Correlation page: how well each metric agrees with the human scores of the current test set."""

import streamlit as st

from mteval_core.config import Options
from mteval_core.errors import InputError
from mteval_core.figures import differential_scatter, metric_human_scatter
from mteval_core.metrics import DEFAULT_METRICS
from mteval_core.sample import current_test_set
from mteval_core.scoring import score_test_set
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.correlation import pairwise_differentials
from mteval_core.stats.meta import evaluate
from mteval_core.tables import correlation_frame
from mteval_core.testset import TestSet

st.set_page_config(page_title="mteval: correlation", layout="wide")
METRICS = (*DEFAULT_METRICS, "gtm")


@st.cache_data(
    show_spinner="Scoring and resampling...", hash_funcs={TestSet: lambda t: t.content_hash}
)
def meta_evaluation(test_set: TestSet, options: Options, criterion, exclude, resamples):
    scores = score_test_set(test_set, METRICS, options)
    bootstrap = BootstrapOptions(n_resamples=resamples) if resamples else None
    return scores, evaluate(test_set, scores, criterion, exclude, bootstrap=bootstrap)


test_set = current_test_set(st.session_state)
options = st.session_state.get("options", Options())
st.title("Correlation with human judgments")
if test_set.human is None or not len(test_set.human):
    st.info("This test set has no human judgments: add them on the Data page.")
    st.stop()
criteria = test_set.human.criteria
if {"adequacy", "fluency"} <= set(criteria):
    criteria = ["adequacy+fluency", *criteria]
left, right = st.columns(2)
criterion = left.selectbox("Human criterion", criteria, help="adequacy+fluency: Lavie's total")
resamples = right.select_slider("Bootstrap resamples", [0, 200, 1000, 2000], value=1000)
exclude = st.multiselect("Leave out systems", test_set.system_names)

try:
    scores, result = meta_evaluation(test_set, options, criterion, tuple(exclude), resamples)
except InputError as error:
    st.error(str(error))
    st.stop()

st.dataframe(correlation_frame(result["correlations"]), width="stretch")

metric = st.selectbox("Metric", METRICS)
human = result["human"]["scores"]
systems = list(human)
corpus = scores.corpus()
metric_scores = [corpus[s][metric] for s in systems]
statistics = result["correlations"][metric]
st.plotly_chart(
    metric_human_scatter(
        systems,
        metric_scores,
        list(human.values()),
        metric,
        criterion,
        statistics["pearson"],
        statistics.get("pearson_ci"),
    ),
    width="stretch",
)
dx, dy = pairwise_differentials(metric_scores, list(human.values()))
pairs = [f"{a} − {b}" for i, a in enumerate(systems) for b in systems[i + 1 :]]
st.plotly_chart(
    differential_scatter(pairs, dx, dy, metric, statistics["differential_pearson"]),
    width="stretch",
)
st.caption(f"Signature: `{scores.signature}`")
