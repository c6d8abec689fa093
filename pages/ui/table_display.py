"""Tables: small static ones (st.table) shown as written, and wide ones with their columns
chosen in plain sight.

st.table renders every cell, index entry and header as Markdown, unlike st.dataframe; so each one
goes through ``escape_markdown`` first, and a name such as ``[x](javascript:...)`` stays text.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
from streamlit.delta_generator import DeltaGenerator

from mteval_core.report.frames import shown_columns
from pages.ui.markdown_escape import escape_markdown


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


def chosen_columns(
    container: DeltaGenerator, frame: pd.DataFrame, primary: Sequence[str]
) -> pd.DataFrame:
    """``frame`` with the columns chosen in a "Columns shown" box above it, ``shown_columns`` at
    first: Streamlit's own column picker hides in a toolbar that appears on hover, and a table of
    20 columns needs one in sight. The columns keep the table's order (an interval beside its
    score, whenever it was chosen); downloads take the whole table, not this choice."""
    columns = list(frame.columns)
    chosen = set(
        container.multiselect(
            "Columns shown",
            columns,
            default=shown_columns(columns, primary),
            help="The columns of the table below; the others stay one choice away.",
        )
    )
    return frame[[column for column in columns if column in chosen]]
