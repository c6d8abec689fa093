"""Home's "Download the report (HTML)": the page `mteval report` writes, for the session's test
set, options and the dashboard's metrics."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.evaluation_html import evaluation_html
from mteval_core.report.evaluation_report import (
    REPORT_RESAMPLES,
    REPORT_TRIALS,
    evaluation_report,
)
from mteval_core.settings.options import Options
from mteval_core.stats.approximate_randomization import RandomizationOptions
from mteval_core.stats.bootstrap import BootstrapOptions
from pages.ui import DASHBOARD_METRICS
from tests.helpers import load_sample

ROOT = Path(__file__).resolve().parents[2]


def test_home_offers_the_report_of_the_current_test_set(downloads):
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    html = downloads(app)["Download the report (HTML)"]
    sample = load_sample().test_set
    options = Options()
    expected = evaluation_html(
        evaluation_report(
            sample,
            score_test_set(sample, DASHBOARD_METRICS, options),
            options,
            RandomizationOptions(REPORT_TRIALS),
            None,
            BootstrapOptions(REPORT_RESAMPLES),
        )
    )
    assert html == expected
    assert "<h2>Correlation with human scores</h2>" in html  # the sample has judgments
