"""mteval dashboard, home page: what the dashboard does and the current test set at a glance."""

import streamlit as st

from mteval_core.sample import current_test_set, load_sample
from mteval_core.tables import overview, segment_preview

st.set_page_config(page_title="mteval", layout="wide")


loaded = load_sample()
test_set = current_test_set(st.session_state)  # an upload from the Data page, or the sample

st.title("mteval")
st.markdown(
    "Evaluate machine translation with exact lexical metrics (BLEU and NIST as sacreBLEU and "
    "mteval-v13a compute them; unigram precision, recall, F1 and Fmean as Lavie et al. 2004 define "
    "them; GTM as GTM 1.4 computes it, or with the true maximum matching), with and without "
    "stemming, and see how well each agrees with human judgments."
)

st.subheader(f"Current test set: {test_set.name}")
st.caption(
    "The dashboard opens on the project's own sample: German to English, with illustrative "
    "TIDES-style adequacy and fluency judgments (see sample_data/README.md)."
)
facts = overview(test_set)
for column, (label, value) in zip(st.columns(len(facts)), facts.items()):
    column.markdown(f"**{label}**  \n{value}")
for note in loaded.notes if test_set is loaded.test_set else []:
    st.info(note)

st.dataframe(segment_preview(test_set, rows=10), width="stretch")
st.page_link("pages/0_Data.py", label="Data: upload your own test set, choose the options")
st.page_link("pages/1_Scores.py", label="Scores: every system under every metric")
st.page_link("pages/2_Correlation.py", label="Correlation: which metric agrees with people")
st.page_link("pages/3_Bitext_grid.py", label="Bitext grid: GTM's matching of a segment, drawn")
st.page_link("pages/4_Loss.py", label="Loss: which system is best when errors cost differently")
