"""Bitext grid page: GTM's matching of one segment, greedy (GTM 1.4) or exact, drawn.

A system's segments are listed with their GTM F both ways, so the segments where GTM 1.4's greedy
falls short can be sorted to the top and opened with a click. The URL carries ?system=NAME and
?segment=N both ways, so another page can link to a system's segments.
"""

import re
from dataclasses import replace
from functools import partial

import streamlit as st

from mteval_core.figures import bitext_grid_figure
from mteval_core.grid import BitextGrid, bitext_grid, segment_table, segments_matching
from pages.ui import cached, escape_markdown, friendly_errors, session_options, session_test_set

st.set_page_config(page_title="mteval: bitext grid", layout="wide")
MATCHINGS = ("greedy (GTM 1.4)", "exact (maximum)")
GRID_WIDTH = {1: 1150, 2: 560}  # pixels a grid may take, alone or beside another
QUANTITIES = (  # label, GridMatching attribute, format
    ("P", "precision", "{:.3f}"),
    ("R", "recall", "{:.3f}"),
    ("F", "f", "{:.3f}"),
    ("sum of len^e", "weight", "{:.4g}"),
)
TABLE_COLUMNS = {
    "segment": st.column_config.NumberColumn(format="%d"),
    "F greedy": st.column_config.NumberColumn(
        format="%.3f", help="GTM F at the chosen exponent, GTM 1.4's greedy matching"
    ),
    "F exact": st.column_config.NumberColumn(
        format="%.3f", help="GTM F at the chosen exponent, the exact maximum matching"
    ),
    "size shortfall": st.column_config.NumberColumn(
        format="%.3f",
        help="Exact minus greedy matching size, size = (sum of len^e)^(1/e): how far GTM 1.4's "
        "greedy falls short of the maximum",
    ),
    "candidate tokens": st.column_config.NumberColumn(format="%d"),
    "reference tokens": st.column_config.NumberColumn("reference tokens (mean)", format="%.1f"),
    "candidate": st.column_config.TextColumn(width="large"),
}


def segment_number(text: str, n_segments: int) -> int | None:
    """``text`` as a segment number from 1 to ``n_segments``, else None. ASCII digits only:
    str.isdigit() also accepts '²', which int() refuses, and a number of 5,000 digits would make
    int() raise, so the length is checked first."""
    if not re.fullmatch(r"[0-9]{1,9}", text):
        return None
    number = int(text)
    return number if 1 <= number <= n_segments else None


def preselect_from_url(systems: list[str], n_segments: int) -> None:
    """On arrival, ?system= and ?segment= give the widgets their first values; bad ones are
    named in a warning and ignored. Values left from another test set are dropped quietly."""
    if st.session_state.get("bitext_system") not in systems:
        st.session_state.pop("bitext_system", None)
        name = st.query_params.get("system")
        if name in systems:
            st.session_state["bitext_system"] = name
        elif name is not None:
            st.warning(
                f"The link asks for system “{escape_markdown(name)}”, which this test set does "
                "not have."
            )
    if st.session_state.get("bitext_segment", 1) > n_segments:
        st.session_state.pop("bitext_segment")
    if "bitext_segment" not in st.session_state and "segment" in st.query_params:
        number = st.query_params["segment"]
        if (segment := segment_number(number, n_segments)) is not None:
            st.session_state["bitext_segment"] = segment
        else:
            st.warning(
                f"The link asks for segment “{escape_markdown(number)}”; this test set has "
                f"segments 1 to {n_segments}."
            )


def open_clicked_segment(segments: list[int]) -> None:
    """A clicked row opens its segment: this callback runs before the widgets are drawn again.

    ``segments`` are the segment numbers of the rows as listed; a row's position in the
    selection counts in that list whatever order the user sorted the table in.
    """
    rows = st.session_state["bitext_table"]["selection"]["rows"]
    if rows:
        st.session_state["bitext_segment"] = segments[rows[0]]


def show_numbers(grid: BitextGrid) -> None:
    """P, R, F and sum of len^e; greedy and exact one above the other where they differ."""
    greedy, exact = grid.greedy, grid.exact
    differ = abs(exact.weight - greedy.weight) > 1e-9 * max(greedy.weight, 1.0)
    for column, (label, attribute, number) in zip(st.columns(4), QUANTITIES):
        value = getattr(greedy, attribute)
        if not differ:
            column.metric(label, number.format(value), help="Greedy and exact agree here.")
            continue
        column.metric(f"{label} greedy", number.format(value))
        exact_value = getattr(exact, attribute)
        column.metric(f"{label} exact", number.format(exact_value), f"{exact_value - value:+.3g}")
    if exact.method == "greedy-fallback":
        st.warning("The exact matching was not found in time here: its numbers are the greedy's.")
    elif exact.weight > greedy.weight and differ:
        st.info(
            f"GTM 1.4's greedy falls short here: sum of len^e {greedy.weight:.4g} against "
            f"{exact.weight:.4g} for the exact matching."
        )
    elif differ:
        st.caption(
            "The exact matching counts whole cells only; GTM 1.4's greedy may take a fraction "
            "of its last cell where the length cap is fractional."
        )


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
exponent = controls[3].slider(
    "Exponent e",
    min_value=1.0,
    max_value=3.0,
    value=2.0,
    step=0.5,
    key="bitext_exponent",
    help="GTM's reward for runs, on this page only; at 1 the greedy is already maximal.",
)
matching = st.radio("Matching", MATCHINGS, horizontal=True, key="bitext_matching")
st.query_params.update({"system": system, "segment": str(segment)})
options = replace(session_options(), gtm_exponent=exponent, gtm_matching="greedy")

with friendly_errors():
    table = cached(
        ("bitext segment table", test_set.content_hash, system, options),
        lambda progress: segment_table(test_set, system, options),
        f"Matching every segment of {escape_markdown(system)}, greedy and exact...",
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
for place, name in zip(st.columns(len(systems)), systems):
    with place:
        with friendly_errors():
            grid = cached(
                ("bitext grid", test_set.content_hash, name, segment, options),
                lambda progress, name=name: bitext_grid(
                    test_set, name, segment, options, exact=True
                ),
                "Matching the segment...",
            )
        if compare is not None:
            st.subheader(escape_markdown(name))
        show_numbers(grid)
        drawn = grid.exact if matching == MATCHINGS[1] else grid.greedy
        figure = bitext_grid_figure(
            grid, drawn, f"{name}, segment {segment}", GRID_WIDTH[len(systems)]
        )
        st.plotly_chart(figure, width="content")
