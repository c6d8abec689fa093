"""The dashboard as a person uses it, through Streamlit's AppTest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.config import Options
from mteval_core.sample import SAMPLE_DATA

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
    assert "nrefs:2|case:mixed|tok:13a|stem:none" in app.caption[-1].value


def test_scores_page_offers_downloads_with_the_signature():
    app = run("pages/1_Scores.py")
    buttons = app.get("download_button")
    assert [b.proto.label for b in buttons] == ["Download CSV", "Download JSON", "Download LaTeX"]


def test_scores_page_uses_the_options_of_the_data_page():
    app = run("pages/1_Scores.py")
    before = app.dataframe[0].value
    app.session_state["options"] = Options(stem="porter")
    app.run()
    after = app.dataframe[0].value
    assert "stem:porter-nltk" in app.caption[-1].value
    assert (after["R"] >= before["R"]).all() and (after["R"] > before["R"]).any()


@pytest.mark.parametrize("metric", ["BLEU", "Fmean"])
def test_scores_chart_shows_one_bar_per_system(metric):
    app = run("pages/1_Scores.py")
    app.selectbox[0].set_value(metric).run()
    figure = json.loads(app.get("plotly_chart")[0].proto.spec)
    bars = figure["data"][0]
    assert bars["type"] == "bar" and len(bars["y"]) == 4
    assert bars["y"][0] == "neural-large"
    assert figure["layout"]["title"]["text"] == f"{metric} by system"


def test_correlation_page_scatter_and_table():
    app = run("pages/2_Correlation.py")
    table = app.dataframe[0].value
    assert list(table.index) == ["bleu", "nist", "precision", "recall", "f1", "fmean", "gtm"]
    assert "Pearson 95% CI" in table.columns
    scatter, differences = (json.loads(c.proto.spec) for c in app.get("plotly_chart"))
    assert len(scatter["data"][0]["x"]) == 4  # one point per system
    assert scatter["layout"]["title"]["text"].startswith("bleu against adequacy+fluency")
    assert len(differences["data"][0]["x"]) == 6  # one point per pair of systems
    app.multiselect[0].set_value(["word-by-word"]).run()
    assert app.dataframe[0].value.loc["bleu", "n"] == 3


def test_bitext_grid_page_draws_blocks_and_barriers():
    app = run("pages/3_Bitext_grid.py")
    figure = json.loads(app.get("plotly_chart")[0].proto.spec)
    shapes = figure["layout"]["shapes"]
    rectangles = [s for s in shapes if s["type"] == "rect"]
    barriers = [s for s in shapes if s["type"] == "line"]
    assert len(rectangles) >= 5 and len(barriers) == 2  # two references
    assert "greedy: sum of len^e" in figure["layout"]["title"]["text"]
    app.radio[0].set_value("exact (maximum)").run()
    figure = json.loads(app.get("plotly_chart")[0].proto.spec)
    assert (
        "bound:" in figure["layout"]["title"]["text"]
        or "milp:" in figure["layout"]["title"]["text"]
    )


def test_loss_page_costs_from_the_url_presets_and_the_who_reversal():
    app = AppTest.from_file(str(ROOT / "pages/4_Loss.py"), default_timeout=60)
    app.query_params.update({"c1": "1", "c2": "5", "c3": "2"})
    app.run()
    assert not app.exception
    assert [s.value for s in app.slider] == [1.0, 5.0, 2.0]
    assert app.markdown[0].value == "**Ranking:** MT2 > MT1 > MT3"  # Table 7's order
    assert app.dataframe[0].value["average loss"].tolist() == [5.62, 7.04, 7.34]
    figure = json.loads(app.get("plotly_chart")[0].proto.spec)
    rankings = {trace["name"] for trace in figure["data"] if trace.get("fill") == "toself"}
    assert "MT2 > MT1 > MT3" in rankings and "MT2 > MT3 > MT1" in rankings
    app.selectbox[0].set_value("Tate & Voss 2006, per wh-type (Tables 3 and 8)").run()
    app.selectbox[1].set_value("Table 10: (5, 5, 5.5)").run()
    assert [s.value for s in app.slider] == [5.0, 5.0, 5.5]
    assert dict(app.query_params) == {"c1": "5", "c2": "5", "c3": "5.5"}
    rankings = [m.value for m in app.markdown if m.value.startswith("**Ranking")]
    assert rankings[2] == "**Ranking:** MT2 > MT1 > MT3"  # Who: MT1 before MT3 (Table 10)


def test_data_page_shows_the_sample_and_sets_options_for_every_page():
    app = run("pages/0_Data.py")
    assert "**Segments**  \n40" in " ".join(m.value for m in app.markdown)
    app.selectbox[1].set_value("porter").run()  # stemming
    assert app.session_state["options"].stem == "porter"
    assert "stem:porter-nltk" in app.caption[-1].value
    app.number_input[1].set_value(0.5).run()  # GTM exponent below 1 with exact matching
    app.radio[0].set_value("exact").run()
    assert "at least 1" in app.error[0].value  # refused in plain words; options kept


def test_data_page_summarises_loaded_mqm_annotations():
    from mteval_core.io.mqm import read_mqm

    tsv = (
        "system\tseg_id\trater\tcategory\tseverity\n"
        "sysA\t1\tr1\tAccuracy/Mistranslation\tMajor\n"
        "sysA\t1\tr1\tFluency/Punctuation\tMinor\n"
        "sysB\t1\tr2\tNo-error\tNo-error\n"
    )
    app = AppTest.from_file(str(ROOT / "pages/0_Data.py"), default_timeout=60)
    app.session_state["mqm"] = read_mqm(tsv.encode(), "mqm.tsv")
    app.run()
    assert not app.exception
    summary = [m.value for m in app.markdown if m.value.startswith("**MQM annotations:**")]
    assert summary == [
        "**MQM annotations:** 2 ratings of 2 systems by 2 raters, 2 errors of 2 kinds (mqm.tsv)"
    ]


def test_an_uploaded_test_set_reaches_the_other_pages():
    from mteval_core.io.uploads import test_set_from_uploads

    def upload(path):
        return (path.name, path.read_bytes())

    test_set = test_set_from_uploads(
        [upload(SAMPLE_DATA / "ref" / "ref-A.en")],
        [upload(p) for p in sorted((SAMPLE_DATA / "sys").iterdir())[:3]],
    )
    app = AppTest.from_file(str(ROOT / "pages/1_Scores.py"), default_timeout=60)
    app.session_state["test_set"] = test_set
    app.run()
    assert len(app.dataframe[0].value) == 3 and "nrefs:1" in app.caption[-1].value
    app = AppTest.from_file(str(ROOT / "pages/2_Correlation.py"), default_timeout=60)
    app.session_state["test_set"] = test_set
    app.run()
    assert "no human judgments" in app.info[0].value
