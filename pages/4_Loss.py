"""Loss page: rank systems by Tate & Voss's average loss while the costs move, on the exact map
of the cost shares where each ranking holds, per category and with bootstrap intervals; with MQM
annotations from the Data page, the same for MQM's error weights."""

import hashlib
import math
from typing import NamedTuple

import streamlit as st

from mteval_core.figures.loss import loss_bar_chart, rank_reversal_map
from mteval_core.io.loss_tables import SHAPES_HINT, read_loss_table
from mteval_core.io.mqm import MqmAnnotations
from mteval_core.loss.average import Costs, ranking
from mteval_core.loss.inputs import LossInput
from mteval_core.loss.mqm import ErrorsPerSegment, errors_per_segment, starting_weights, weight_box
from mteval_core.loss.reversal import (
    Reversal,
    boundaries,
    nearest_first_place_change,
    ranking_regions,
    simplex_point,
)
from mteval_core.loss.view import (
    LEVEL,
    MEAN_OF_GROUPS,
    PAPER_PRESETS,
    RESAMPLES,
    SEED,
    LossAnalysis,
    analyse_loss,
    category_breakdown,
    uncertainty_at,
    view_at,
)
from pages.ui.sample import SAMPLE_DATA
from pages.ui import cached, escape_markdown, friendly_errors, session_mqm

st.set_page_config(page_title="mteval: loss", layout="wide")
SAMPLES = {  # name: (file in sample_data/loss, what to know about it)
    "Tate & Voss 2006, all wh-types (Tables 2 and 4)": (
        "tate-voss-2006-table2-table4-rates.csv",
        "Table 2's rates with Table 4's expected totals: they reproduce Tables 6 and 7, but not "
        "Table 5. At (5, 2, 1) they give -12.28, -17.20, -14.62 for MT1, MT2, MT3 against the "
        "printed -12.30, -17.12, -14.60; the computed values are shown, inputs are not adjusted.",
    ),
    "Tate & Voss 2006, per wh-type (Tables 3 and 8)": (
        "tate-voss-2006-table3-table8-rates-by-wh.csv",
        "Table 3's rates with Table 8's expected totals: they reproduce Tables 9 and 10.",
    ),
    "Tate & Voss 2006, counts (Table 2)": (
        "tate-voss-2006-table2-counts.csv",
        "Table 2's counts. The numbers of cases (354, 353, 353) are not printed in the paper; they "
        "are the only ones that give Table 4's expected totals (sample_data/loss/README.md).",
    ),
}
UPLOAD = "Your own loss table (upload)"
ALL_ROWS = "none"
COST_MAXIMUM = 10.0
METHOD_NOTES = {
    "bootstrap over cases": "cases drawn with replacement, separately per system",
    "parametric bootstrap of the counts": "counts redrawn from multinomial and binomial models "
    "with the totals held fixed, so only the sampling error of the rates is shown",
}


class WeightSlider(NamedTuple):
    url: str  # query parameter and session key
    label: str
    maximum: float
    step: float


WEIGHT_SLIDERS = {  # every key that mteval_core.loss.mqm.starting_weights may give
    "Major": WeightSlider("w_major", "Major (other than non-translation)", 25.0, 0.5),
    "Minor": WeightSlider("w_minor", "Minor (other than punctuation)", 5.0, 0.1),
    "Neutral": WeightSlider("w_neutral", "Neutral", 5.0, 0.1),
    "Major/Non-translation!": WeightSlider("w_nontranslation", "Major/Non-translation!", 50.0, 1.0),
    "Minor/Fluency/Punctuation": WeightSlider(
        "w_punctuation", "Minor/Fluency/Punctuation", 1.0, 0.05
    ),
    "Critical": WeightSlider("w_critical", "Critical", 50.0, 1.0),
}
MAP_SYSTEMS = 4  # the weight map starts with the best few systems
MAP_SYSTEMS_MAX = 6  # with more, the map has hundreds of regions: unreadable, and slow to draw


def number_from_url(name: str, default: float, maximum: float) -> float:
    """?name= as a slider value in [0, maximum]; the default where it is not a finite number
    (a link may carry anything: 'nan' would break the slider)."""
    try:
        value = float(st.query_params.get(name, default))
    except ValueError:
        return default
    return min(max(value, 0.0), maximum) if math.isfinite(value) else default


def ranked(systems: list[str]) -> str:
    """'A > B > C' in Markdown, each name shown as written."""
    return " > ".join(map(escape_markdown, systems))


def orders(pairs: list[tuple[str, str]]) -> str:
    """'A before B, C before D' in Markdown, each name shown as written."""
    return ", ".join(f"{escape_markdown(a)} before {escape_markdown(b)}" for a, b in pairs)


