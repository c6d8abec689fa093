"""The Loss page as a person uses it, through Streamlit's AppTest: costs from the address bar, the
paper's tables, a breakdown by category, bootstrap intervals, uploads, and MQM weights."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import mteval_core.loss.view
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.loss.mqm_loss import GOOGLE_WEIGHTS, system_error_points
from pages.ui.markdown_escape import escape_markdown
from tests.helpers import make_test_set, shared_dataset

ROOT = Path(__file__).resolve().parents[2]
PER_WH = "Tate & Voss 2006, per wh-type (Tables 3 and 8)"
COUNTS = "Tate & Voss 2006, counts (Table 2)"
UPLOAD = "Your own loss table (upload)"
MQM_HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def page(query: dict[str, str] | None = None, mqm=None, test_set=None) -> AppTest:
    app = AppTest.from_file(str(ROOT / "pages/4_Loss.py"), default_timeout=60)
    app.query_params.update(query or {})
    if mqm is not None:
        app.session_state["mqm"] = mqm
    if test_set is not None:  # as the Data page leaves an upload
        app.session_state["test_set"] = test_set
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def figures(app: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]


def figure_titled(app: AppTest, title: str) -> dict:
    return next(f for f in figures(app) if f["layout"]["title"]["text"] == title)


def rankings(app: AppTest, prefix: str = "**Ranking:** ") -> list[str]:
    return [m.value.removeprefix(prefix) for m in app.markdown if m.value.startswith(prefix)]


def source_line(app: AppTest) -> str:
    """The line at the top of the page that says which data it shows (an info, or a warning
    when the user's test set has no loss data)."""
    (title,) = app.title
    children = list(app.main.children.values())
    return children[children.index(title) + 1].value


def open_tab(app: AppTest, by: str, label: str) -> AppTest:
    """Switch the group tabs (only the open one runs), as a click on the tab does."""
    app.session_state[f"loss_tab_{by}"] = label
    return app.run()


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
    assert rankings(app) == ["MT2 > MT3 > MT1"]  # When, the open tab
    assert rankings(open_tab(app, "wh", "Who")) == ["MT2 > MT1 > MT3"]  # MT1 before MT3 (Table 10)


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
    assert "Every wh ranks the systems as the overall ranking does." in app.info[1].value
    assert [tab.label for tab in app.tabs] == ["When", "Where", "Who"]
    for tab in ("When", "Where", "Who"):  # only the open tab is drawn, and each ranks alike
        assert rankings(open_tab(app, "wh", tab)) == ["MT2 > MT3 > MT1"]
        assert figure_titled(app, "Ranking by cost (best first)")


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


def mqm_sliders(app: AppTest) -> list:
    """The error weights' sliders (the cost sliders are c1, c2, c3)."""
    return [s for s in app.slider if not s.label.startswith(("c1:", "c2:", "c3:"))]


def mqm_table(app: AppTest):
    (table,) = [f.value for f in app.dataframe if "error points per segment" in f.value]
    return table


def test_mqm_weights_rank_live_from_the_url_and_map_two_weights():
    annotations = read_mqm(MQM.encode(), "mqm.tsv")
    app = page({"c1": "5", "w_critical": "4"}, mqm=annotations)
    # the user's annotations first, the paper's example of costs below them
    assert [h.value for h in app.header] == ["MQM weights", "Costs"]
    assert [s.label for s in mqm_sliders(app)] == [
        "Major (other than non-translation)",
        "Minor (other than punctuation)",
        "Neutral",
        "Major/Non-translation!",
        "Minor/Fluency/Punctuation",
        "Critical",
    ]
    assert [s.value for s in mqm_sliders(app)] == [5.0, 1.0, 0.0, 25.0, 0.1, 4.0]
    # Mean points per segment: A (5.1 + 0) / 2, B (2 + 4) / 2, C (1 + 5) / 2.
    table = mqm_table(app)
    assert table["system"].tolist() == ["A", "B", "C"]  # B and C tie at 3: input order
    assert table["error points per segment"].tolist() == [2.55, 3.0, 3.0]
    assert rankings(app, "**MQM ranking:** ") == ["A > B > C"]
    mqm_sliders(app)[1].set_value(0.5).run()  # Minor 1 -> 0.5: A 2.55, B 2.5, C 2.75
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
    (x_axis,) = [box for box in app.selectbox if box.label == "Weight on the x axis"]
    x_axis.set_value("Critical").run()  # x axis: Critical against Minor
    weight_map = figure_titled(app, "MQM ranking by weight (best first)")
    assert weight_map["layout"]["xaxis"]["title"]["text"] == "weight of Critical"
    app.button[0].click().run()  # back to Google's weights
    assert [s.value for s in mqm_sliders(app)] == [5.0, 1.0, 0.0, 25.0, 0.1, 0.0]


def test_without_mqm_annotations_the_costs_come_first():
    assert [h.value for h in page().header] == ["Costs", "MQM weights"]


def test_ted_mqm_with_google_weights_gives_the_system_means():
    folder = shared_dataset("wmt21-ted-mqm-ende") / "human" / "original"
    annotations = read_mqm((folder / "mqm_ted_ende.tsv").read_bytes(), "mqm_ted_ende.tsv")
    app = page(mqm=annotations)
    table = mqm_table(app)
    expected = system_error_points(annotations, GOOGLE_WEIGHTS)
    assert table["system"].tolist() == sorted(expected, key=expected.__getitem__)
    assert table["error points per segment"].tolist() == [
        round(expected[system], 3) for system in table["system"]
    ]
    assert table["error points per segment"].iloc[0] == 0.912  # ref, the human translation
    assert len(mqm_sliders(app)) == 5  # no Critical errors in the TED annotations
    assert app.multiselect[0].value == table["system"].tolist()[:4]


def test_every_ranking_on_the_ted_mqm_map_has_a_colour_of_its_own():
    """Six systems of TED en-de on the map of Major and Minor: 12 rankings, one more than
    Plotly's Pastel palette, which wrapped round and gave two rankings one colour."""
    folder = shared_dataset("wmt21-ted-mqm-ende") / "human" / "original"
    app = page(mqm=read_mqm((folder / "mqm_ted_ende.tsv").read_bytes(), "mqm_ted_ende.tsv"))
    (shown,) = app.multiselect
    shown.set_value(shown.options[:6]).run()
    weight_map = figure_titled(app, "MQM ranking by weight (best first)")
    colours: dict[str, str] = {}
    for trace in weight_map["data"]:
        if trace.get("fill") == "toself":  # a region: its ranking and its colour
            assert colours.setdefault(trace["name"], trace["fillcolor"]) == trace["fillcolor"]
    assert len(colours) == 12
    assert len(set(colours.values())) == len(colours)


# ------------------------------------------------------------------ which data the page shows
WMT_LIKE = make_test_set(  # an upload as the Data page leaves it: no loss table, no MQM
    ["a b c", "d e f"],
    {"Facebook-AI": ["a b c", "d e"], "[VolcTrans](https://example.org)": ["a b", "d e f"]},
)


def test_the_sample_names_the_paper_tables_and_their_file():
    app = page()
    line = source_line(app)
    assert line == escape_markdown(
        "Data shown: the paper's tables (Tate & Voss 2006, systems MT1, MT2, MT3; "
        "tate-voss-2006-table2-table4-rates.csv)."
    )
    assert app.info[0].value == line and not app.warning and not app.error
    assert app.caption[1].value.startswith("The paper's example, not your data.")
    app.selectbox[0].set_value(COUNTS).run()
    assert "tate-voss-2006-table2-counts.csv" in source_line(app)


def test_an_uploaded_test_set_without_loss_data_says_what_to_upload():
    app = page(test_set=WMT_LIKE)
    assert not app.error and not app.exception
    line = source_line(app)
    assert app.warning[0].value == line  # a warning, not an error box
    assert line.startswith(
        escape_markdown("Your test set (2 systems: Facebook-AI, [VolcTrans](https://example.org))")
    )  # the uploaded systems named as text, never as a link
    for what in (
        "has no loss data",
        "shows the paper's example: Tate & Voss 2006's systems MT1, MT2, MT3",
        "tate-voss-2006-table2-table4-rates.csv), not yours.",
        "MQM error annotations on the Data page",
        "system, seg_id (2020-2021) or doc and docSegId (2022-2024), rater, category, severity",
        "'Your own loss table'",
        "system, correct, non_response, incorrect, rt_total, marked_total, cases",
    ):
        assert escape_markdown(what) in line, what
    # The paper's example is still there, labelled as such.
    assert rankings(app) == ["MT2 > MT3 > MT1"]
    assert app.caption[1].value.startswith("The paper's example, not your data.")


def test_an_uploaded_loss_table_is_named_as_text():
    app = upload(page(test_set=WMT_LIKE), "**wmt23 loss**.csv", CASES)
    assert source_line(app) == escape_markdown("Data shown: your loss table **wmt23 loss**.csv.")
    assert not app.error and "has no loss data" not in " ".join(w.value for w in app.warning)
    assert rankings(app) == ["A > B"]  # the table's own systems, news first
    assert rankings(open_tab(app, "domain", "talks")) == ["B > A"]


def test_before_a_loss_table_is_uploaded_the_page_says_so():
    app = page(test_set=WMT_LIKE)
    app.selectbox[0].set_value(UPLOAD).run()
    assert source_line(app) == escape_markdown("Data shown: no loss table yet (upload one below).")
    assert not app.slider and not app.error  # nothing to rank yet, and no complaint


def test_uploaded_mqm_annotations_are_named_with_the_cost_data():
    annotations = read_mqm(MQM.encode(), "wmt22 <mqm>.tsv")
    app = page(mqm=annotations, test_set=WMT_LIKE)
    assert source_line(app) == escape_markdown(
        "Data shown: MQM weights: your annotations wmt22 <mqm>.tsv (Data page); costs: the "
        "paper's tables (Tate & Voss 2006, systems MT1, MT2, MT3; "
        "tate-voss-2006-table2-table4-rates.csv)."
    )
    assert not app.warning and not app.error


def test_a_cost_slider_reuses_the_prepared_analysis(monkeypatch):
    """Moving a cost reads the table and maps the rankings no second time: the content-keyed
    cache holds them (the slider's response is then one matrix product and the figures)."""
    calls = []
    original = mteval_core.loss.view.analyse_loss

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(mteval_core.loss.view, "analyse_loss", counted)
    app = page()
    app.selectbox[0].set_value(PER_WH).run()
    before = len(calls)
    for value in (1.5, 2.0, 3.5):
        app.slider[2].set_value(value).run()
    assert len(calls) == before
    assert app.slider[2].value == 3.5 and rankings(app)
