"""Bitext grid page: GTM's matching of one segment, greedy (GTM 1.4) or exact, drawn."""

from dataclasses import replace

import streamlit as st

from mteval_core.config import Options
from mteval_core.errors import InputError
from mteval_core.figures import bitext_grid_figure
from mteval_core.grid import bitext_grid
from mteval_core.sample import current_test_set
from mteval_core.testset import TestSet

st.set_page_config(page_title="mteval: bitext grid", layout="wide")


@st.cache_data(hash_funcs={TestSet: lambda t: t.content_hash})
def grid_of(test_set: TestSet, system: str, segment: int, options: Options, exact: bool):
    return bitext_grid(test_set, system, segment, options, exact=exact)


test_set = current_test_set(st.session_state)
options = st.session_state.get("options", Options())
st.title("Bitext grid")
left, middle, right = st.columns(3)
system = left.selectbox("System", test_set.system_names)
segment = middle.number_input("Segment", min_value=1, max_value=test_set.n_segments, value=1)
exponent = right.slider("Exponent e", min_value=1.0, max_value=3.0, value=2.0, step=0.5)
matching = st.radio("Matching", ["greedy (GTM 1.4)", "exact (maximum)"], horizontal=True)

try:
    grid_options = replace(options, gtm_exponent=exponent, gtm_matching="greedy")
    grid = grid_of(test_set, system, int(segment), grid_options, matching.startswith("exact"))
except InputError as error:
    st.error(str(error))
    st.stop()

shown = grid.exact if matching.startswith("exact") else grid.greedy
if grid.exact is not None and grid.exact.weight > grid.greedy.weight + 1e-12:
    st.info(
        f"GTM 1.4's greedy falls short here: sum of len^e {grid.greedy.weight:.4g} against "
        f"{grid.exact.weight:.4g} for the exact matching."
    )
st.plotly_chart(bitext_grid_figure(grid, shown, f"{system}, segment {segment}"), width="stretch")
