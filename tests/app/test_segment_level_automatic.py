"""The Correlation page's segment-level view is computed unasked up to AUTOMATIC_CELLS
system-segment cells (systems x segments, rated or not), as docs/dashboard.md says (issue 42: the
README said "5,000 rated cells" while the page counted systems x segments)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from pages.ui.segment_level import AUTOMATIC_CELLS
from tests.helpers import load_sample

ROOT = Path(__file__).resolve().parents[2]


def test_the_dashboard_page_and_the_page_count_the_same_cells():
    readme = " ".join((ROOT / "docs" / "dashboard.md").read_text(encoding="utf-8").split())
    counted = f"automatic up to {AUTOMATIC_CELLS:,} system-segment cells: systems x segments"
    assert f"{counted}, rated or not" in readme
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.run()
    app.switch_page("pages/2_Correlation.py").run()
    assert not app.exception, [e.message for e in app.exception]
    (switch,) = [t for t in app.toggle if t.label == "Compute the segment-level statistics"]
    sample = load_sample().test_set
    cells = len(sample.system_names) * sample.n_segments  # 4 x 40, every one rated
    assert switch.value is (cells <= AUTOMATIC_CELLS) is True
    assert f"up to {AUTOMATIC_CELLS:,} system-segment cells; this test set has {cells:,}" in (
        switch.help
    )
