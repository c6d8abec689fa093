"""The Scores page as a researcher uses it: scores with intervals, which differences are
significant, charts and downloads; every number checked against the core."""

from __future__ import annotations

import csv
import io
import json
from functools import cache
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.metrics.scoring import Scores, score_test_set
from mteval_core.report.writers import metric_labels, too_few_resamples
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import (
    ONE_SEGMENT,
    BootstrapResult,
    bootstrap_scores,
    why_no_paired_test,
)
from pages.ui.markdown_escape import escape_markdown
from pages.ui.session import DASHBOARD_METRICS
from tests.helpers import load_sample, make_test_set

PAGE = str(Path(__file__).resolve().parents[2] / "pages/1_Scores.py")
SYSTEMS = ["neural-large", "neural-small", "phrase-based", "word-by-word"]  # best first


def run(app: AppTest | None = None) -> AppTest:
    if app is None:
        app = AppTest.from_file(PAGE, default_timeout=60)
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


@cache
def expected(stem: str = "none") -> tuple[Scores, BootstrapResult]:
    """What the page must show for the sample, straight from the core (default 1000 resamples)."""
    scores = score_test_set(load_sample().test_set, DASHBOARD_METRICS, Options(stem=stem))
    return scores, bootstrap_scores(scores, BootstrapOptions())


def charts(app: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]


def every_column(app: AppTest) -> AppTest:
    """The page with every column of the scores table chosen."""
    (chooser,) = app.multiselect
    chooser.set_value(list(chooser.options))
    return run(app)


def test_table_ranks_the_systems_with_their_bootstrap_intervals():
    app = every_column(run())
    table = app.dataframe[0].value
    scores, resampled = expected()
    assert list(table.index) == SYSTEMS
    for metric in scores.metrics:
        low, high = table[f"{metric.label} low"], table[f"{metric.label} high"]
        assert table[metric.label].is_monotonic_decreasing, metric.label
        assert all(pd.api.types.is_numeric_dtype(c) for c in (table[metric.label], low, high))
        assert low.to_dict() == {s: resampled.ci[s][metric.name][0] for s in SYSTEMS}
        assert high.to_dict() == {s: resampled.ci[s][metric.name][1] for s in SYSTEMS}
        assert (low < table[metric.label]).all() and (table[metric.label] < high).all()
    assert "1,000 resamples, seed 12345" in app.caption[1].value
    assert "nrefs:2|case:mixed|tok:13a|stem:none" in app.caption[-1].value


def test_no_resamples_means_scores_only(downloads):
    app = run()
    app.select_slider[0].set_value(0)
    run(app)
    scores, _ = expected()
    assert list(app.dataframe[0].value.columns) == [m.label for m in scores.metrics]
    (bars,) = charts(app)  # no heat map
    assert "error_x" not in bars["data"][0]
    files = downloads(app)
    assert next(csv.reader(io.StringIO(files["Download CSV"])))[-2:] == ["GTM", "signature"]
    assert set(json.loads(files["Download JSON"])) == {
        "signature",
        "signatures",
        "scores",
        "metric_labels",
    }


@pytest.mark.parametrize("label, metric", [("BLEU", "bleu"), ("Fmean", "fmean")])
def test_bar_chart_error_bars_are_the_intervals(label, metric):
    app = run()
    app.selectbox[0].set_value(metric)
    run(app)
    bars = charts(app)[0]
    assert bars["layout"]["title"]["text"] == f"{label} by system"
    trace = bars["data"][0]
    assert trace["type"] == "bar" and trace["y"] == SYSTEMS
    _, resampled = expected()
    error = trace["error_x"]
    for system, score, above, below in zip(
        SYSTEMS, trace["x"], error["array"], error["arrayminus"]
    ):
        low, high = resampled.ci[system][metric]
        assert score + above == pytest.approx(high) and score - below == pytest.approx(low)


@pytest.mark.parametrize("label, metric", [("BLEU", "bleu"), ("NIST", "nist")])
def test_heat_map_shows_every_pair_with_its_holm_corrected_p(label, metric):
    app = run()
    app.selectbox[0].set_value(metric)
    run(app)
    heat_map = charts(app)[1]
    assert heat_map["layout"]["title"]["text"] == f"{label}: paired bootstrap significance"
    cells, clickable = heat_map["data"]  # the cells, and the invisible markers clicks select
    assert clickable["type"] == "scatter" and len(clickable["x"]) == 12
    assert cells["type"] == "heatmap" and cells["x"] == SYSTEMS and cells["y"] == SYSTEMS
    assert [len(row) for row in cells["z"]] == [4, 4, 4, 4]
    assert [cells["z"][i][i] for i in range(4)] == [None] * 4
    _, resampled = expected()
    pairs = [p for p in resampled.pairs if p.metric == metric]
    assert len(pairs) == 6
    for pair in pairs:
        row, column = SYSTEMS.index(pair.a), SYSTEMS.index(pair.b)
        assert cells["customdata"][row][column] == [pair.delta, pair.p, pair.p_holm]
        assert cells["customdata"][column][row] == [-pair.delta, pair.p, pair.p_holm]
        assert f"p={pair.p_holm:.3f}" in cells["text"][row][column]
    assert "Holm-corrected over this metric's 6 system pairs" in app.caption[2].value