def chosen_table() -> tuple[str, bytes] | None:
    """(file name, bytes) of the chosen sample or upload; None while nothing is uploaded."""
    choice = st.selectbox("Data", [*SAMPLES, UPLOAD])
    if choice != UPLOAD:
        file_name, note = SAMPLES[choice]
        st.caption(note)
        path = SAMPLE_DATA / "loss" / file_name
        return path.name, path.read_bytes()
    upload = st.file_uploader(
        "Loss table (CSV or TSV): counts, rates or one row per case", type=["csv", "tsv", "txt"]
    )
    if upload is None:
        st.info(SHAPES_HINT + " Any other column is a category to break the ranking down by.")
        return None
    return upload.name, upload.getvalue()


def chosen_breakdown(table: LossInput) -> str | None:
    """A category column, or None for all rows together; rates per category cannot be pooled
    without their counts, so such a table offers no "none"."""
    if not table.category_columns:
        return None
    poolable = table.shape != "rates"
    options = [*([ALL_ROWS] if poolable else []), *table.category_columns]
    choice = st.selectbox(
        "Break down by",
        options,
        index=options.index(table.category_columns[0]),
        help="A category column of the table; 'none' ranks all rows together.",
    )
    return None if choice == ALL_ROWS else choice


def analysis_of(name: str, data: bytes) -> LossAnalysis:
    """Read the table and prepare it (map regions, bootstrap) once per content and breakdown,
    whoever asks: the cache is keyed by the bytes, never by a session."""
    digest = hashlib.sha256(data).hexdigest()
    table = cached(
        ("loss-table", name, digest), lambda _: read_loss_table(data, name), "Reading the table"
    )
    by = chosen_breakdown(table)  # the choice depends on the table's columns
    return cached(
        ("loss-analysis", name, digest, by),
        lambda _: analyse_loss(table, by),
        "Mapping the rankings and resampling",
    )


def apply_preset() -> None:
    for name, value in zip(("c1", "c2", "c3"), PAPER_PRESETS[st.session_state.preset]):
        st.session_state[name] = value


def first_place_note(change: Reversal | None, best: str, axes: str) -> str:
    if change is None:
        return f"{escape_markdown(best)} is best everywhere on the map."
    return (
        f"{escape_markdown(change.leader)} loses first place to "
        f"{escape_markdown(change.challenger)} at {escape_markdown(axes)} = "
        f"({change.point[0]:.3f}, {change.point[1]:.3f}), a distance of {change.distance:.3f} "
        "from the current point."
    )


def show_breakdown(analysis: LossAnalysis, costs: Costs) -> None:
    breakdown = category_breakdown(analysis, costs)
    by = escape_markdown(analysis.by)
    st.subheader(f"Loss per {by}")
    st.markdown("**Overall ranking:** " + ranked(breakdown.ranking))
    table = {"system": breakdown.ranking}
    for column, values in {"overall": breakdown.overall, **breakdown.by_group}.items():
        table[column] = [round(values[system], 2) for system in breakdown.ranking]
    st.dataframe(table, hide_index=True)
    if analysis.overall_method == MEAN_OF_GROUPS:
        st.caption(
            f"Overall: the mean of the {by} losses. Rates carry no numbers of cases, so "
            f"every {by} counts equally: the pooled loss when all have as many cases (as "
            "in Tate & Voss's design, six documents per wh-type)."
        )
    else:
        st.caption(f"Overall: the counts of every {by} pooled.")
    if breakdown.differing:
        named = "; ".join(
            f"{escape_markdown(group)} ({orders(pairs)})"
            for group, pairs in breakdown.differing.items()
        )
        st.warning(f"Rankings that differ from the overall one: {named}.")
    else:
        st.info(f"Every {by} ranks the systems as the overall ranking does.")


def show_group(analysis: LossAnalysis, group: str, costs: Costs) -> None:
    view = view_at(analysis.groups[group], costs)
    boot = analysis.bootstraps[group] if analysis.bootstraps else None
    spread = uncertainty_at(boot, view.loss, costs) if boot else None
    st.markdown("**Ranking:** " + ranked(view.ranking))
    table = {"system": view.ranking, "average loss": [round(view.loss[s], 2) for s in view.ranking]}
    level = f"{LEVEL:.0%}"
    if spread:
        table[f"{level} low"] = [round(spread.intervals[s][0], 2) for s in view.ranking]
        table[f"{level} high"] = [round(spread.intervals[s][1], 2) for s in view.ranking]
    left, right = st.columns(2)
    left.dataframe(table, hide_index=True)
    right.plotly_chart(
        loss_bar_chart(view.loss, intervals=spread.intervals if spread else None),
        width="stretch",
        key=f"bars-{group}",
    )
    st.info(first_place_note(view.first_place_change, view.ranking[0], "cost shares (c2, c3)"))
    presets = {name: simplex_point(preset) for name, preset in PAPER_PRESETS.items()}
    st.plotly_chart(
        rank_reversal_map(view.regions, view.point, boundaries=view.boundaries, presets=presets),
        width="stretch",
        key=f"map-{group}",
    )
    if spread is None:
        st.info(
            "Uncertainty needs counts (with a 'cases' column) or one row per case; this table "
            "gives rates only, so no intervals are shown."
        )
        return
    st.caption(
        f"{level} intervals and pair probabilities at the current costs: {spread.method} "
        f"({METHOD_NOTES[spread.method]}; {RESAMPLES} resamples, seed {SEED})."
    )
    st.dataframe(
        {
            "better": [v.better for v in spread.verdicts],
            "worse": [v.worse for v in spread.verdicts],
            "P(better has the lower loss)": [round(v.probability, 3) for v in spread.verdicts],
            "within uncertainty": [v.within_uncertainty for v in spread.verdicts],
        },
        hide_index=True,
    )
    unsure = [
        f"{escape_markdown(v.better)} > {escape_markdown(v.worse)}"
        for v in spread.verdicts
        if v.within_uncertainty
    ]
    if unsure:
        st.warning(
            f"Within the uncertainty at these costs: {', '.join(unsure)}. The resamples put these "
            "systems in either order often enough that their order (or its reversal) may be noise."
        )


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
    tabs = st.tabs([escape_markdown(group) for group in analysis.groups])
    for group, tab in zip(analysis.groups, tabs):
        with tab:
            show_group(analysis, group, costs)


