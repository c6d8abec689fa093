"""The Loss page as a person uses it, through Streamlit's AppTest: costs from the address bar, the
paper's tables, a breakdown by category, bootstrap intervals, uploads, and MQM weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.io.mqm import read_mqm
from mteval_core.loss.mqm import GOOGLE_WEIGHTS, system_error_points
from tests.helpers import shared_dataset

ROOT = Path(__file__).resolve().parents[2]
PER_WH = "Tate & Voss 2006, per wh-type (Tables 3 and 8)"
COUNTS = "Tate & Voss 2006, counts (Table 2)"
UPLOAD = "Your own loss table (upload)"
MQM_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def page(query: dict[str, str] | None = None, mqm=None) -> AppTest:
    app = AppTest.from_file(str(ROOT / "pages/4_Loss.py"), default_timeout=60)
    app.query_params.update(query or {})
    if mqm is not None:
        app.session_state["mqm"] = mqm
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def figures(app: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]


def figure_titled(app: AppTest, title: str) -> dict:
    return next(f for f in figures(app) if f["layout"]["title"]["text"] == title)


def rankings(app: AppTest, prefix: str = "**Ranking:** ") -> list[str]:
    return [m.value.removeprefix(prefix) for m in app.markdown if m.value.startswith(prefix)]


def upload(app: AppTest, name: str, text: str) -> AppTest:
    app.selectbox[0].set_value(UPLOAD).run()
    app.file_uploader[0].set_value((name, text.encode(), "text/csv")).run()
    return app


def test_loss_page_costs_from_the_url_presets_and_the_who_reversal():
    app = page({"c1": "1", "c2": "5", "c3": "2"})
    assert [s.value for s in app.slider] == [1.0, 5.0, 2.0]
    assert app.markdown[0].value == "**Ranking:** MT2 > MT1 > MT3"  # Table 7's order
    assert app.dataframe[0].value["average loss"].tolist() == [5.62, 7.04, 7.34]
    reversal_map = figure_titled(app, "Ranking by cost (best first)")
    regions = {t["name"] for t in reversal_map["data"] if t.get("fill") == "toself"}
    assert "MT2 > MT1 > MT3" in regions and "MT2 > MT3 > MT1" in regions
    current = next(t for t in reversal_map["data"] if t["name"] == "current costs")
    assert (current["x"][0], current["y"][0]) == pytest.approx((5 / 8, 2 / 8))  # cost shares
    app.selectbox[0].set_value(PER_WH).run()
    assert [s.label for s in app.selectbox] == ["Data", "Break down by", "Paper's costs"]
    app.selectbox[2].set_value("Table 10: (5, 5, 5.5)").run()
    assert [s.value for s in app.slider] == [5.0, 5.0, 5.5]
    assert dict(app.query_params) == {"c1": "5", "c2": "5", "c3": "5.5"}
    assert rankings(app)[2] == "MT2 > MT1 > MT3"  # Who: MT1 before MT3 (Table 10)


def test_default_costs_and_table_6_costs_keep_the_browser_test_texts():
    app = page()
    assert [s.label[:3] for s in app.slider] == ["c1:", "c2:", "c3:"]
    assert rankings(app) == ["MT2 > MT3 > MT1"]
    app.slider[0].set_value(1.0).run()
    app.slider[2].set_value(2.0).run()
    assert rankings(app) == ["MT2 > MT1 > MT3"]
    assert app.dataframe[0].value["average loss"].tolist() == [0.75, 2.30, 2.35]  # Table 6
    assert dict(app.query_params) == {"c1": "1", "c2": "2", "c3": "2"}
    assert "Table 5" in app.caption[1].value and "-12.28" in app.caption[1].value
    assert "Uncertainty needs counts" in app.info[-1].value  # rates only: no intervals


def test_breakdown_by_wh_names_the_categories_that_differ():
    app = page({"c1": "5", "c2": "5", "c3": "5.5"})
    app.selectbox[0].set_value(PER_WH).run()
    breakdown = app.dataframe[0].value
    assert list(breakdown.columns) == ["system", "overall", "When", "Where", "Who"]
    assert breakdown["system"].tolist() == ["MT2", "MT3", "MT1"]
    assert breakdown["Who"].tolist() == [-10.54, -5.41, -5.57]  # Table 10
    assert breakdown["When"].tolist() == [-6.80, -0.72, 0.51]
    assert breakdown["overall"].tolist() == [-8.36, -3.12, -2.01]
    assert "**Overall ranking:** MT2 > MT3 > MT1" in [m.value for m in app.markdown]
    assert (
        app.warning[0].value == "Rankings that differ from the overall one: Who (MT1 before MT3)."
    )
    assert "mean of the wh losses" in " ".join(c.value for c in app.caption)
    app.slider[1].set_value(2.0).run()
    app.slider[2].set_value(1.0).run()  # Tables 5 and 9: the same ranking everywhere
    assert "Every wh ranks the systems as the overall ranking does." in app.info[0].value
    assert rankings(app) == ["MT2 > MT3 > MT1"] * 3


def test_counts_give_intervals_and_flag_the_close_pair():
    app = page({"c1": "1", "c2": "2", "c3": "2"})
    app.selectbox[0].set_value(COUNTS).run()
    assert rankings(app) == ["MT2 > MT1 > MT3"]
    losses, pairs = (frame.value for frame in app.dataframe)
    assert losses["average loss"].tolist() == [0.74, 2.29, 2.34]  # unrounded rates
    assert (losses["95% low"] < losses["average loss"]).all()
    assert (losses["average loss"] < losses["95% high"]).all()
    flagged = pairs[pairs["within uncertainty"]]
    assert flagged[["better", "worse"]].values.tolist() == [["MT1", "MT3"]]
    assert 0.5 < flagged["P(better has the lower loss)"].iloc[0] < 0.975
    assert pairs[~pairs["within uncertainty"]]["P(better has the lower loss)"].min() > 0.99
    assert app.warning[0].value.startswith("Within the uncertainty at these costs: MT1 > MT3.")
    notes = " ".join(c.value for c in app.caption)
    assert "parametric bootstrap of the counts" in notes and "seed 2006" in notes
    bars = figure_titled(app, "Average loss (lower is better)")["data"][0]
    assert bars["y"] == ["MT2", "MT1", "MT3"]
    high = losses["95% high"] - losses["average loss"]
    assert bars["error_x"]["array"] == pytest.approx(high.tolist(), abs=0.011)
    before = pairs.values.tolist()
    app.run()  # same data, same seed: the same numbers
    assert app.dataframe[1].value.values.tolist() == before


CASES = "system,case,domain,correct,non_response,incorrect,rt_total,marked_total\n" + "".join(
    f"{system},{system}{domain}{case},{domain},{correct},{10 - correct},1,10,4\n"
    for system, skills in (("A", (8, 3)), ("B", (5, 7)))
    for domain, correct in zip(("news", "talks"), skills)
    for case in range(20)
)


def test_an_uploaded_case_table_breaks_down_by_its_column_with_a_case_bootstrap():
    app = upload(page(), "cases.csv", CASES)
    assert not app.exception
    assert app.selectbox[1].options == ["none", "domain"] and app.selectbox[1].value == "domain"
    # At (5, 2, 1) a loss is (-5 correct + 2 non-response + 1 incorrect) / 1 per case.
    breakdown = app.dataframe[0].value
    assert breakdown["system"].tolist() == ["B", "A"]
    assert breakdown.set_index("system").to_dict() == {
        "overall": {"A": -17.5, "B": -21.0},
        "news": {"A": -35.0, "B": -14.0},
        "talks": {"A": 0.0, "B": -28.0},
    }
    assert app.warning[0].value == "Rankings that differ from the overall one: news (A before B)."
    assert "bootstrap over cases" in " ".join(c.value for c in app.caption)
    app.selectbox[1].set_value("none").run()
    assert rankings(app) == ["B > A"]
    assert app.dataframe[0].value["average loss"].tolist() == [-21.0, -17.5]


def test_a_bad_upload_names_file_line_and_column():
    bad = "system,correct,non_response,incorrect,rt_total,marked_total,cases\nA,5,2,x,10,8,2\n"
    app = upload(page(), "mine.csv", bad)
    assert app.error[0].value == "mine.csv, line 2, column incorrect: 'x' is not a number"
    assert not app.slider  # the page stops there


def test_without_mqm_annotations_a_hint():
    app = page()
    assert "Upload Google-format MQM annotations on the Data page" in app.caption[-1].value
    assert len(app.slider) == 3


MQM = MQM_HEADER + (
    "A\td\t1\t1\tr1\ts\tt\tFluency/Punctuation\tMinor\n"
    "A\td\t1\t1\tr1\ts\tt\tAccuracy/Mistranslation\tMajor\n"
    "A\td\t2\t2\tr1\ts\tt\tNo-error\tNo-error\n"
    "B\td\t1\t1\tr1\ts\tt\tStyle/Awkward\tMinor\n"
    "B\td\t1\t1\tr1\ts\tt\tStyle/Awkward\tMinor\n"
    "B\td\t2\t2\tr1\ts\tt\tAccuracy/Omission\tCritical\n"
    "C\td\t1\t1\tr1\ts\tt\tStyle/Awkward\tMinor\n"
    "C\td\t2\t2\tr1\ts\tt\tAccuracy/Mistranslation\tMajor\n"
)


def test_mqm_weights_rank_live_from_the_url_and_map_two_weights():
    annotations = read_mqm(MQM.encode(), "mqm.tsv")
    app = page({"c1": "5", "w_critical": "4"}, mqm=annotations)
    assert [s.label for s in app.slider][3:] == [
        "Major (other than non-translation)",
        "Minor (other than punctuation)",
        "Neutral",
        "Major/Non-translation!",
        "Minor/Fluency/Punctuation",
        "Critical",
    ]
    assert [s.value for s in app.slider][3:] == [5.0, 1.0, 0.0, 25.0, 0.1, 4.0]
    # Mean points per segment: A (5.1 + 0) / 2, B (2 + 4) / 2, C (1 + 5) / 2.
    table = app.dataframe[-1].value
    assert table["system"].tolist() == ["A", "B", "C"]  # B and C tie at 3: input order
    assert table["error points per segment"].tolist() == [2.55, 3.0, 3.0]
    assert rankings(app, "**MQM ranking:** ") == ["A > B > C"]
    app.slider[4].set_value(0.5).run()  # Minor 1 -> 0.5: A 2.55, B 2.5, C 2.75
    assert rankings(app, "**MQM ranking:** ") == ["B > A > C"]
    assert app.query_params["w_minor"] == "0.5" and app.query_params["w_critical"] == "4"
    assert app.query_params["c1"] == "5"
    weight_map = figure_titled(app, "MQM ranking by weight (best first)")
    assert weight_map["layout"]["xaxis"]["title"]["text"] == "weight of Major"
    assert weight_map["layout"]["yaxis"]["title"]["text"] == "weight of Minor"
    current = next(t for t in weight_map["data"] if t["name"] == "current weights")
    assert (current["x"][0], current["y"][0]) == (5.0, 0.5)
    google = next(t for t in weight_map["data"] if t["name"] == "Google's weights")
    assert (google["x"][0], google["y"][0]) == (5.0, 1.0)
    regions = {t["name"] for t in weight_map["data"] if t.get("fill") == "toself"}
    assert "B > A > C" in regions and "A > B > C" in regions
    app.selectbox[-2].set_value("Critical").run()  # x axis: Critical against Minor
    weight_map = figure_titled(app, "MQM ranking by weight (best first)")
    assert weight_map["layout"]["xaxis"]["title"]["text"] == "weight of Critical"
    app.button[0].click().run()  # back to Google's weights
    assert [s.value for s in app.slider][3:] == [5.0, 1.0, 0.0, 25.0, 0.1, 25.0]


def test_ted_mqm_with_google_weights_gives_the_system_means():
    folder = shared_dataset("wmt21-ted-mqm-ende") / "human" / "original"
    annotations = read_mqm((folder / "mqm_ted_ende.tsv").read_bytes(), "mqm_ted_ende.tsv")
    app = page(mqm=annotations)
    table = app.dataframe[-1].value
    expected = system_error_points(annotations, GOOGLE_WEIGHTS)
    assert table["system"].tolist() == sorted(expected, key=expected.__getitem__)
    assert table["error points per segment"].tolist() == [
        round(expected[system], 3) for system in table["system"]
    ]
    assert table["error points per segment"].iloc[0] == 0.912  # ref, the human translation
    assert len(app.slider) == 3 + 5  # no Critical errors in the TED annotations
    assert app.multiselect[0].value == table["system"].tolist()[:4]