def test_options_of_the_data_page_reach_scores_and_intervals():
    app = run()
    before = app.dataframe[0].value
    app.session_state["options"] = Options(stem="porter")
    after = every_column(run(app)).dataframe[0].value
    assert "stem:porter-nltk" in app.caption[-1].value
    assert (after["R"] >= before["R"]).all() and (after["R"] > before["R"]).any()
    _, stemmed = expected("porter")  # not the unstemmed intervals from the cache
    assert after["R low"].to_dict() == {s: stemmed.ci[s]["recall"][0] for s in SYSTEMS}


def test_downloads_carry_the_signature_intervals_and_pairs(downloads):
    app = run()
    files = downloads(app)
    assert list(files) == ["Download CSV", "Download JSON", "Download LaTeX"]
    scores, resampled = expected()
    rows = list(csv.DictReader(io.StringIO(files["Download CSV"])))
    assert [row["system"] for row in rows] == SYSTEMS
    assert list(rows[0])[-1] == "signature" and rows[0]["signature"] == scores.signature
    assert float(rows[2]["BLEU low"]) == resampled.ci["phrase-based"]["bleu"][0]
    assert float(rows[2]["BLEU high"]) == resampled.ci["phrase-based"]["bleu"][1]
    document = json.loads(files["Download JSON"])
    assert document["signature"] == scores.signature
    assert document["metric_labels"] == metric_labels(scores.metrics)  # the keys stay names
    assert set(document["scores"]["phrase-based"]) == set(scores.metric_names)
    assert (
        document["ci"] == resampled.to_dict()["ci"]
        and document["pairs"] == resampled.to_dict()["pairs"]
    )
    assert document["bootstrap"] == {"n_resamples": 1000, "seed": 12345, "confidence": 0.95}
    low, high = resampled.ci["neural-large"]["bleu"]
    assert f"[{low:.2f}, {high:.2f}]" in files["Download LaTeX"]
    assert scores.signature.split("|")[0] in files["Download LaTeX"]


def test_too_few_resamples_for_the_pairs_is_said_plainly():
    """11 systems make 55 pairs: with 200 resamples Holm lifts every p above 0.05. Two
    segments three times: 6, the fewest with a paired test."""
    reference = ["a b c d e f", "g h i j"] * 3
    systems = {
        f"system {k}": [" ".join("abcdef"[: k % 6 + 1]), "g h i j"[: k + 1]] * 3 for k in range(11)
    }
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["test_set"] = make_test_set(reference, systems)
    run(app)
    app.select_slider[0].set_value(200)
    run(app)
    intervals, warning = app.warning  # too few for intervals, and too few for the pairs
    assert intervals.value.startswith(escape_markdown("Too few resamples for intervals (200): "))
    expected = too_few_resamples(200, 55, 20000, 6)  # every count is offered for 6 segments
    assert warning.value == escape_markdown(expected)  # text, shown as written
    assert "no pair can reach p < 0.05" in expected
    app.select_slider[0].set_value(2000)
    run(app)
    assert not app.warning
    assert [len(row) for row in charts(app)[1]["data"][0]["z"]] == [11] * 11


@pytest.mark.parametrize("test", ["paired bootstrap", "approximate randomization"])
def test_too_few_segments_for_a_paired_test_are_said_instead_of_p_values(test):
    """Issue 42: three segments made every pair of either test "significant" where sacreBLEU's
    rules give p = 1/(R + 1); the page now says why there is no p-value, and draws no map."""
    reference = ["the cat sat on the mat", "a dog ran", "it rains"]
    systems = {"a": ["the cat sat on a mat", "a dog ran", "it rains"], "b": ["cat", "dog", "rain"]}
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["test_set"] = make_test_set(reference, systems)
    run(app)
    app.radio[0].set_value(test)
    run(app)
    reason = why_no_paired_test(3)
    infos = [info.value for info in app.info]
    assert escape_markdown(f"No significant differences to show: {reason}.") in infos
    assert len(charts(app)) == 1 and not app.toggle  # the bars; no heat map, no clusters
    assert not app.warning  # no advice to draw more resamples: segments are missing


def test_one_segment_has_neither_intervals_nor_p_values():
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["test_set"] = make_test_set(["it rains"], {"a": ["it rains"], "b": ["rain"]})
    run(app)
    labels = [info.value for info in app.info]
    assert escape_markdown(f"BLEU: intervals and paired tests undefined ({ONE_SEGMENT}).") in labels
    assert not app.radio and len(charts(app)) == 1


def test_the_bootstrap_reports_progress_after_each_metric():
    """What feeds the page's progress bar."""
    scores, _ = expected()
    shares: list[float] = []
    bootstrap_scores(scores, BootstrapOptions(n_resamples=10), progress=shares.append)
    n = len(scores.metrics)
    assert shares == [k / n for k in range(1, n + 1)]


def test_wide_tables_open_on_the_scores_with_every_column_a_choice_away(downloads):
    """With intervals the table has 21 columns: it opens on the seven scores, the chooser in
    sight above it offers the rest, and the download holds every column whatever is chosen."""
    app = run()
    scores, _ = expected()
    labels = [metric.label for metric in scores.metrics]
    (chooser,) = app.multiselect
    assert chooser.label == "Columns shown"
    assert len(chooser.options) == 21 and chooser.value == labels
    assert list(app.dataframe[0].value.columns) == labels
    chooser.set_value(["BLEU high", "NIST", "BLEU"])
    run(app)  # shown in the table's order
    assert list(app.dataframe[0].value.columns) == ["BLEU", "BLEU high", "NIST"]
    header = next(csv.reader(io.StringIO(downloads(app)["Download CSV"])))
    assert len(header) == 1 + 21 + 1 and header[:3] == ["system", "BLEU", "NIST"]
    assert "BLEU low" in header and "GTM high" in header
