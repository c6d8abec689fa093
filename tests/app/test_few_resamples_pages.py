"""Issue 42: intervals from too few resamples say so on every page that draws them (Scores,
Correlation, Compare) and in the Scores page's downloads; 1,000 resamples say nothing."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.stats.bootstrap import BootstrapOptions
from pages.ui.markdown_escape import escape_markdown

ROOT = Path(__file__).resolve().parents[2]
WARNING = escape_markdown("T" + BootstrapOptions(200).too_few_for_intervals[1:] + ".")


def page(name: str) -> AppTest:
    """The page on the sample test set, as the sidebar opens it."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.switch_page(f"pages/{name}.py").run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def resampled(app: AppTest, resamples: int) -> AppTest:
    slider = next(s for s in app.select_slider if s.label == "Bootstrap resamples")
    slider.set_value(resamples).run()
    assert not app.exception, [e.message for e in app.exception]
    return app


@pytest.mark.parametrize("name", ["1_Scores", "2_Correlation", "5_Compare"])
def test_200_resamples_are_said_to_be_too_few_for_intervals(name):
    app = resampled(page(name), 200)
    assert WARNING in [warning.value for warning in app.warning]
    resampled(app, 1000)
    assert not any("Too few resamples for intervals" in w.value for w in app.warning)


def test_the_scores_downloads_carry_the_note(downloads):
    app = resampled(page("1_Scores"), 200)
    files = downloads(app)
    note = BootstrapOptions(200).too_few_for_intervals
    rows = list(csv.reader(io.StringIO(files["Download CSV"])))
    assert rows[0][-2] == "interval note" and {row[-2] for row in rows[1:]} == {note}
    assert '"note": "too few resamples for intervals (200)' in files["Download JSON"]
    assert (
        r"Note: too few resamples for intervals (200): a 95\% interval" in files["Download LaTeX"]
    )
