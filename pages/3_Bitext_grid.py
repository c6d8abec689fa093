"""Bitext grid page: GTM's matching of one segment, greedy (GTM 1.4) or exact, drawn, and
METEOR's alignment of the same segment (matches by module, chunks), beam or exact.

A system's segments are listed with their GTM F both ways, so the segments where GTM 1.4's greedy
falls short can be sorted to the top and opened with a click. The URL carries ?system=NAME and
?segment=N both ways, so another page can link to a system's segments. With several references
the grid shows all of them side by side (scrolling sideways where they need more than the page)
or one at a time. METEOR's grid shows the reference METEOR keeps (its best for the segment), beside
GTM's grid where both fit half the page, else under it.
"""

from functools import partial

import streamlit as st

from mteval_core.gtm.grid import (
    BitextGrid,
    bitext_grid,
    exact_table_is_quick,
    segment_table,
    segments_matching,
    viewer_exponent,
    viewer_options,
)
from mteval_core.metrics.choices import meteor_cannot_run
from mteval_core.metrics.meteor.segment_view import MeteorSegmentView, meteor_segment_view
from pages.ui.bitext import (
    GRID_WIDTH,
    MATCHINGS,
    TABLE_COLUMNS,
    choose_reference,
    open_clicked_segment,
    preselect_from_url,
    show_grids,
    side_by_side_with_meteor,
)
from pages.ui.caching import cache_key, cached
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.meteor_alignment import VIEWS, choose_search, choose_view, show_meteor_systems
from pages.ui.session import session_options, session_test_set
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: bitext grid", layout="wide")
show_refused_upload()  # while the last upload is refused
test_set = session_test_set()
st.title("Bitext grid")
preselect_from_url(test_set.system_names, test_set.n_segments)
controls = st.columns([3, 3, 2, 3])
system = controls[0].selectbox("System", test_set.system_names, key="bitext_system")
others = [name for name in test_set.system_names if name != system]
if st.session_state.get("bitext_compare") not in others:
    st.session_state.pop("bitext_compare", None)  # back to the first option: no comparison
compare = controls[1].selectbox(
    "Compare with",
    [None, *others],
    format_func=lambda name: "(no other system)" if name is None else name,
    key="bitext_compare",
)
segment = int(
    controls[2].number_input(
        "Segment", min_value=1, max_value=test_set.n_segments, step=1, key="bitext_segment"
    )
)
data_exponent = float(session_options().gtm.exponent)
exponent = controls[3].slider(
    "Exponent e",
    min_value=1.0,
    max_value=3.0,
    value=viewer_exponent(session_options(), 1.0, 3.0),
    step=0.1,
    key="bitext_exponent",
    help="GTM's reward for runs (the paper uses 2; GTM 1.4's default is 1, where the greedy is "
    "already maximal). It starts at the Data page's exponent, which Scores and Correlation use.",
)
if exponent != data_exponent:
    st.caption(
        f"This page uses e = {exponent:g}; Scores and Correlation use e = {data_exponent:g} "
        "from the Data page, so their GTM differs from the F shown here."
    )
left, middle, right = st.columns([4, 4, 3])
matching = left.radio("Matching", MATCHINGS, horizontal=True, key="bitext_matching")
reference = choose_reference(middle, test_set.reference_names)
exact_for_all = right.toggle(
    "Exact F for every segment",
    value=exact_table_is_quick(test_set),
    key="bitext_exact_all",
    help="The grid below is always matched both ways. On a WMT-sized set the exact matching "
    "of every segment takes a while (about 1 s for 3,004 segments and 1 reference, 40 s for "
    "1,002 segments and 3 references), so above 1,000 segments x references it waits for this "
    "switch.",
)
view_column, search_column = st.columns([4, 7])
view = choose_view(view_column, meteor_cannot_run(session_options().meteor.data))
meteor_search = choose_search(search_column) if view != VIEWS[0] else "beam"
st.query_params.update({"system": system, "segment": str(segment)})
options = viewer_options(session_options(), exponent)

with friendly_errors():
    table = cached(
        cache_key("bitext segment table", system, exact_for_all, options=options),
        lambda progress: segment_table(test_set, system, options, exact_for_all, progress),
        f"Matching every segment of {escape_markdown(system)}"
        + (", greedy and exact..." if exact_for_all else " (greedy)..."),
    )
search = st.text_input(
    "Search segments", placeholder="a word of the candidate or a reference", key="bitext_search"
)
with friendly_errors():
    shown = table[segments_matching(test_set, system, search)]
st.dataframe(
    shown,
    hide_index=True,
    column_config=TABLE_COLUMNS,
    height=280,
    on_select=partial(open_clicked_segment, shown["segment"].tolist()),
    selection_mode="single-row",
    key="bitext_table",
)
st.caption(
    f"{len(shown)} of {len(table)} segments of {escape_markdown(system)} at e = {exponent:g}. "
    "Click a row (or type its number above) to open its grid; click a header to sort. Size "
    "shortfall: exact minus greedy matching size, where size = (sum of len^e)^(1/e); below 0 "
    "only where a fractional cap lets the greedy take part of a cell."
)

systems = [system] if compare is None else [system, compare]
grids: dict[str, BitextGrid] = {}
meteor: dict[str, MeteorSegmentView] = {}
for name in systems:
    if view != VIEWS[1]:
        with friendly_errors():
            grids[name] = cached(
                cache_key("bitext grid", name, segment, options=options),
                lambda progress, name=name: bitext_grid(
                    test_set, name, segment, options, exact=True
                ),
                "Matching the segment...",
            )
with friendly_errors(stop=False):  # METEOR's data missing: said once, GTM's grids still drawn
    for name in systems if view != VIEWS[0] else []:
        meteor[name] = cached(
            cache_key("meteor segment view", name, segment),
            lambda progress, name=name: meteor_segment_view(
                test_set.system(name)[segment - 1],
                [r.segments[segment - 1] for r in test_set.references],
                session_options(),
            ),
            "Aligning the segment with METEOR (beam and exact)...",
        )
names = test_set.reference_names
widths = (GRID_WIDTH[1], GRID_WIDTH[2])
if not meteor:
    if grids:
        show_grids(grids, matching == MATCHINGS[1], reference, segment)
elif grids and side_by_side_with_meteor(grids, reference, meteor, meteor_search):
    gtm_place, meteor_place = st.columns(2)
    with gtm_place:
        show_grids(grids, matching == MATCHINGS[1], reference, segment, max_width=GRID_WIDTH[2])
    with meteor_place:
        show_meteor_systems(meteor, meteor_search, names, reference, segment, (GRID_WIDTH[2],) * 2)
else:
    if grids:
        show_grids(grids, matching == MATCHINGS[1], reference, segment)
    show_meteor_systems(meteor, meteor_search, names, reference, segment, widths)