@st.fragment
def mqm_explorer(errors: ErrorsPerSegment, start: dict[str, float]) -> None:
    """The MQM ranking under the weights on the sliders, and its map over two of them."""

    def reset() -> None:
        for key, weight in start.items():
            st.session_state[WEIGHT_SLIDERS[key].url] = weight

    st.button("Google's weights", on_click=reset)
    weights = {}
    for key, column in zip(errors.keys, st.columns(len(errors.keys))):
        slider = WEIGHT_SLIDERS[key]
        weights[key] = column.slider(
            slider.label, 0.0, slider.maximum, step=slider.step, key=slider.url
        )
    st.query_params.update({WEIGHT_SLIDERS[key].url: f"{w:g}" for key, w in weights.items()})
    points = errors.points(weights)
    order = ranking(points)
    st.markdown("**MQM ranking:** " + ranked(order))
    left, right = st.columns(2)
    left.dataframe(
        {"system": order, "error points per segment": [round(points[s], 3) for s in order]},
        hide_index=True,
    )
    right.plotly_chart(
        loss_bar_chart(
            points,
            title="MQM error points per segment (lower is better)",
            x_title="mean error points per rated segment",
        ),
        width="stretch",
        key="mqm-bars",
    )
    left, middle, right = st.columns(3)
    x_key = left.selectbox("Weight on the x axis", errors.keys, index=errors.keys.index("Major"))
    y_options = [key for key in errors.keys if key != x_key]
    y_default = "Minor" if x_key != "Minor" else "Major"
    y_key = middle.selectbox("Weight on the y axis", y_options, index=y_options.index(y_default))
    at_start = errors.points(start)
    shown = right.multiselect(
        "Systems on the map",
        errors.systems,
        default=sorted(errors.systems, key=at_start.__getitem__)[:MAP_SYSTEMS],
        max_selections=MAP_SYSTEMS_MAX,
        help=f"At most {MAP_SYSTEMS_MAX}: every pair of systems adds a line to the map.",
    )
    if len(shown) < 2:
        st.info("Choose at least two systems for the map.")
        return
    plane = errors.plane(weights, x_key, y_key, shown)
    box = weight_box(WEIGHT_SLIDERS[x_key].maximum, WEIGHT_SLIDERS[y_key].maximum)
    regions, lines = cached(  # only the other weights move the lines; the axes move the point
        ("mqm-map", plane.systems, plane.coefficients.tobytes(), box.tobytes()),
        lambda _: (ranking_regions(plane, box), boundaries(plane, box)),
        "Mapping the rankings",
    )
    point = (weights[x_key], weights[y_key])
    change = nearest_first_place_change(plane, point, box)
    best = plane.ranking_at(point)[0]
    st.info(first_place_note(change, best, f"({x_key}, {y_key})"))
    st.plotly_chart(
        rank_reversal_map(
            regions,
            point,
            boundaries=lines,
            presets={"Google's weights": (start[x_key], start[y_key])},
            x_title=f"weight of {x_key}",
            y_title=f"weight of {y_key}",
            title="MQM ranking by weight (best first)",
            current_name="current weights",
            equal_scale=False,
        ),
        width="stretch",
        key="mqm-map",
    )


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
        + (", with Critical as heavy as a non-translation" if "Critical" in start else "")
        + " and are in the address bar too."
    )
    with friendly_errors():
        errors = errors_per_segment(annotations, start)
    mqm_explorer(errors, start)


st.title("Loss-function ranking")
st.caption(
    "AverageLoss = (-c1 CRR + c2 NRR) E(RTtot) + c3 IRR E(SubjMtot); lower is better. The costs "
    "are in the address bar, so a setting can be shared."
)
chosen = chosen_table()
if chosen is not None:
    with friendly_errors():
        analysis = analysis_of(*chosen)
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
show_mqm(session_mqm())
