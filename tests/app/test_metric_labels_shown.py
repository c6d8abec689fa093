"""Every page calls a metric by one label, the Scores page's ("BLEU", "F1", "GTM"), never by its
registry name ("bleu", "f1", "gtm"): table headers and rows, select box options, figure titles,
axes, bars and hovers, captions, alerts and the downloads people open in a spreadsheet."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.metrics import REGISTRY
from pages.ui.session import DASHBOARD_METRICS

ROOT = Path(__file__).resolve().parents[2]
LABELS = [REGISTRY[name].label for name in DASHBOARD_METRICS]  # BLEU, NIST, P, R, F1, Fmean, GTM
# a registry name standing alone ("gtm" but neither "gtm-e:1" of a signature nor "GTM")
RAW_NAME = re.compile(rf"(?<![\w-])({'|'.join(map(re.escape, DASHBOARD_METRICS))})(?![\w-])")


def open_page(page: str) -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    app.switch_page(page).run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def figure_texts(spec: dict) -> Iterator[str]:
    """Titles, axis titles and every string a trace shows (bar names, hovers)."""
    layout = spec["layout"]
    yield layout.get("title", {}).get("text", "")
    for axis in ("xaxis", "yaxis"):
        yield layout.get(axis, {}).get("title", {}).get("text", "")
    for trace in spec["data"]:
        for key in ("x", "y", "text", "customdata", "name"):
            values = trace.get(key)
            yield from (values if isinstance(values, list) else [values])


def shown_texts(app: AppTest) -> list[str]:
    """Every text of the page where a metric can be named; code spans (the signature, whose
    "gtm-e" is no metric's name) left out."""
    texts: list[str] = []
    for frame in [*(f.value for f in app.dataframe), *(t.value for t in app.table)]:
        texts += [str(entry) for entry in (*frame.index, *frame.columns)]
        texts += [str(cell) for cell in frame.to_numpy().ravel()]
    for widget in [*app.selectbox, *app.multiselect]:
        texts += [widget.label, *map(str, widget.options)]
    for element in [*app.caption, *app.warning, *app.info, *app.subheader]:
        texts.append(re.sub(r"`[^`]*`", "", element.value))
    for chart in app.get("plotly_chart"):
        texts += [str(text) for text in figure_texts(json.loads(chart.proto.spec))]
    return texts


def raw_names(texts: list[str]) -> list[str]:
    return [text for text in texts if RAW_NAME.search(text)]


def test_the_check_finds_a_raw_name():
    assert raw_names(["bleu against adequacy", "Δ gtm", "p against f1: 0.2"]) == [
        "bleu against adequacy",
        "Δ gtm",
        "p against f1: 0.2",
    ]
    assert raw_names(["BLEU", "gtm-e:1", "F1 better", "Fmean", "acc_eq (item)"]) == []


def test_the_scores_page_shows_labels_only(downloads):
    app = open_page("pages/1_Scores.py")
    assert app.selectbox[0].options == LABELS and app.selectbox[0].value == "bleu"
    texts = shown_texts(app)
    app.toggle[0].set_value(False).run()  # the clusters instead of the heat map
    texts += shown_texts(app)
    assert raw_names(texts) == []
    assert {"BLEU: paired bootstrap significance", "GTM"} <= set(texts)
    header = next(csv.reader(io.StringIO(downloads(app)["Download CSV"])))
    assert raw_names(header) == [] and {*LABELS, "BLEU low", "GTM high"} <= set(header)


def test_the_correlation_page_shows_labels_only():
    """With segment-level judgments (the sample): the table, the comparison with the other
    metrics, both scatters, the segments, the segment-level table, density and ranking with its
    p-values, and the reliability curves, each with another metric chosen."""
    app = open_page("pages/2_Correlation.py")
    texts = shown_texts(app)
    for label, metric in (("Metric", "f1"), ("Metric for the density", "gtm")):
        next(s for s in app.selectbox if s.label == label).set_value(metric).run()
    next(s for s in app.selectbox if s.label == "p-values of").set_value("fmean").run()
    assert not app.exception and not app.error
    texts += shown_texts(app)
    assert raw_names(texts) == []
    for label in ("Metric", "Metric for the density", "p-values of"):
        assert set(next(s for s in app.selectbox if s.label == label).options) <= set(LABELS)
    assert "Reliability of F1 against test size" in " ".join(texts)
    assert "Fmean against every other metric" in " ".join(texts)
    assert set(app.dataframe[0].value.index) == set(LABELS)
