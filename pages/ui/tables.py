"""Small static tables (st.table), shown as written.

st.table renders every cell, index entry and header as Markdown, unlike st.dataframe; so each one
goes through ``escape_markdown`` first, and a name such as ``[x](javascript:...)`` stays text.
"""

from __future__ import annotations

import pandas as pd
from streamlit.delta_generator import DeltaGenerator

from pages.ui.text import escape_markdown


def as_plain_text(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` with every cell, index entry and header escaped (see the module docstring)."""
    plain = frame.map(escape_markdown)
    plain.index = [escape_markdown(entry) for entry in frame.index]
    plain.columns = [escape_markdown(column) for column in frame.columns]
    if frame.index.name is not None:
        plain.index.name = escape_markdown(frame.index.name)
    return plain


def static_table(container: DeltaGenerator, frame: pd.DataFrame) -> None:
    """``frame`` as a static table in ``container``, its text shown as written."""
    container.table(as_plain_text(frame))
