"""The Bitext grid page's logic (pages/3_Bitext_grid.py is its layout): its controls, the
segment list and its columns, the link's first values, the reference chooser, each system's
numbers and grid and METEOR's beside them; the matching itself comes from mteval_core.gtm.grid,
the figure from mteval_core.report.figures; the hypothesis drawn with the session's error
spans of the segment (pages.ui.session_spans)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mteval_core.gtm.grid import (
    BitextGrid,
    bitext_grid,
    compare_matchings,
    exact_table_is_quick,
    one_reference,
    segment_number,
    segment_table,
    segments_matching,
    viewer_exponent,
    viewer_options,
)
from mteval_core.metrics.choices import meteor_cannot_run
from mteval_core.metrics.meteor.segment_view import MeteorSegmentView, meteor_segment_view
from mteval_core.model.testset import TestSet
from mteval_core.report.figures import (
    bitext_grid_figure,
    bitext_grid_width,
    meteor_alignment_width,
)
from mteval_core.settings.options import Options
from mteval_core.spans.span_html import annotation_html, legend_html
from pages.ui.caching import cache_key, cached
from pages.ui.friendly_errors import friendly_errors
from pages.ui.markdown_escape import escape_markdown
from pages.ui.meteor_alignment import VIEWS, choose_search, choose_view, show_meteor_systems
from pages.ui.session import session_options
from pages.ui.session_spans import session_segment_spans

MATCHINGS = ("greedy (GTM 1.4)", "exact (maximum)")
SPAN_COLUMNS = 3  # annotations of the segment side by side
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


@dataclass(frozen=True)
class BitextChoice:
    """What the page's controls chose: the system (and another to compare with), the segment,
    GTM's exponent and matching, the reference shown, whether every segment is matched exactly,
    the view (GTM, METEOR or both) and METEOR's search; ``options``: the viewer's."""

    system: str
    compare: str | None
    segment: int
    exponent: float
    matching: str
    reference: int | None
    exact_for_all: bool
    view: str
    meteor_search: str
    options: Options

    @property
    def systems(self) -> list[str]:
        return [self.system] if self.compare is None else [self.system, self.compare]


def bitext_choice(test_set: TestSet) -> BitextChoice:
    """The controls in two rows, then the view's; the system and segment go to the URL."""
    preselect_from_url(test_set.system_names, test_set.n_segments)
    system, compare, segment, exponent = _segment_controls(test_set)
    left, middle, right = st.columns([4, 4, 3])
    matching = left.radio("Matching", MATCHINGS, horizontal=True, key="bitext_matching")
    reference = choose_reference(middle, test_set.reference_names)
    exact_for_all = right.toggle(
        "Exact F for every segment",
        value=exact_table_is_quick(test_set),
        key="bitext_exact_all",
        help="The grid below is always matched both ways. On a WMT-sized set the exact matching "
        "of every segment takes a while (about 1 s for 3,004 segments and 1 reference, 40 s for "
        "1,002 segments and 3 references), so above 1,000 segments x references it waits for "
        "this switch.",
    )
    view_column, search_column = st.columns([4, 7])
    view = choose_view(view_column, meteor_cannot_run(session_options().meteor.data))
    meteor_search = choose_search(search_column) if view != VIEWS[0] else "beam"
    st.query_params.update({"system": system, "segment": str(segment)})
    options = viewer_options(session_options(), exponent)
    return BitextChoice(
        system,
        compare,
        segment,
        exponent,
        matching,
        reference,
        exact_for_all,
        view,
        meteor_search,
        options,
    )


def _segment_controls(test_set: TestSet) -> tuple[str, str | None, int, float]:
    """The first row: the system, the one to compare with, the segment and GTM's exponent
    (said when it differs from the Data page's)."""
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
        help="GTM's reward for runs (the paper uses 2; GTM 1.4's default is 1, where the greedy "
        "is already maximal). It starts at the Data page's exponent, which Scores and "
        "Correlation use.",
    )
    if exponent != data_exponent:
        st.caption(
            f"This page uses e = {exponent:g}; Scores and Correlation use e = {data_exponent:g} "
            "from the Data page, so their GTM differs from the F shown here."
        )
    return system, compare, segment, exponent


