"""The Data page's file chips with each file's whole name.

Streamlit 1.67 cuts a chip's name to 20 characters in the middle, keeping the extension (its
``FileChip`` does it in the browser, so no option and no Python changes it): a WMT system file
``newstest2021.en-de.hyp.Facebook-AI.de`` shows as ``newstes...book-AI.de``, and the part that
tells the files apart is gone. The whole name is the chip's ``title`` (its tooltip); the style
below shows that instead of the cut one, wrapped within the chip when it is long. It applies to
the file inputs of forms on the page that shows it (the Data page's), and goes when the page
does.
"""

from __future__ import annotations

import streamlit as st

CHIP_FONT = "0.875rem"  # the chip name's own size (14 px in Streamlit's light theme)
WHOLE_NAMES = f"""<style>
[data-testid="stForm"] [data-testid="stFileChipName"] {{
  font-size: 0;  /* the name as Streamlit cut it */
  white-space: normal;
}}
[data-testid="stForm"] [data-testid="stFileChipName"]::after {{
  content: attr(title);  /* the whole name */
  font-size: {CHIP_FONT};
  overflow-wrap: anywhere;
}}
</style>"""


def show_whole_file_names() -> None:
    """Style the page's upload chips to show each file's whole name (see the module's text)."""
    st.html(WHOLE_NAMES)
