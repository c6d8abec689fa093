"""The test set at a glance, on Home and on the Data page."""

from __future__ import annotations

import streamlit as st

from mteval_core.model.testset import TestSet
from mteval_core.report.frames import overview
from pages.ui.caching import cache_key, cached
from pages.ui.markdown_escape import escape_markdown


def show_overview(test_set: TestSet) -> None:
    """The test set at a glance, one column per fact; names are shown as written."""
    facts = cached(
        cache_key("overview", content=test_set.content_hash), lambda _: overview(test_set)
    )
    for column, (label, value) in zip(st.columns(len(facts)), facts.items()):
        column.markdown(f"**{label}**  \n{escape_markdown(value)}")
