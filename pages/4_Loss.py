"""Loss page: rank systems by Tate & Voss's average loss while the costs move, on the exact map
of the cost shares where each ranking holds, per category and with bootstrap intervals; with MQM
annotations from the Data page, the same for MQM's error weights, shown first (they are the
user's data; the costs' table is the paper's example unless the user uploads one)."""

import hashlib

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mteval_core.io.loss_csv import read_loss_table
from mteval_core.io.mqm_tsv import MqmAnnotations
from mteval_core.loss.mqm_loss import ErrorsPerSegment, errors_per_segment, starting_weights
from mteval_core.loss.mqm_view import map_view_at, mqm_ranking_at, weight_map, weight_plane
from mteval_core.loss.view import PAPER_PRESETS, LossAnalysis, analyse_loss
from pages.ui.caching import cache_key, cached
from pages.ui.friendly_errors import friendly_errors
from pages.ui.loss import (
    COST_MAXIMUM,
    WEIGHT_SLIDERS,
    chosen_breakdown,
    chosen_table,
    map_choices,
    number_from_url,
    show_breakdown,
    show_group,
    show_mqm_ranking,
    show_sources,
    show_weight_map,
    weight_sliders,
)
from pages.ui.markdown_escape import escape_markdown
from pages.ui.session import session_mqm
from pages.ui.upload_state import show_refused_upload

st.set_page_config(page_title="mteval: loss", layout="wide")
show_refused_upload()  # while the last upload is refused


def analysis_of(name: str, data: bytes) -> LossAnalysis:
    """Read the table and prepare it (map regions, bootstrap) once per content and breakdown,
    whoever asks: the cache is keyed by the bytes, never by a session."""
    digest = hashlib.sha256(data).hexdigest()
    table = cached(
        cache_key("loss-table", name, content=digest),
        lambda _: read_loss_table(data, name),
        "Reading the table",
    )
    by = chosen_breakdown(table)  # the choice depends on the table's columns
    return cached(
        cache_key("loss-analysis", name, by, content=digest),
        lambda _: analyse_loss(table, by),
        "Mapping the rankings and resampling",
    )


def apply_preset() -> None:
    for name, value in zip(("c1", "c2", "c3"), PAPER_PRESETS[st.session_state.preset]):
        st.session_state[name] = value


@st.fragment
def cost_explorer(analysis: LossAnalysis) -> None:
    """Reruns alone when a slider moves; everything cost-independent comes in ``analysis``."""
    left, middle, right = st.columns(3)
    c1 = left.slider("c1: value of a correct response", 0.0, COST_MAXIMUM, step=0.5, key="c1")
    c2 = middle.slider("c2: cost of a non-response", 0.0, COST_MAXIMUM, step=0.5, key="c2")
    c3 = right.slider("c3: cost of an incorrect response", 0.0, COST_MAXIMUM, step=0.5, key="c3")
    st.query_params.update({"c1": f"{c1:g}", "c2": f"{c2:g}", "c3": f"{c3:g}"})
    costs = (c1, c2, c3)
    if not any(costs):
        st.warning("Set at least one cost above 0: with all costs 0 every loss is 0.")
        return
    if len(analysis.groups) > 1:
        show_breakdown(analysis, costs)
    # Only the open tab runs (a tab switch reruns this fragment): a slider computes one group.
    labels = [escape_markdown(group) for group in analysis.groups]
    tabs = st.tabs(labels, key=f"loss_tab_{analysis.by}", on_change="rerun")
    for group, tab in zip(analysis.groups, tabs):
        if tab.open:
            with tab:
                show_group(analysis, group, costs)


@st.fragment
def mqm_explorer(errors: ErrorsPerSegment, start: dict[str, float]) -> None:
    """The MQM ranking under the weights on the sliders, and its map over two of them."""

    def reset() -> None:
        for key, weight in start.items():
            st.session_state[WEIGHT_SLIDERS[key].url] = weight

    st.button("Google's weights", on_click=reset)
    weights = weight_sliders(errors.keys)
    show_mqm_ranking(mqm_ranking_at(errors, weights))
    x_key, y_key, shown = map_choices(errors, start)
    if len(shown) < 2:
        st.info("Choose at least two systems for the map.")
        return
    maxima = (WEIGHT_SLIDERS[x_key].maximum, WEIGHT_SLIDERS[y_key].maximum)
    plane = weight_plane(errors, weights, x_key, y_key, shown, maxima)
    mapped = cached(  # only the other weights move the map; the axes' weights move the point
        cache_key("mqm-map", content=plane.key), lambda _: weight_map(plane), "Mapping the rankings"
    )
    show_weight_map(map_view_at(mapped, weights), plane, start)


def show_mqm(annotations: MqmAnnotations | None) -> None:
    st.header("MQM weights")
    if annotations is None:
        st.caption(
            "Upload Google-format MQM annotations on the Data page to tune MQM's error weights "
            "here."
        )
        return
    start = starting_weights(annotations)
    for key, weight in start.items():
        slider = WEIGHT_SLIDERS[key]
        st.session_state.setdefault(slider.url, number_from_url(slider.url, weight, slider.maximum))
    st.caption(
        f"{escape_markdown(annotations.origin)}: an MQM score is a loss whose costs are the "
        "error weights. The most specific weight applies to an error (a Minor punctuation "
        "error takes the punctuation weight, not Minor's); points are summed per rater, averaged "
        "over a segment's raters and then over each system's rated segments. The sliders start "
        "at Google's weights"
        + (
            ", with Critical at 0 as mt-metrics-eval weighs it (Google's weights have no "
            "Critical), so that this ranking starts as the MQM judgments'"
            if "Critical" in start
            else ""
        )
        + " and are in the address bar too."
    )
    errors = None
    with friendly_errors(stop=False):  # the costs' section below still shows
        errors = errors_per_segment(annotations, start)
    if errors is not None:
        mqm_explorer(errors, start)


def show_costs(sources: DeltaGenerator, annotations: MqmAnnotations | None) -> None:
    """Tate & Voss's costs on the chosen table (the paper's, or the user's), and the line at
    the top (``sources``) that names what the page shows."""
    st.header("Costs")
    st.caption(
        "AverageLoss = (-c1 CRR + c2 NRR) E(RTtot) + c3 IRR E(SubjMtot); lower is better. The "
        "costs are in the address bar, so a setting can be shared."
    )
    chosen = chosen_table()
    show_sources(sources, chosen, annotations)
    if chosen.data is None:
        return
    with friendly_errors():
        analysis = analysis_of(chosen.name, chosen.data)
    for name, default in zip(("c1", "c2", "c3"), PAPER_PRESETS["Tables 5 and 9: (5, 2, 1)"]):
        st.session_state.setdefault(name, number_from_url(name, default, COST_MAXIMUM))
    st.selectbox(
        "Paper's costs",
        list(PAPER_PRESETS),
        key="preset",
        on_change=apply_preset,
        index=None,
        placeholder="Set the costs of one of the paper's tables",
    )
    cost_explorer(analysis)


st.title("Loss-function ranking")
sources = st.empty()  # which data the page shows, once the choice below is known
annotations = session_mqm()
if annotations is not None:  # the user's own data first; the paper's example below it
    show_mqm(annotations)
show_costs(sources, annotations)
if annotations is None:
    show_mqm(None)  # what to upload for it
