"""Bitext grid page: GTM's matching of one segment, greedy (GTM 1.4) or exact, drawn, and
METEOR's alignment of the same segment (matches by module, chunks), beam or exact.

A system's segments are listed with their GTM F both ways, so the segments where GTM 1.4's greedy
falls short can be sorted to the top and opened with a click. The URL carries ?system=NAME and
?segment=N both ways, so another page can link to a system's segments. With several references
the grid shows all of them side by side (scrolling sideways where they need more than the page)
or one at a time. The hypothesis is drawn with its error spans where the session has any
(MQM raters, span files, xCOMET's errors). METEOR's grid shows the reference METEOR keeps
(its best for the segment), beside GTM's grid where both fit half the page, else under it.
"""

import streamlit as st

from pages.ui.bitext import (
    bitext_choice,
    gtm_grids,
    meteor_views,
    show_segment_spans,
    show_segment_table,
    show_views,
)
from pages.ui.session import session_test_set
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: bitext grid", layout="wide")
show_refused_upload()  # while the last upload is refused
test_set = session_test_set()
st.title("Bitext grid")
choice = bitext_choice(test_set)
show_segment_table(test_set, choice)
show_segment_spans(test_set, choice)
grids = gtm_grids(test_set, choice)
meteor = meteor_views(test_set, choice)
show_views(test_set, choice, grids, meteor)
