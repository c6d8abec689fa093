"""mteval dashboard: the pages in the sidebar, and the home page (what the dashboard does and the
current test set at a glance).

Streamlit names the entry page after its file ("app") unless the pages are declared here; so they
are, with the home page first under its own name. Each page's URL stays its file name without the
number (/Scores, /Bitext_grid?system=...), so links keep working.
"""

import streamlit as st

from pages.ui.background_imports import import_ahead
from pages.ui.home import PAGES, home

st.navigation([st.Page(home, title="Home", default=True), *map(st.Page, PAGES)]).run()
import_ahead()  # after the page is drawn, once per server process
