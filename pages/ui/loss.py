"""What the Loss page shows besides its explorers: the data choice, the tables of losses and
weights, the notes on first place; every number comes from mteval_core.loss."""

from __future__ import annotations

from typing import NamedTuple

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from mteval_core.io.loss_csv import SHAPES_HINT
from mteval_core.io.mqm_tsv import REQUIRED as MQM_COLUMNS
from mteval_core.io.mqm_tsv import MqmAnnotations
from mteval_core.loss.average import Costs
from mteval_core.loss.inputs import LossInput
from mteval_core.loss.mqm_loss import ErrorsPerSegment
from mteval_core.loss.mqm_view import MqmRanking, WeightMapView, WeightPlane, best_systems
from mteval_core.loss.reversal import Reversal
from mteval_core.loss.sources import LossSources, describe_sources
from mteval_core.loss.view import (
    LEVEL,
    MEAN_OF_GROUPS,
    PAPER_PRESET_POINTS,
    RESAMPLES,
    SEED,
    LossAnalysis,
    breakdown_choices,
    category_breakdown,
    setting_from_link,
    uncertainty_of,
    view_at,
)
from mteval_core.report.figures import loss_bar_chart, rank_reversal_map
from pages.ui.markdown_escape import escape_markdown
from pages.ui.sample import SAMPLE_DATA

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
TABLE_HINT = SHAPES_HINT + " Any other column is a category to break the ranking down by."
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


WEIGHT_SLIDERS = {  # every key that mteval_core.loss.mqm_loss.starting_weights may give
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
    """?name= as a slider's first value (see setting_from_link)."""
    return setting_from_link(st.query_params.get(name), default, maximum)


def ranked(systems: list[str]) -> str:
    """'A > B > C' in Markdown, each name shown as written."""
    return " > ".join(map(escape_markdown, systems))


def orders(pairs: list[tuple[str, str]]) -> str:
    """'A before B, C before D' in Markdown, each name shown as written."""
    return ", ".join(f"{escape_markdown(a)} before {escape_markdown(b)}" for a, b in pairs)


class ChosenTable(NamedTuple):
    name: str | None  # file name; None while the upload is chosen but no file is given
    data: bytes | None
    uploaded: bool  # the user's table (or its uploader), not one of the paper's


def chosen_table() -> ChosenTable:
    """The chosen sample or upload, with its file name and bytes."""
    choice = st.selectbox("Data", [*SAMPLES, UPLOAD])
    if choice != UPLOAD:
        file_name, note = SAMPLES[choice]
        st.caption(f"The paper's example, not your data. {note}")
        path = SAMPLE_DATA / "loss" / file_name
        return ChosenTable(path.name, path.read_bytes(), uploaded=False)
    upload = st.file_uploader(
        "Loss table (CSV or TSV): counts, rates or one row per case", type=["csv", "tsv", "txt"]
    )
    if upload is None:
        st.info(TABLE_HINT)
        return ChosenTable(None, None, uploaded=True)
    return ChosenTable(upload.name, upload.getvalue(), uploaded=True)


def show_sources(
    where: DeltaGenerator, chosen: ChosenTable, annotations: MqmAnnotations | None
) -> None:
    """One line in ``where`` (a placeholder at the top of the page) naming the data shown; a
    warning, with what to upload, when the session's own test set has no loss data."""
    test_set = st.session_state.get("test_set")  # the Data page's upload (pages.ui.sample)
    sources = LossSources(
        table=chosen.name,
        table_uploaded=chosen.uploaded,
        mqm=annotations.origin if annotations is not None else None,
        test_set_systems=tuple(test_set.system_names) if test_set is not None else None,
    )
    note = describe_sources(sources, table_hint=TABLE_HINT, mqm_columns=MQM_COLUMNS)
    (where.warning if note.missing_loss_data else where.info)(escape_markdown(note.text))


def chosen_breakdown(table: LossInput) -> str | None:
    """A category column, or None for all rows together (shown as 'none')."""
    choices = breakdown_choices(table)
    if not choices:
        return None
    return st.selectbox(
        "Break down by",
        choices,
        index=choices.index(table.category_columns[0]),
        format_func=lambda choice: ALL_ROWS if choice is None else choice,
        help="A category column of the table; 'none' ranks all rows together.",
    )


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
    spread = uncertainty_of(analysis, group, view.loss, costs)
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
    st.plotly_chart(
        rank_reversal_map(
            view.regions, view.point, boundaries=view.boundaries, presets=PAPER_PRESET_POINTS
        ),
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


def weight_sliders(keys: tuple[str, ...]) -> dict[str, float]:
    """One slider per weight key, in a row; their values go to the address bar."""
    weights = {}
    for key, column in zip(keys, st.columns(len(keys))):
        slider = WEIGHT_SLIDERS[key]
        weights[key] = column.slider(
            slider.label, 0.0, slider.maximum, step=slider.step, key=slider.url
        )
    st.query_params.update({WEIGHT_SLIDERS[key].url: f"{w:g}" for key, w in weights.items()})
    return weights


def show_mqm_ranking(shown: MqmRanking) -> None:
    st.markdown("**MQM ranking:** " + ranked(shown.ranking))
    left, right = st.columns(2)
    left.dataframe(
        {
            "system": shown.ranking,
            "error points per segment": [round(shown.points[s], 3) for s in shown.ranking],
        },
        hide_index=True,
    )
    right.plotly_chart(
        loss_bar_chart(
            shown.points,
            title="MQM error points per segment (lower is better)",
            x_title="mean error points per rated segment",
        ),
        width="stretch",
        key="mqm-bars",
    )


def map_choices(errors: ErrorsPerSegment, start: dict[str, float]) -> tuple[str, str, list[str]]:
    """The weights on the map's axes (Major and Minor at first) and the systems on it."""
    left, middle, right = st.columns(3)
    x_key = left.selectbox("Weight on the x axis", errors.keys, index=errors.keys.index("Major"))
    y_options = [key for key in errors.keys if key != x_key]
    y_default = "Minor" if x_key != "Minor" else "Major"
    y_key = middle.selectbox("Weight on the y axis", y_options, index=y_options.index(y_default))
    shown = right.multiselect(
        "Systems on the map",
        errors.systems,
        default=best_systems(errors, start, MAP_SYSTEMS),
        max_selections=MAP_SYSTEMS_MAX,
        help=f"At most {MAP_SYSTEMS_MAX}: every pair of systems adds a line to the map.",
    )
    return x_key, y_key, shown


def show_weight_map(view: WeightMapView, plane: WeightPlane, start: dict[str, float]) -> None:
    x_key, y_key = plane.x_key, plane.y_key
    st.info(first_place_note(view.first_place_change, view.best, f"({x_key}, {y_key})"))
    st.plotly_chart(
        rank_reversal_map(
            view.regions,
            view.point,
            boundaries=view.boundaries,
            presets={"Google's weights": plane.point(start)},
            x_title=f"weight of {x_key}",
            y_title=f"weight of {y_key}",
            title="MQM ranking by weight (best first)",
            current_name="current weights",
            equal_scale=False,
        ),
        width="stretch",
        key="mqm-map",
    )