def show_segment_table(test_set: TestSet, choice: BitextChoice) -> None:
    """Every segment of the system with its F both ways, searchable; a clicked row opens it."""
    system, options = choice.system, choice.options
    with friendly_errors():
        table = cached(
            cache_key("bitext segment table", system, choice.exact_for_all, options=options),
            lambda progress: segment_table(
                test_set, system, options, choice.exact_for_all, progress
            ),
            f"Matching every segment of {escape_markdown(system)}"
            + (", greedy and exact..." if choice.exact_for_all else " (greedy)..."),
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
        f"{len(shown)} of {len(table)} segments of {escape_markdown(system)} at e = "
        f"{choice.exponent:g}. Click a row (or type its number above) to open its grid; click a "
        "header to sort. Size shortfall: exact minus greedy matching size, where size = (sum of "
        "len^e)^(1/e); below 0 only where a fractional cap lets the greedy take part of a cell."
    )


def gtm_grids(test_set: TestSet, choice: BitextChoice) -> dict[str, BitextGrid]:
    """Each shown system's grid of the segment, matched both ways (none in METEOR's view)."""
    grids: dict[str, BitextGrid] = {}
    if choice.view == VIEWS[1]:
        return grids
    segment, options = choice.segment, choice.options
    for name in choice.systems:
        with friendly_errors():
            grids[name] = cached(
                cache_key("bitext grid", name, segment, options=options),
                lambda progress, name=name: bitext_grid(
                    test_set, name, segment, options, exact=True
                ),
                "Matching the segment...",
            )
    return grids


def meteor_views(test_set: TestSet, choice: BitextChoice) -> dict[str, MeteorSegmentView]:
    """Each shown system's METEOR alignments of the segment (none in GTM's view); METEOR's
    data missing is said once, and GTM's grids are still drawn."""
    meteor: dict[str, MeteorSegmentView] = {}
    segment = choice.segment
    with friendly_errors(stop=False):
        for name in choice.systems if choice.view != VIEWS[0] else []:
            meteor[name] = cached(
                cache_key("meteor segment view", name, segment),
                lambda progress, name=name: meteor_segment_view(
                    test_set.system(name)[segment - 1],
                    [r.segments[segment - 1] for r in test_set.references],
                    session_options(),
                ),
                "Aligning the segment with METEOR (beam and exact)...",
            )
    return meteor


def show_views(
    test_set: TestSet,
    choice: BitextChoice,
    grids: dict[str, BitextGrid],
    meteor: dict[str, MeteorSegmentView],
) -> None:
    """GTM's grids and METEOR's side by side where both fit half the page, else one under the
    other."""
    names = test_set.reference_names
    widths = (GRID_WIDTH[1], GRID_WIDTH[2])
    exact, reference, segment = choice.matching == MATCHINGS[1], choice.reference, choice.segment
    search = choice.meteor_search
    if not meteor:
        if grids:
            show_grids(grids, exact, reference, segment)
    elif grids and side_by_side_with_meteor(grids, reference, meteor, search):
        gtm_place, meteor_place = st.columns(2)
        with gtm_place:
            show_grids(grids, exact, reference, segment, max_width=GRID_WIDTH[2])
        with meteor_place:
            show_meteor_systems(meteor, search, names, reference, segment, (GRID_WIDTH[2],) * 2)
    else:
        if grids:
            show_grids(grids, exact, reference, segment)
        show_meteor_systems(meteor, search, names, reference, segment, widths)


def show_segment_spans(test_set: TestSet, choice: BitextChoice) -> None:
    """The hypothesis of each system shown drawn with the session's error spans of this
    segment (every annotation side by side), where there are any; nothing where none."""
    lookup = session_segment_spans(test_set)
    found = [(name, p) for name in choice.systems for p in lookup.of(name, choice.segment)]
    if not found:
        return
    st.markdown(f"**Error spans of segment {choice.segment}**")
    st.html(f"<div style='font-size:0.9em'>{legend_html()}</div>")
    columns = st.columns(min(len(found), SPAN_COLUMNS))
    for number, (name, placed) in enumerate(found):
        column = columns[number % SPAN_COLUMNS]
        column.caption(escape_markdown(f"{name} · {placed.label}"))
        column.html(annotation_html(placed.annotation))
