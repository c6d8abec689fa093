"""Issue #26: metric scores uploaded on the Data page, system-level (``system, score`` rows: no
segment statistics) and segment-level, on every page and in every download. A metric with system
scores only has its scores everywhere, and its intervals and paired tests say "undefined" with
the reason, as the command line does; nothing fails."""

from __future__ import annotations

import csv
import io
import json
from functools import cache
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.io.uploads import read_uploaded_metric
from mteval_core.metrics.external import ExternalMetric
from pages.ui.markdown_escape import escape_markdown
from tests.helpers import load_sample

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["pages/1_Scores.py", "pages/2_Correlation.py", "pages/3_Bitext_grid.py", "pages/4_Loss.py"]


@cache
def external() -> dict[str, ExternalMetric]:
    """Two metrics of the sample, as the Data page reads them: ``sysmetric`` from system rows
    (system level only), ``segmetric`` from segment rows (lower is better)."""
    test_set = load_sample().test_set
    systems = test_set.system_names
    by_system = ["system,score", *(f"{s},{0.25 + k / 10}" for k, s in enumerate(systems))]
    by_segment = ["system,segment_id,score"]
    by_segment += [
        f"{s},{line},{k + line / 100}" for k, s in enumerate(systems) for line in range(1, 41)
    ]
    return {
        **read_uploaded_metric(
            ("sys.csv", "\n".join(by_system).encode()), "sysmetric", "higher", test_set, {}
        ),
        **read_uploaded_metric(
            ("seg.csv", "\n".join(by_segment).encode()), "segmetric", "lower", test_set, {}
        ),
    }


def why_undefined() -> str:
    (metric,) = [m for m in external().values() if not m.segment_level]
    assert metric.why_no_segments is not None
    return metric.why_no_segments


def opened(page: str | None = None) -> AppTest:
    """``page`` (Home when None) opened from Home with both metrics loaded."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.session_state["external_metrics"] = external()
    if page is not None:
        app.switch_page(page)
    return checked(app.run())


def checked(app: AppTest) -> AppTest:
    assert not app.exception, [e.message for e in app.exception]
    assert not app.error, [e.value for e in app.error]
    return app


def every_column(app: AppTest) -> AppTest:
    (chooser,) = [box for box in app.multiselect if box.label == "Columns shown"]
    chooser.set_value(list(chooser.options))
    return checked(app.run())


def charts(app: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]


def test_the_scores_page_marks_the_intervals_of_a_system_level_metric_undefined():
    app = every_column(opened("pages/1_Scores.py"))
    table = app.dataframe[0].value
    metric = external()
    scores = {s: metric_score for m in metric.values() if m.name == "sysmetric"
              for s, metric_score in ((s, m.system_score(s)) for s in m.systems)}  # fmt: skip
    assert table["sysmetric"].to_dict() == scores
    assert set(table["sysmetric low"]) == set(table["sysmetric high"]) == {"undefined"}
    assert table["segmetric low"].dtype.kind == "f" and table["BLEU low"].dtype.kind == "f"
    said = escape_markdown(f"sysmetric: intervals and paired tests undefined ({why_undefined()}).")
    assert said in [info.value for info in app.info]


def test_the_charts_of_a_system_level_metric_say_why_significance_is_undefined():
    app = opened("pages/1_Scores.py")
    app.selectbox[0].set_value("sysmetric")
    checked(app.run())
    (bars,) = charts(app)  # the scores, no significance figure
    assert "error_x" not in bars["data"][0] and len(bars["data"][0]["x"]) == 4
    assert [header.value for header in app.subheader] == ["Significant differences"]
    assert any(info.value.startswith("Undefined for sysmetric") for info in app.info)
    app.selectbox[0].set_value("segmetric")  # segment scores: intervals and pairs as any metric
    checked(app.run())
    bars, heat_map = charts(app)
    assert "error_x" in bars["data"][0] and heat_map["data"][0]["type"] == "heatmap"


def test_every_download_holds_the_system_level_metric_and_its_reason(downloads):
    files = downloads(opened("pages/1_Scores.py"))
    rows = list(csv.DictReader(io.StringIO(files["Download CSV"])))
    assert [row["sysmetric low"] for row in rows] == [""] * 4  # no number: an empty cell
    assert all(float(row["segmetric low"]) <= float(row["segmetric"]) for row in rows)
    document = json.loads(files["Download JSON"])
    assert document["undefined"] == {"sysmetric": why_undefined()}
    assert "sysmetric" not in document["ci"]["neural-large"]
    assert "segmetric" in document["ci"]["neural-large"]
    assert {pair["metric"] for pair in document["pairs"]} >= {"segmetric", "bleu"}
    assert "sysmetric" not in {pair["metric"] for pair in document["pairs"]}
    latex = files["Download LaTeX"]
    assert r"{\scriptsize undefined}" in latex and "Intervals undefined for sysmetric" in latex


@pytest.mark.parametrize("metric", ["sysmetric", "segmetric"])
def test_the_correlation_page_shows_either_metric(metric):
    app = opened("pages/2_Correlation.py")
    assert {"sysmetric", "segmetric"} <= set(app.dataframe[0].value.index)
    next(box for box in app.selectbox if box.label == "Metric").set_value(metric)
    checked(app.run())
    scatter = charts(app)[0]
    assert scatter["layout"]["title"]["text"].startswith(f"{metric} against")
    infos = " ".join(info.value for info in app.info)
    assert "come from a file" in infos  # no reliability curves: they score the text again
    segments_said = escape_markdown("segments under sysmetric: undefined (") in infos
    assert segments_said == (metric == "sysmetric")  # a segment table for segmetric


@pytest.mark.parametrize("page", [None, *PAGES[2:]])
def test_the_other_pages_work_with_both_metrics(page):
    app = opened(page)
    if page is None:  # Home: both metrics among the scores at a glance
        assert {"sysmetric", "segmetric"} <= set(app.dataframe[0].value.columns)
