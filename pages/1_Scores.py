"""Scores page: every system under every metric, how sure each score is (bootstrap intervals) and
which system differences are significant (paired bootstrap, Holm-corrected: systems in
significance clusters, or every pair in a heat map), ready to export."""

import streamlit as st

from mteval_core.stats.bootstrap import BootstrapOptions
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.scores import (
    choose_metric,
    resamples_offer,
    resamples_slider,
    scored_view,
    show_bars,
    show_downloads,
    show_significance,
    show_table,
)
from pages.ui.session import session_options, session_test_set
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: scores", layout="wide")
show_refused_upload()  # while the last upload is refused

test_set = session_test_set()
options = session_options()
# the page opens where a pair can be significant: an all-grey map tells nobody anything
offer = resamples_offer(test_set)
st.title("Scores")
st.caption(
    f"{escape_markdown(test_set.name)}; options from the Data page: "
    f"`{options.preprocessing_signature()}`"
)
bootstrap = BootstrapOptions(n_resamples=resamples_slider(test_set, offer))
with friendly_errors():
    view = scored_view(test_set, options, bootstrap)
    show_table(view)
    chart = choose_metric(view)
    show_bars(view, chart)
    show_significance(view, chart, offer)
    show_downloads(view)
