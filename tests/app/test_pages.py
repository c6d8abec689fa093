"""The dashboard as a person uses it, through Streamlit's AppTest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]


def run(page: str) -> AppTest:
    app = AppTest.from_file(str(ROOT / page), default_timeout=60).run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def test_home_shows_the_sample_test_set():
    app = run("app.py")
    text = " ".join(m.value for m in app.markdown)
    assert "**Segments**  \n40" in text
    assert "neural-large, neural-small, phrase-based, word-by-word" in text
    assert "adequacy, fluency" in text
    preview = app.dataframe[0].value
    assert list(preview.columns[:4]) == ["document", "source", "ref-A", "ref-B"]
    assert len(preview) == 10


def test_scores_page_ranks_the_sample_systems_by_quality():
    app = run("pages/1_Scores.py")
    table = app.dataframe[0].value
    assert list(table.index) == ["neural-large", "neural-small", "phrase-based", "word-by-word"]
    for metric in ("BLEU", "NIST", "P", "R", "F1", "Fmean"):
        assert table[metric].is_monotonic_decreasing, metric
    assert "nrefs:2|case:mixed|tok:13a|stem:none" in app.caption[0].value


def test_scores_page_options_change_numbers_and_signature():
    app = run("pages/1_Scores.py")
    before = app.dataframe[0].value
    app.selectbox[1].set_value("porter").run()
    after = app.dataframe[0].value
    assert "stem:porter-nltk" in app.caption[0].value
    assert (after["R"] >= before["R"]).all() and (after["R"] > before["R"]).any()


@pytest.mark.parametrize("metric", ["BLEU", "Fmean"])
def test_scores_chart_shows_one_bar_per_system(metric):
    app = run("pages/1_Scores.py")
    app.selectbox[2].set_value(metric).run()
    figure = json.loads(app.get("plotly_chart")[0].proto.spec)
    bars = figure["data"][0]
    assert bars["type"] == "bar" and len(bars["y"]) == 4
    assert bars["y"][0] == "neural-large"
    assert figure["layout"]["title"]["text"] == f"{metric} by system"
