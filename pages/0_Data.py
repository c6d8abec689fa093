"""Data page: upload a test set (or keep the sample) and choose the options every page uses."""

import streamlit as st

from mteval_core.report.frames import mqm_overview, segment_preview
from mteval_core.settings.limits import (
    MAX_UPLOAD_MB,
    MAX_UPLOAD_SEGMENTS,
    MAX_UPLOAD_SYSTEMS,
    MAX_UPLOAD_TEXTS,
)
from pages.ui.data import (
    add_external_metric,
    choose_options,
    load_upload,
    offer_the_sample,
    upload_form,
)
from pages.ui.markdown_escape import escape_markdown
from pages.ui.overview import show_overview
from pages.ui.session import session_mqm, session_test_set
from pages.ui.upload_chips import show_whole_file_names
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: data", layout="wide")

st.title("Data")
st.markdown(
    "Upload references and system outputs in any format mteval reads (plain text with one "
    "segment per line, CSV/TSV or JSON Lines long format, NIST mteval SGML, WMT XML); the "
    "format is recognised by the file's extension (.jsonl, .sgm, .xml, .tsv, .csv) or by its "
    "whole content, and anything else is plain text; a note says which reading a file got when "
    "it could be read two ways. Everything stays in your session: other users never see it."
)
st.caption(
    f"Limits of this shared server: files of up to {MAX_UPLOAD_MB} MB each; a test set of up to "
    f"{MAX_UPLOAD_SEGMENTS:,} segments, {MAX_UPLOAD_SYSTEMS} systems and {MAX_UPLOAD_TEXTS:,} "
    "segment texts in all (segments times references and systems). Score larger test sets with "
    "the command line (mteval score)."
)
show_whole_file_names()  # WMT file names differ past the 20 characters a chip shows
form = upload_form()
if form.submitted:
    load_upload(form)
offer_the_sample()
show_refused_upload()  # here, below the form: other pages say it at their top (app.py)

test_set = session_test_set()
st.subheader(f"Current test set: {escape_markdown(test_set.name)}")
show_overview(test_set)
if (annotations := session_mqm()) is not None:
    st.markdown("**MQM annotations:** " + escape_markdown(mqm_overview(annotations)))
st.dataframe(segment_preview(test_set, rows=5), width="stretch")

st.subheader("Options for every page")
choose_options(test_set)

st.subheader("Metric scores computed elsewhere")
add_external_metric(test_set)
