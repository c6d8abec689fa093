"""The significance figures at WMT's sizes: the heat map readable at 25 systems (no text under
10 px, rows that grow with the systems, cell text only where it fits, every number on hover),
and the clusters figure (ranked systems with intervals, clusters shaded and named)."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest

from mteval_core.report.figures import significance_clusters_figure, significance_heatmap
from mteval_core.report.figures.plotly_escape import escape_plotly
from mteval_core.report.figures.scores import HEATMAP_TEXT_MAX_SYSTEMS
from mteval_core.stats.significance import PairedTest
from mteval_core.stats.system_clusters import ClusteredSystem, cluster_systems

MIN_FONT_PX = 10


def systems_and_pairs(n: int, metric: str = "bleu") -> tuple[dict[str, float], list[PairedTest]]:
    """n systems 1 point apart; pairs 3 or more points apart are significant."""
    scores = {f"system-{k:02d}": 40.0 - k for k in range(n)}
    pairs = []
    for a, b in combinations(scores, 2):
        delta = scores[a] - scores[b]
        p = 0.001 if abs(delta) >= 3 else 0.4
        pairs.append(PairedTest(a, b, metric, delta, p / 2, p))
    return scores, pairs


def font_sizes(figure) -> list[float]:
    """Every font size the figure sets, wherever it sets one."""
    found: list[float] = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                is_font = key in ("font", "tickfont", "textfont") and isinstance(value, dict)
                if is_font and "size" in value:
                    found.append(value["size"])
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    walk(json.loads(figure.to_json()))
    return found


# ------------------------------------------------------------------------------- heat map
@pytest.mark.parametrize("n", [4, 15, 16, 25])
def test_heat_map_text_is_never_below_10_px(n):
    scores, pairs = systems_and_pairs(n)
    figure = significance_heatmap(scores, pairs, "bleu", "BLEU")
    sizes = font_sizes(figure)
    assert sizes and min(sizes) >= MIN_FONT_PX
    (cells,) = figure.data
    assert cells.textfont.size >= MIN_FONT_PX
    assert figure.layout.xaxis.tickfont.size >= MIN_FONT_PX
    assert figure.layout.yaxis.tickfont.size >= MIN_FONT_PX


def test_heat_map_grows_with_the_systems_and_gives_each_row_room():
    heights = {}
    for n in (4, 10, 15, 16, 20, 25):
        scores, pairs = systems_and_pairs(n)
        heights[n] = significance_heatmap(scores, pairs, "bleu", "BLEU").layout.height
    assert heights[4] < heights[10] < heights[15] and heights[16] < heights[20] < heights[25]
    for n, height in heights.items():
        assert (height - 200) / n >= 30, n  # at least 30 px a row besides title and labels
    assert heights[25] <= 1000  # 25 systems still fit on a screen or two, not three


def test_dense_heat_maps_keep_the_numbers_on_hover_not_in_the_cells():
    scores, pairs = systems_and_pairs(25)
    (cells,) = significance_heatmap(scores, pairs, "bleu", "BLEU").data
    assert cells.texttemplate is None  # nothing printed in the cells
    assert cells.text[0][5] == f"{5.0:+.3g}<br>p={0.001:.3f}"  # still in the data
    assert "customdata[0]" in cells.hovertemplate and "customdata[2]" in cells.hovertemplate
    assert cells.customdata[0][5] == [5.0, 0.0005, 0.001]
    scores, pairs = systems_and_pairs(HEATMAP_TEXT_MAX_SYSTEMS)
    (cells,) = significance_heatmap(scores, pairs, "bleu", "BLEU").data
    assert cells.texttemplate == "%{text}"  # up to 15 systems, printed


# ----------------------------------------------------------------------------- clusters
def test_clusters_figure_ranks_systems_with_their_intervals():
    scores, pairs = systems_and_pairs(7)
    intervals = {system: (score - 0.8, score + 1.1) for system, score in scores.items()}
    ranking = cluster_systems(scores, pairs, "bleu", intervals=intervals)
    # 40 39 38 | 37 36 35 | 34: a system opens a cluster 3 points below the current first
    assert [entry.cluster for entry in ranking] == [1, 1, 1, 2, 2, 2, 3]
    figure = significance_clusters_figure(ranking, "BLEU")
    (points,) = figure.data
    assert list(points.y) == list(scores)  # best first, as given here
    assert list(points.x) == list(scores.values())
    assert points.error_x.array == pytest.approx([1.1] * 7)
    assert points.error_x.arrayminus == pytest.approx([0.8] * 7)
    assert figure.layout.yaxis.autorange == "reversed"
    assert list(figure.layout.yaxis.ticktext)[:4] == [
        "1–3   system-00",
        "1–4   system-01",
        "1–5   system-02",
        "2–6   system-03",
    ]
    assert figure.layout.title.text == "BLEU: systems in significance clusters"
    assert min(font_sizes(figure)) >= MIN_FONT_PX
    assert "customdata[0]" in points.hovertemplate  # the interval on hover


def test_clusters_are_shaded_every_other_one_and_separated_by_lines():
    ranking = tuple(
        ClusteredSystem(f"s{k}", 10.0 - k, k + 1, cluster, (k + 1, k + 1), 0, 0, None)
        for k, cluster in enumerate([1, 1, 2, 3, 3, 3])
    )
    figure = significance_clusters_figure(ranking, "chrF")
    bands = [s for s in figure.layout.shapes if s.type == "rect"]
    lines = [s for s in figure.layout.shapes if s.type == "line"]
    assert [(b.y0, b.y1) for b in bands] == [(-0.5, 1.5), (2.5, 5.5)]  # clusters 1 and 3
    assert [line.y0 for line in lines] == [1.5, 2.5]  # above clusters 2 and 3
    labels = [(a.text, a.y) for a in figure.layout.annotations]
    assert labels == [("cluster 1", 0.5), ("cluster 2", 2.0), ("cluster 3", 4.0)]
    (points,) = figure.data
    assert points.error_x.array is None  # no intervals given: no error bars
    assert "customdata[0]" not in points.hovertemplate
    assert figure.layout.yaxis.ticktext[0] == "1   s0"  # one rank: no range


def test_clusters_figure_grows_with_the_systems():
    heights = [
        significance_clusters_figure(
            cluster_systems(*systems_and_pairs(n), "bleu"), "BLEU"
        ).layout.height
        for n in (5, 15, 25)
    ]
    assert heights[0] < heights[1] < heights[2] and (heights[2] - 150) / 25 >= 24


HOSTILE = ["<img src=x onerror=alert(1)>", '<a href="https://example.org">best</a>', "&lt;b&gt;"]


def test_clusters_figure_escapes_system_names_and_keeps_them_out_of_templates():
    scores = {name: float(k) for k, name in enumerate(HOSTILE)}
    pairs = [PairedTest(a, b, "bleu", 1.0, 0.001, 0.001) for a, b in combinations(HOSTILE, 2)]
    ranking = cluster_systems(scores, pairs, "bleu", intervals={n: (0, 3) for n in HOSTILE})
    figure = significance_clusters_figure(ranking, "<b>BLEU</b>")
    text = json.dumps(json.loads(figure.to_json()), ensure_ascii=False)
    for raw in ["<img", "<a ", "</a>", "&lt;b&gt;", "<b>BLEU"]:
        assert raw not in text, raw
    (points,) = figure.data
    assert points.y[0] == escape_plotly(HOSTILE[-1])  # the best first
    assert all(name not in points.hovertemplate for name in HOSTILE)
    assert np.isfinite(points.customdata[0][0])
