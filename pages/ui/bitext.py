"""What the Bitext grid page shows besides its widgets: the segment list's columns, the link's
first values, the reference chooser, and each system's numbers and grid; the matching itself comes
from mteval_core.gtm.grid, the figure from mteval_core.report.figures."""

from __future__ import annotations

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mteval_core.gtm.grid import BitextGrid, compare_matchings, one_reference, segment_number
from mteval_core.metrics.meteor.segment_view import MeteorSegmentView
from mteval_core.report.figures import (
    bitext_grid_figure,
    bitext_grid_width,
    meteor_alignment_width,
)
from pages.ui.markdown_escape import escape_markdown

MATCHINGS = ("greedy (GTM 1.4)", "exact (maximum)")
# Pixels a grid may take before its row scrolls, alone or beside another: the page's column in a
# 1,400-px window beside the sidebar. Wider grids (several long references) keep their width.
GRID_WIDTH = {1: 940, 2: 460}
# Streamlit shrinks every element to its container's width: Plotly then squeezes a wide grid's
# square cells into a strip and leaves the space under it empty. In the grids' rows (keyed
# bitext_grid_N, horizontal rows that scroll instead of wrapping) a figure keeps its own width.
WIDE_GRIDS_CSS = (
    "<style>[class*='st-key-bitext_grid_'] [data-testid='stElementContainer']"
    " {max-width: none}</style>"
)
SCROLL_HINT = (
    "A grid wider than the page scrolls sideways (Shift + mouse wheel, or its scroll bar). Drag "
    "a box to zoom in, double-click to zoom out; hover a cell to read both tokens."
)
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


def choose_reference(place: DeltaGenerator, names: list[str]) -> int | None:
    """The reference whose columns the grids show, None for all; asked only with several, where
    all of them side by side make a grid several screens wide."""
    if len(names) < 2:
        return None
    options = [None, *range(len(names))]
    if st.session_state.get("bitext_reference") not in options:
        st.session_state.pop("bitext_reference", None)  # left from a test set with more
    return place.radio(
        "References",
        options,
        format_func=lambda k: f"all {len(names)}" if k is None else escape_markdown(names[k]),
        horizontal=True,
        key="bitext_reference",
        help="One reference's columns fit the page with larger cells; all of them side by side "
        "may need scrolling. GTM matches against all references at once either way.",
    )


def show_grids(
    grids: dict[str, BitextGrid],
    exact: bool,
    reference: int | None,
    segment: int,
    max_width: int | None = None,
) -> None:
    """Each system's numbers and grid: side by side where every grid fits half the page with
    readable cells, else one above the other at the page's width (or ``max_width``, in half the
    page beside METEOR's grid), in rows that scroll sideways where a grid is wider still."""
    st.html(WIDE_GRIDS_CSS)
    shown = {name: _shown(grid, reference) for name, grid in grids.items()}
    side_by_side = len(grids) > 1 and all(
        bitext_grid_width(grid, GRID_WIDTH[2]) <= GRID_WIDTH[2] for grid in shown.values()
    )
    width = GRID_WIDTH[2] if side_by_side else max_width or GRID_WIDTH[1]
    places = st.columns(len(grids)) if side_by_side else [st.container() for _ in grids]
    widest = 0
    for number, (place, (name, grid)) in enumerate(zip(places, grids.items())):
        title = f"{name}, segment {segment}"
        if reference is not None:
            title += f", {grid.reference_names[reference]} only"
        part = shown[name]
        drawn = part.exact if exact and part.exact is not None else part.greedy
        figure = bitext_grid_figure(part, drawn, title, width)
        widest = max(widest, figure.layout.width)
        with place:
            if len(grids) > 1:
                st.subheader(escape_markdown(name))
            show_numbers(grid)
            with st.container(horizontal=True, wrap=False, key=f"bitext_grid_{number}"):
                st.plotly_chart(figure, width="content")
    if reference is not None:
        name = escape_markdown(next(iter(grids.values())).reference_names[reference])
        st.caption(
            f"The grid shows the columns of {name}, and the matching's blocks there, numbered "
            "among themselves; P, R and F count the matching against all references."
        )
    if widest > GRID_WIDTH[1]:
        st.caption(SCROLL_HINT)


def side_by_side_with_meteor(
    grids: dict[str, BitextGrid],
    reference: int | None,
    meteor: dict[str, MeteorSegmentView],
    search: str,
) -> bool:
    """One system's GTM grid and METEOR grid fit beside each other, each in half the page."""
    if len(grids) != 1 or len(meteor) != 1:
        return False
    half = GRID_WIDTH[2]
    grid, view = next(iter(grids.values())), next(iter(meteor.values()))
    return (
        bitext_grid_width(_shown(grid, reference), half) <= half
        and meteor_alignment_width(view, search, half) <= half
    )


def _shown(grid: BitextGrid, reference: int | None) -> BitextGrid:
    """The grid, or with ``reference`` only that reference's columns."""
    return grid if reference is None else one_reference(grid, reference)
