"""The Data page's metric-score upload takes a tool's own output (comet-score's JSON) with the
signature typed beside it; the Scores page then shows the metric and, in its signature line,
what produced it."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
COMET_JSON = ROOT / "tests/io/fixtures/neural_outputs/comet.json"
SCORES_LABEL = "Scores (COMET, MetricX"


def add_metric(app: AppTest, files: list[tuple[str, bytes]], name: str, signature: str) -> None:
    (uploader,) = [u for u in app.file_uploader if u.label.startswith(SCORES_LABEL)]
    uploader.set_value([(file_name, data, "application/json") for file_name, data in files])
    next(t for t in app.text_input if t.label == "Metric name").set_value(name)
    next(t for t in app.text_input if t.label.startswith("Signature")).set_value(signature)
    next(b for b in app.button if b.label == "Add this metric").click()
    app.run()
    assert not app.exception, [e.message for e in app.exception]


def test_a_comet_json_upload_shows_on_scores_with_its_signature() -> None:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.switch_page("pages/0_Data.py").run()
    signature = "model=Unbabel/XCOMET-XL,version=2.2.6,precision=fp16"
    add_metric(app, [("comet.json", COMET_JSON.read_bytes())], "xcomet", signature)
    assert not app.error, [e.value for e in app.error]
    (metric,) = app.session_state["external_metrics"].values()
    assert metric.higher_is_better  # no direction chosen: comet-score's JSON says it
    assert sum(len(spans) for spans in metric.spans.values()) > 0  # xCOMET's errors kept
    listed = " ".join(m.value for m in app.markdown if "Metrics from files" in m.value)
    assert "xcomet" in listed and "Unbabel/XCOMET" in listed
    app.switch_page("pages/1_Scores.py").run()
    assert not app.exception and not app.error
    columns = {str(column) for frame in app.dataframe for column in frame.value.columns}
    assert any("xcomet" in column for column in columns), columns
    captions = " ".join(caption.value for caption in app.caption)
    assert (
        "xcomet:external|xcomet-model:Unbabel/XCOMET-XL|xcomet-package:unbabel-comet|"
        "xcomet-version:2.2.6|xcomet-precision:fp16|xcomet-reference_based:yes"
    ) in captions


def test_a_bad_signature_is_a_message_and_no_metric() -> None:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.switch_page("pages/0_Data.py").run()
    add_metric(app, [("comet.json", COMET_JSON.read_bytes())], "xcomet", "model=a b")
    errors = [error.value for error in app.error]
    assert any("model='a b' cannot be part of a signature" in error for error in errors), errors
    assert "external_metrics" not in app.session_state


def test_metricx_files_one_per_system_are_one_metric() -> None:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.switch_page("pages/0_Data.py").run()
    files = sorted(COMET_JSON.parent.glob("*.metricx.jsonl"))
    add_metric(app, [(path.name, path.read_bytes()) for path in files], "metricx", "")
    assert not app.error, [e.value for e in app.error]
    (metric,) = app.session_state["external_metrics"].values()
    assert not metric.higher_is_better  # MetricX's predictions: lower is better
    assert sorted(metric.systems) == sorted(path.name.split(".")[0] for path in files)
