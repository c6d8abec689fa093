"""Rankings page: official rankings as WMT makes them. With WMT's files uploaded here, a human
ranking by the procedure chosen among those the files fit (WMT23 from a DA+SQM export, WMT24
from Appraise ESA waves, WMT25 from its humeval JSON Lines or Pearmut logs, or custom: its parts
chosen; rank ranges, clusters) and WMT25's AutoRank from its
automatic scores, joined by system name where a pair has both, the systems whose two rank ranges
do not overlap marked; without them, the AutoRank of the session's own test set over its metrics.
One pair at a time: its table, a figure of rank ranges, and the test of two of its systems, with
the way to the Compare page where the session's test set holds both."""

import streamlit as st

from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.rankings import (
    WMT25_CAPTION,
    UploadedRankings,
    human_caption,
    human_files,
    pair_autorank,
    procedure_choice,
    ranking_uploads,
    resamples_choice,
    session_autorank,
    session_caption,
    session_metric_choice,
    show_pair,
    show_pair_test,
    uploaded_rankings,
)
from pages.ui.session import session_test_set
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: rankings", layout="wide")
show_refused_upload()  # while the last upload is refused


def session_ranking(compare_systems: set[str]) -> None:
    """No uploads: AutoRank of the session's test set over the metrics chosen here."""
    test_set = session_test_set()
    if len(test_set.systems) < 2:
        st.info("A ranking takes two systems; this test set has one. Upload more on the Data page.")
        return
    choices, slider = st.columns([3, 2])
    with choices:
        metrics = session_metric_choice()
    with slider:
        resamples = resamples_choice()
    if not metrics:
        st.info("Choose at least one metric.")
        return
    with friendly_errors():
        ranking = session_autorank(metrics, resamples)
    st.caption(session_caption(test_set.name, resamples))
    show_pair(ranking, None)
    show_pair_test(ranking, compare_systems)


def uploaded_pair(found: UploadedRankings, compare_systems: set[str]) -> None:
    """One pair of the uploads: its human ranking with the AutoRank beside it, or either."""
    left, right = st.columns([3, 2])
    pair = left.selectbox(f"Language pair ({len(found.pairs)})", found.pairs, key="rankings_pair")
    with right:
        resamples = resamples_choice() if pair in found.scores else 0
    autorank = None
    if pair in found.scores:
        with friendly_errors():
            autorank = pair_autorank(found, pair, resamples)
    human = found.human.get(pair)
    shown = [human_caption(human)] if human is not None else []
    st.caption(" ".join([*shown, *([WMT25_CAPTION] if autorank is not None else [])]))
    ranking = human if human is not None else autorank
    show_pair(ranking, autorank if human is not None else None)  # joined by system name
    show_pair_test(ranking, compare_systems)


st.title("Rankings")
uploads = ranking_uploads()
compare_systems = set(session_test_set().system_names)  # the pairs Compare can open
if uploads.metadata is not None and not uploads.scores:
    st.info("The systems metadata says which of WMT25's score files count: upload them too.")
if uploads.empty:
    session_ranking(compare_systems)
    st.stop()
with friendly_errors():
    files = human_files(uploads)
procedure = (files, *procedure_choice(files)) if files is not None else None
with friendly_errors():
    found = uploaded_rankings(uploads, procedure)
for note in found.notes:
    st.caption(escape_markdown(note))
if not found.pairs:
    st.info("The uploads hold no language pair to rank.")
    st.stop()
uploaded_pair(found, compare_systems)
