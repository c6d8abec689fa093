"""Loss page: rank systems by Tate & Voss's average loss while the costs move, on the exact map
of the cost shares where each ranking holds."""

import streamlit as st

from mteval_core.errors import InputError
from mteval_core.figures.loss import rank_reversal_map
from mteval_core.io.loss_tables import read_loss_table
from mteval_core.loss.inputs import grouped_rates
from mteval_core.loss.reversal import simplex_point
from mteval_core.loss.view import PAPER_PRESETS, loss_view
from mteval_core.sample import SAMPLE_DATA

st.set_page_config(page_title="mteval: loss", layout="wide")
DATASETS = {
    "Tate & Voss 2006, all wh-types (Tables 2 and 4)": (
        "tate-voss-2006-table2-table4-rates.csv",
        None,
    ),
    "Tate & Voss 2006, per wh-type (Tables 3 and 8)": (
        "tate-voss-2006-table3-table8-rates-by-wh.csv",
        "wh",
    ),
}


@st.cache_data
def rates_of(file_name: str, by: str | None):
    path = SAMPLE_DATA / "loss" / file_name
    return grouped_rates(read_loss_table(path.read_bytes(), path.name), by)


def cost_from_url(name: str, default: float) -> float:
    try:
        return min(max(float(st.query_params.get(name, default)), 0.0), 10.0)
    except ValueError:
        return default


st.title("Loss-function ranking")
st.caption(
    "AverageLoss = (-c1 CRR + c2 NRR) E(RTtot) + c3 IRR E(SubjMtot); lower is better. The costs "
    "are in the address bar, so a setting can be shared."
)
dataset = st.selectbox("Data", list(DATASETS))
for name, default in zip(("c1", "c2", "c3"), PAPER_PRESETS["Tables 5 and 9: (5, 2, 1)"]):
    st.session_state.setdefault(name, cost_from_url(name, default))  # the URL wins on arrival


def apply_preset() -> None:
    for name, value in zip(("c1", "c2", "c3"), PAPER_PRESETS[st.session_state.preset]):
        st.session_state[name] = value


st.selectbox(
    "Paper's costs",
    list(PAPER_PRESETS),
    key="preset",
    on_change=apply_preset,
    index=None,
    placeholder="Set the costs of one of the paper's tables",
)


@st.fragment
def explorer() -> None:
    left, middle, right = st.columns(3)
    c1 = left.slider("c1: value of a correct response", 0.0, 10.0, step=0.5, key="c1")
    c2 = middle.slider("c2: cost of a non-response", 0.0, 10.0, step=0.5, key="c2")
    c3 = right.slider("c3: cost of an incorrect response", 0.0, 10.0, step=0.5, key="c3")
    st.query_params.update({"c1": f"{c1:g}", "c2": f"{c2:g}", "c3": f"{c3:g}"})
    file_name, by = DATASETS[dataset]
    groups = rates_of(file_name, by)
    for group, tab in zip(groups, st.tabs(list(groups))):
        try:
            view = loss_view(groups[group], (c1, c2, c3))
        except InputError as error:
            tab.error(str(error))
            continue
        tab.markdown("**Ranking:** " + " > ".join(view.ranking))
        tab.dataframe(
            {"system": view.ranking, "average loss": [round(view.loss[s], 2) for s in view.ranking]}
        )
        if view.first_place_change is None:
            tab.info(f"{view.ranking[0]} is best at every cost.")
        else:
            change = view.first_place_change
            tab.info(
                f"{change.leader} loses first place to {change.challenger} at cost shares "
                f"(c2, c3) = ({change.point[0]:.3f}, {change.point[1]:.3f}), a distance of "
                f"{change.distance:.3f} from the current costs."
            )
        presets = {name: simplex_point(costs) for name, costs in PAPER_PRESETS.items()}
        tab.plotly_chart(
            rank_reversal_map(
                view.regions, view.point, boundaries=view.boundaries, presets=presets
            ),
            width="stretch",
            key=f"map-{group}",
        )


explorer()
