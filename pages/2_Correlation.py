"""Correlation page: how well each metric agrees with the human scores of the current test set.

With judgments of segments (MQM, segment-level DA) the intervals resample the segments, and the
page goes down to them: one system's segments, the segment-level statistics, the reliability
against test size. With judgments of systems only (WMT's DA tables) the intervals resample the
systems, as `mteval correlate` does, and one line says that the segment views need more.
"""

import streamlit as st

from pages.ui.correlation import (
    choose_metric,
    correlation_choice,
    correlations,
    show_comparisons,
    show_reliability,
    show_scatters,
    show_system_segments,
    show_table,
)
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.segment_level import show_segment_level
from pages.ui.session import session_options, session_test_set
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: correlation", layout="wide")
show_refused_upload()  # while the last upload is refused

test_set = session_test_set()
options = session_options()
st.title("Correlation with human judgments")
if test_set.human is None or not len(test_set.human):
    st.info("This test set has no human judgments: add them on the Data page.")
    st.stop()
choice = correlation_choice(test_set, options)
with friendly_errors():
    found = correlations(test_set, options, choice)
show_table(found, choice)
chosen = choose_metric(found, choice)
show_comparisons(found, choice, chosen)
show_scatters(found, choice, chosen)
show_system_segments(test_set, found, choice, chosen)
if not choice.segments:
    st.info(
        f"The judgments under {escape_markdown(choice.criterion)} are system-level only: a "
        "system's rated segments, the segment-level statistics and the reliability against test "
        "size need segment-level judgments."
    )
    st.stop()
resamples = min(choice.resamples, 1000)
show_segment_level(
    test_set, found.scores, found.labels, choice.criterion, choice.exclude, resamples
)
show_reliability(test_set, options, found, choice, chosen)
