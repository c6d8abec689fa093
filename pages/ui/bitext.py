"""What the Bitext grid page shows besides its widgets: the segment list's columns, the link's
first values, and a grid's numbers; the matching itself comes from mteval_core.grid."""

from __future__ import annotations

import streamlit as st

from mteval_core.grid import BitextGrid, compare_matchings, segment_number
from pages.ui.text import escape_markdown

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
    comparison = compare_matchings(grid)
    for column, (label, attribute, number) in zip(st.columns(4), QUANTITIES):
        value = getattr(greedy, attribute)
        if not comparison.differ:
            column.metric(label, number.format(value), help="Greedy and exact agree here.")
            continue
        column.metric(f"{label} greedy", number.format(value))
        exact_value = getattr(exact, attribute)
        column.metric(f"{label} exact", number.format(exact_value), f"{exact_value - value:+.3g}")
    if comparison.finding == "exact not found":
        st.warning("The exact matching was not found in time here: its numbers are the greedy's.")
    elif comparison.finding == "greedy falls short":
        st.info(
            f"GTM 1.4's greedy falls short here: sum of len^e {greedy.weight:.4g} against "
            f"{exact.weight:.4g} for the exact matching."
        )
    elif comparison.finding == "fractional cap":
        st.caption(
            "The exact matching counts whole cells only; GTM 1.4's greedy may take a fraction "
            "of its last cell where the length cap is fractional."
        )
