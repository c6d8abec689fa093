"""The Bitext grid page's METEOR part: which alignment to draw, the segment's METEOR numbers for
beam and exact side by side, what they say about each other and about the reference METEOR keeps.
The alignment comes from mteval_core.metrics.meteor.segment_view, the figure from
mteval_core.report.figures."""

from __future__ import annotations

import pandas as pd
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mteval_core.metrics.meteor.segment_view import MeteorSegmentView, SearchResult
from mteval_core.report.figures import meteor_alignment_figure, meteor_alignment_width
from pages.ui.markdown_escape import escape_markdown

VIEWS = ("GTM runs", "METEOR alignment", "both")
SEARCHES = ("beam", "exact")
SEARCH_LABELS = {"beam": "beam (the jar's)", "exact": "exact"}
TABLE_ROW = 35  # pixels a row of st.dataframe takes: the numbers table shows whole, unscrolled


def choose_view(place: DeltaGenerator, meteor_cannot_run: str | None) -> str:
    """GTM's grid, METEOR's or both; GTM's alone, with the one line that says why, where METEOR
    cannot run here (``meteor_cannot_run``: the core's reason, which names the install)."""
    if meteor_cannot_run is not None:
        place.caption(escape_markdown(f"Only GTM's grid is drawn. {meteor_cannot_run}"))
        return VIEWS[0]
    return place.radio(
        "Grid",
        VIEWS,
        horizontal=True,
        key="bitext_view",
        help="GTM's runs (its matching's blocks) or METEOR's alignment (matches by module, "
        "grouped in chunks) of the same segment, or both: beside each other where both fit "
        "half the page, else one above the other.",
    )


def choose_search(place: DeltaGenerator) -> str:
    return place.radio(
        "METEOR alignment",
        SEARCHES,
        format_func=SEARCH_LABELS.get,
        horizontal=True,
        key="bitext_meteor_search",
        help="beam: the alignment the jar's beam search chooses (METEOR 1.5's numbers); exact: "
        "the most weighted coverage, then the fewest chunks, found exactly.",
    )


def statistics_table(view: MeteorSegmentView, reference_names: list[str]) -> pd.DataFrame:
    """The segment's METEOR numbers, one column per search: matches per module (and the words
    they cover, hypothesis / reference), chunks, fragmentation, penalty, P, R, Fmean, score."""
    columns = {}
    for search in SEARCHES:
        result = view.result(search)
        column = {"reference kept": reference_names[result.reference]}
        for count in result.per_module:
            column[f"{count.module} matches"] = (
                f"{count.matches} ({count.hypothesis_words} / {count.reference_words} words)"
            )
        column |= {
            "matched words (hyp. / ref.)": (
                f"{result.hypothesis_matched} / {result.reference_matched}"
            ),
            "chunks": str(result.chunks),
            "fragmentation": f"{result.fragmentation:.3f}",
            "penalty": f"{result.penalty:.3f}",
            "P (weighted)": f"{result.precision:.3f}",
            "R (weighted)": f"{result.recall:.3f}",
            "Fmean": f"{result.fmean:.3f}",
            "METEOR": f"{result.score:.4f}",
        }
        columns[SEARCH_LABELS[search]] = column
    return pd.DataFrame(columns)


def comparison_caption(view: MeteorSegmentView) -> str:
    """Whether beam and exact keep the same alignment for this segment, and if not, how far."""
    beam, exact = view.beam, view.exact
    if not exact.found:
        return (
            "The exact search met too many competing matches on this segment and keeps the "
            "beam's alignment."
        )
    if not view.searches_differ:
        return "Beam and exact keep the same alignment for this segment."
    return (
        f"Beam and exact differ for this segment: {_describe(beam)} against {_describe(exact)} "
        "(the exact search: the most weighted coverage, then the fewest chunks)."
    )


def _describe(result: SearchResult) -> str:
    matches, chunks = len(result.matches), result.chunks
    return (
        f"{result.search} {matches} match{'' if matches == 1 else 'es'} in {chunks} "
        f"chunk{'' if chunks == 1 else 's'}, METEOR {result.score:.4f}"
    )


def reference_caption(
    result: SearchResult, reference_names: list[str], selected: int | None
) -> str:
    """Which reference METEOR keeps and why; a word when the page's reference selector shows
    another one."""
    kept = escape_markdown(reference_names[result.reference])
    if len(reference_names) == 1:
        return f"Against {kept}."
    others = ", ".join(
        f"{escape_markdown(name)} {score:.4f}"
        for k, (name, score) in enumerate(zip(reference_names, result.reference_scores))
        if k != result.reference
    )
    text = (
        f"METEOR keeps {kept}, the reference it scores best against ({result.score:.4f}; {others})."
    )
    if selected is not None and selected != result.reference:
        text += (
            f" The GTM grid shows {escape_markdown(reference_names[selected])}, which METEOR "
            "does not keep for this segment."
        )
    return text


def show_meteor(
    place: DeltaGenerator,
    view: MeteorSegmentView,
    search: str,
    reference_names: list[str],
    selected: int | None,
    title: str,
    width: int,
    number: int = 0,
) -> None:
    """One system's METEOR alignment (``number``: its place among the systems shown, for the
    widgets' keys): notes, the figure, beam and exact's numbers."""
    result = view.result(search)
    with place:
        if view.left_out:
            st.caption(
                f"METEOR runs without its {', '.join(view.left_out)} module(s) here: their data "
                "is missing (see the Data page's METEOR options)."
            )
        figure = meteor_alignment_figure(view, search, reference_names, title, width)
        with st.container(horizontal=True, wrap=False, key=f"bitext_grid_meteor_{number}"):
            st.plotly_chart(figure, width="content", key=f"meteor_figure_{number}")
        st.caption(reference_caption(result, reference_names, selected))
        st.caption(comparison_caption(view))
        table = statistics_table(view, reference_names)
        st.dataframe(table, height=TABLE_ROW * (len(table) + 1) + 3, key=f"meteor_numbers_{number}")
        st.caption(
            f"Scores and Correlation use the {view.scored_with} search (the Data page's METEOR "
            "options)."
        )


def show_meteor_systems(
    views: dict[str, MeteorSegmentView],
    search: str,
    reference_names: list[str],
    selected: int | None,
    segment: int,
    widths: tuple[int, int],
) -> None:
    """Each system's METEOR part: side by side where every grid fits half the page (``widths``:
    the page's width and half of it), else one above the other."""
    page, half = widths
    beside = len(views) > 1 and all(
        meteor_alignment_width(view, search, half) <= half for view in views.values()
    )
    places = st.columns(len(views)) if beside else [st.container() for _ in views]
    for number, (place, (name, view)) in enumerate(zip(places, views.items())):
        title = f"{name}, segment {segment}: METEOR"
        width = half if beside else page
        show_meteor(place, view, search, reference_names, selected, title, width, number)
