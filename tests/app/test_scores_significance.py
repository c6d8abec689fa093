"""The Scores page with 20 systems, as a WMT test set has them: significance clusters by
default, the all-pairs heat map on request, the resamples a pair needs said above the figure
(with the warning first), and slider choices up to 20,000."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.model.testset import TestSet
from mteval_core.report.writers import too_few_resamples
from mteval_core.settings.limits import MAX_RESAMPLES
from pages.ui.markdown_escape import escape_markdown
from tests.helpers import make_test_set

PAGE = str(Path(__file__).resolve().parents[2] / "pages/1_Scores.py")
HOSTILE = "<b>bold</b> [x](https://example.org)"


@cache
def twenty_systems() -> tuple[TestSet, list[list[str]]]:
    """Five groups of four systems: group g drops the last g words of every reference segment
    (far apart: every pair of groups differs at any sensible resample count); within a group
    each system changes one word of one segment (never a significant difference). Returns the
    test set and the names by group, best group first."""
    words = [f"w{k}" for k in range(40)]
    reference = [" ".join(words[k : k + 6 + k % 9]) for k in range(30)]
    systems: dict[str, list[str]] = {}
    groups = []
    for g in range(5):
        names = []
        for j in range(4):
            name = HOSTILE if (g, j) == (2, 1) else f"group{g}-system{j}"
            segments = [" ".join(s.split()[: len(s.split()) - g]) for s in reference]
            _, *rest = segments[j].split()
            segments[j] = " ".join(["x", *rest])  # one word of segment j, x instead of w
            systems[name] = segments
            names.append(name)
        groups.append(names)
    return make_test_set(reference, systems), groups


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def page_with_twenty_systems(resamples: int | None = None) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.session_state["test_set"] = twenty_systems()[0]
    run(app)
    if resamples is not None:
        app.select_slider[0].set_value(resamples)
        run(app)
    return app


def charts(app: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]


def in_page_order(app: AppTest) -> list[tuple[str, str]]:
    """(element type, text or chart title) of every element, top to bottom."""
    shown = []
    for node in app.main:
        kind = getattr(node, "type", "")
        if kind == "plotly_chart":
            shown.append((kind, json.loads(node.proto.spec)["layout"]["title"]["text"]))
        elif kind in ("warning", "caption", "toggle"):
            shown.append((kind, str(node.value if kind != "toggle" else node.label)))
    return shown


def test_clusters_are_the_default_view_for_twenty_systems():
    app = page_with_twenty_systems(10000)
    _, clusters = charts(app)
    assert clusters["layout"]["title"]["text"] == "BLEU: systems in significance clusters"
    assert not any(c["data"][0]["type"] == "heatmap" for c in charts(app))
    (toggle,) = app.toggle
    assert toggle.label == "Every pair (heat map)" and toggle.value is False
    _, groups = twenty_systems()
    table = app.dataframe[1].value  # the clusters as a table (the first is the scores)
    by_cluster = table.groupby("cluster")["system"].apply(set).to_dict()
    assert by_cluster == {g + 1: set(names) for g, names in enumerate(groups)}
    assert list(table["rank"]) == [f"{4 * g + 1}–{4 * g + 4}" for g in range(5) for _ in range(4)]
    assert (table["low"] <= table["score"]).all() and (table["score"] <= table["high"]).all()
    labels = [a["text"] for a in clusters["layout"]["annotations"]]
    assert labels == [f"cluster {c}" for c in range(1, 6)]
    assert len(clusters["data"][0]["y"]) == 20
    assert not app.warning  # 10,000 resamples are enough for 190 pairs


def test_the_resamples_needed_are_said_above_the_figure_with_the_warning_first():
    app = page_with_twenty_systems(1000)  # not enough for 190 pairs
    order = in_page_order(app)
    kinds = [kind for kind, _ in order]
    warning = kinds.index("warning")
    figure = next(i for i, (k, t) in enumerate(order) if k == "plotly_chart" and "clusters" in t)
    said = next(i for i, (k, t) in enumerate(order) if k == "caption" and "3,799 resamples" in t)
    assert warning < said < kinds.index("toggle") < figure
    expected = too_few_resamples(1000, 190, MAX_RESAMPLES, 30)  # every count for 30 segments
    assert order[warning][1] == escape_markdown(expected)  # shown as text, never as Markdown
    assert (
        "no pair can reach p < 0.05" in expected and "Choose at least 3,799 resamples" in expected
    )
    assert "Holm-corrected over this metric's 190 system pairs" in order[said][1]
    clusters = charts(app)[1]
    assert [a["text"] for a in clusters["layout"]["annotations"]] == ["cluster 1"]  # no pair can
    assert "3,799 resamples on" in app.select_slider[0].help  # said before anybody slides


def test_the_heat_map_toggle_shows_every_pair_readably():
    app = page_with_twenty_systems(10000)
    app.toggle[0].set_value(True)
    run(app)
    heat_map = charts(app)[1]
    cells = heat_map["data"][0]  # trace 1: the markers that make each cell clickable
    assert cells["type"] == "heatmap" and len(cells["z"]) == 20
    assert all(len(row) == 20 for row in cells["z"])
    assert "texttemplate" not in cells  # too dense for cell text: on hover
    assert cells["textfont"]["size"] >= 10 and heat_map["layout"]["yaxis"]["tickfont"]["size"] >= 10
    assert heat_map["layout"]["height"] >= 20 * 30
    assert any("Hover for the uncorrected p and the numbers" in c.value for c in app.caption)
    app.toggle[0].set_value(False)
    run(app)
    assert charts(app)[1]["layout"]["title"]["text"].endswith("systems in significance clusters")


def test_a_few_systems_show_the_heat_map_first():
    app = AppTest.from_file(PAGE, default_timeout=120)  # the sample: 4 systems
    run(app)
    assert app.toggle[0].value is True
    assert charts(app)[1]["data"][0]["type"] == "heatmap"
    app.toggle[0].set_value(False)
    run(app)
    clusters = charts(app)[1]
    assert clusters["data"][0]["y"] == [
        "neural-large",
        "neural-small",
        "phrase-based",
        "word-by-word",
    ]


def test_the_slider_goes_to_20000():
    app = page_with_twenty_systems()
    options = [int(n) for n in app.select_slider[0].options]
    assert options[-1] == MAX_RESAMPLES == 20000 and 10000 in options


def test_names_in_the_clusters_view_are_plain_text():
    app = page_with_twenty_systems(10000)
    figure = charts(app)[1]
    assert figure["layout"]["title"]["text"].endswith("systems in significance clusters")
    assert "&lt;b>bold&lt;/b> [x](https://example.org)" in figure["data"][0]["y"]
    assert "<b>" not in json.dumps(figure, ensure_ascii=False)  # only the escaped form
    assert HOSTILE in set(app.dataframe[1].value["system"])  # a table cell: plain text already
    for caption in app.caption:
        assert "<b>" not in caption.value


def test_a_long_test_set_is_offered_fewer_resamples_and_told_why():
    """The counts hold one float per resample and segment: 6,500 segments get up to 5,000
    (32.5 million), not 10,000 (65 million, over the page's 64 million)."""
    reference = [f"w{k % 50} w{k % 7}" for k in range(6500)]
    systems = {"a": reference, "b": [f"w{k % 50}" for k in range(6500)]}
    app = AppTest.from_file(PAGE, default_timeout=120)
    app.session_state["test_set"] = make_test_set(reference, systems)
    run(app)
    slider = app.select_slider[0]
    assert [int(n) for n in slider.options] == [0, 200, 1000, 2000, 5000]
    assert "For 6,500 segments, at most 5,000 here." in slider.help


def test_approximate_randomization_gives_its_own_clusters_and_says_so():
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.settings.options import Options
    from mteval_core.stats.approximate_randomization import (
        RandomizationOptions,
        approximate_randomization,
    )
    from pages.ui.session import DASHBOARD_METRICS

    app = page_with_twenty_systems()
    resamples = app.select_slider[0].value
    next(r for r in app.radio if r.label == "Significance test").set_value(
        "approximate randomization"
    )
    run(app)
    test_set = twenty_systems()[0]
    expected = approximate_randomization(
        score_test_set(test_set, DASHBOARD_METRICS, Options()), RandomizationOptions(resamples)
    ).clusters["bleu"]
    table = app.dataframe[1].value
    assert list(zip(table["system"], table["cluster"])) == [(c.system, c.cluster) for c in expected]
    assert any(
        f"approximate randomization p-value ({resamples:,} trials" in c.value for c in app.caption
    )
    assert any(b.label == "Open on the Compare page" for b in app.button)
