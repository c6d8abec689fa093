"""Spans page: error spans drawn in the text, every annotation of one translation side by side
(human raters of the Data page's MQM file, an ESA export or a WMT25 task 2 file uploaded
here, xCOMET's errors in a comet-score JSON given on the Data page), filtered by severity
and category, and one annotation's spans scored against another's as WMT25 task 2 scores
them. Files given here are drawn on Compare and the Bitext grid too."""

import streamlit as st

from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.session import session_test_set
from pages.ui.spans import (
    UPLOAD_HINT,
    chosen_comparison,
    chosen_filters,
    evaluation_of,
    picked_translation,
    show_scores,
    show_side_by_side,
    span_sources,
)
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: spans", layout="wide")
show_refused_upload()  # while the last upload is refused
st.title("Error spans")
st.caption(
    "Where annotators (people or metrics) marked errors in a translation, drawn in its text: "
    "each error on its severity's colour, overlapping errors underlined twice, an omission as "
    "a caret. Offsets count characters (code points) as WMT25's scoring does."
)

with friendly_errors():
    sources = span_sources(session_test_set())
if not sources:
    st.info(UPLOAD_HINT)
    st.stop()
file_notes = [note for source in sources.values() for note in source.read.notes]
for note in file_notes:
    st.caption(escape_markdown(note))

st.subheader("One translation, every annotation")
with friendly_errors():
    annotations = picked_translation(sources)
    severities, categories = chosen_filters([annotation for _, annotation in annotations])
    show_side_by_side(annotations, severities, categories)

st.subheader("One annotation against another")
with friendly_errors():
    gold, gold_choice, predicted, predicted_choice = chosen_comparison(sources)
    show_scores(evaluation_of(sources, gold, gold_choice, predicted, predicted_choice), file_notes)
