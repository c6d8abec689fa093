"""Scores page: every system of the current test set under every metric."""

import streamlit as st

from mteval_core.export import to_csv, to_json, to_latex
from mteval_core.figures import system_scores_bar
from mteval_core.metrics import DEFAULT_METRICS
from mteval_core.tables import scores_frame
from pages.ui import friendly_errors, scores_of, session_options, session_test_set

st.set_page_config(page_title="mteval: scores", layout="wide")


test_set = session_test_set()
options = session_options()
st.title("Scores")
st.caption(f"{test_set.name}; options from the Data page: `{options.preprocessing_signature()}`")

with friendly_errors():
    scores = scores_of(test_set, DEFAULT_METRICS, options)

table = scores_frame(scores)
st.dataframe(table.style.format("{:.4f}"), width="stretch")
st.caption(f"Signature: `{scores.signature}`")
downloads = st.columns(3)
for column, (label, text, name, mime) in zip(
    downloads,
    [
        ("Download CSV", to_csv(scores), "scores.csv", "text/csv"),
        ("Download JSON", to_json(scores), "scores.json", "application/json"),
        ("Download LaTeX", to_latex(scores), "scores.tex", "text/x-tex"),
    ],
):
    column.download_button(label, text, file_name=name, mime=mime)
metric = st.selectbox("Chart", list(table.columns))
st.plotly_chart(system_scores_bar(table[metric].to_dict(), metric), width="stretch")
