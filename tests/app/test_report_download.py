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
    ReportRequest,
    evaluation_report,
)
from mteval_core.settings.options import Options
from mteval_core.stats.approximate_randomization import RandomizationOptions
from mteval_core.stats.bootstrap import BootstrapOptions
from pages.ui.session import DASHBOARD_METRICS
from tests.helpers import archive_of, load_sample, mtme_from_shared, shared_dataset

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
            ReportRequest(
                RandomizationOptions(REPORT_TRIALS), None, BootstrapOptions(REPORT_RESAMPLES)
            ),
        )
    )
    assert html == expected
    assert "<h2>Correlation with human scores</h2>" in html  # the sample has judgments


def test_a_report_of_several_criteria_uses_the_one_chosen_the_archives_first(tmp_path, downloads):
    """Issue 42: with several criteria (every mt-metrics-eval set since WMT22) the download did
    nothing and said nothing: the report, made on the click, had no criterion. Built on WMT21
    en-de as mt-metrics-eval ships it (criterion mqm, four systems), with Google's own
    per-segment averages uploaded beside it (criterion MQM)."""
    root = mtme_from_shared(tmp_path / "data")
    folder = root / "wmt21.news"
    outputs = sorted((folder / "system-outputs/en-de").iterdir())[:4]
    members = [p for p in folder.rglob("*") if p.is_file() and "system-outputs" not in p.parts]
    averages = shared_dataset("wmt21-newstest2021-ende") / "human/original"
    google = averages / "mqm_newstest2021_ende.avg_seg_scores.tsv"
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.run()
    app.switch_page("pages/0_Data.py").run()
    uploaders = {u.label.split(" (")[0].split(":")[0]: u for u in app.file_uploader}
    archive = archive_of(root, members=[*members, *outputs])
    uploaders["mt-metrics-eval archive"].set_value([("wmt21.zip", archive, "application/zip")])
    uploaders["Human judgments"].set_value((google.name, google.read_bytes(), "text/plain"))
    next(b for b in app.button if b.label == "Use this test set").click().run()
    assert app.success, [e.value for e in app.error]
    test_set = app.session_state["test_set"]
    assert test_set.human.criteria == ["mqm", "MQM"]

    app.switch_page("app.py").run()
    assert not app.exception, [e.message for e in app.exception]
    (criterion,) = [box for box in app.selectbox if box.label == "Human criterion of the report"]
    assert criterion.options == ["mqm", "MQM"] and criterion.value == "mqm"  # the archive's
    html = downloads(app)["Download the report (HTML)"]
    assert "<p>System level, against human mqm.</p>" in html
    options = Options()
    scores = score_test_set(test_set, DASHBOARD_METRICS, options)
    expected = evaluation_report(
        test_set,
        scores,
        options,
        ReportRequest(
            RandomizationOptions(REPORT_TRIALS), None, BootstrapOptions(REPORT_RESAMPLES), "mqm"
        ),
    )
    assert html == evaluation_html(expected)
    criterion.set_value("MQM").run()
    assert "<p>System level, against human MQM.</p>" in downloads(app)["Download the report (HTML)"]
