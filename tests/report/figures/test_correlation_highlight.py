"""The correlation figures at 20+ systems and with one system or metric chosen: names on the
extremes and on hover only, the chosen system's point and pairs marked, the chosen metric's bar
outlined with every other bar's p-value against it on hover."""

from __future__ import annotations

import numpy as np

from mteval_core.report.figures import differential_scatter, metric_ranking_figure
from mteval_core.report.figures.correlation import (
    EXTREMES,
    HIGHLIGHT_COLOUR,
    LABELLED_SYSTEMS,
    label_positions,
    labelled_points,
    system_scatter,
)
from mteval_core.stats.correlation import correlations, pairwise_differentials
from mteval_core.stats.meta import MetricAgainstHuman
from mteval_core.stats.ranking import MetricRanking, RankedMetric


def view_of(n: int) -> MetricAgainstHuman:
    rng = np.random.default_rng(1)
    x = rng.normal(size=n)
    y = x + rng.normal(scale=0.5, size=n)
    systems = tuple(f"<b>system {k}</b>" if k == 3 else f"system {k}" for k in range(n))
    dx, dy = pairwise_differentials(x, y)
    labels = tuple(f"{a} − {b}" for i, a in enumerate(systems) for b in systems[i + 1 :])
    return MetricAgainstHuman("bleu", systems, x, y, labels, dx, dy, correlations(x, y))


def test_the_scatter_calls_its_metric_by_the_label_given():
    layout = system_scatter(view_of(4), "<b>BLEU</b>", "DA").layout
    assert layout.title.text.startswith("&lt;b>BLEU&lt;/b> against DA")  # not "bleu", the name
    assert layout.xaxis.title.text == "&lt;b>BLEU&lt;/b>"


def test_up_to_fifteen_systems_every_point_is_labelled():
    view = view_of(LABELLED_SYSTEMS)
    points = system_scatter(view, "BLEU", "DA").data[0]
    assert all(points.text) and points.text[3] == "&lt;b>system 3&lt;/b>"
    assert list(points.hovertext) == list(points.text)


def test_at_twenty_three_systems_only_the_extremes_carry_their_names():
    view = view_of(23)
    labelled = labelled_points(view.metric_scores, view.human_scores)
    expected = set()
    for values in (view.metric_scores, view.human_scores):
        order = np.argsort(values)
        expected |= {*order[:EXTREMES], *order[-EXTREMES:]}
    assert set(np.flatnonzero(labelled)) == expected and len(expected) <= 4 * EXTREMES
    points = system_scatter(view, "BLEU", "DA").data[0]
    assert sum(bool(text) for text in points.text) == len(expected)
    assert len(points.hovertext) == 23 and all(points.hovertext)  # every name on hover
    assert "%{hovertext}" in points.hovertemplate


def test_the_highlighted_system_is_marked_and_named():
    view = view_of(23)
    unlabelled = next(
        k
        for k, shown in enumerate(labelled_points(view.metric_scores, view.human_scores))
        if not shown
    )
    figure = system_scatter(view, "BLEU", "DA", view.systems[unlabelled])
    points = figure.data[0]
    assert points.marker.color[unlabelled] == HIGHLIGHT_COLOUR
    assert sum(colour == HIGHLIGHT_COLOUR for colour in points.marker.color) == 1
    assert points.text[unlabelled] == view.systems[unlabelled]
    assert len(points.x) == 23  # still one trace with every system (clicks give its index)
    plain = system_scatter(view, "BLEU", "DA", "no such system").data[0]
    assert plain.marker.color == system_scatter(view, "BLEU", "DA").data[0].marker.color


def test_the_pairs_of_the_highlighted_system_are_drawn_on_top():
    view = view_of(6)
    mask = np.array(["system 2" in label.split(" − ") for label in view.pair_labels])
    figure = differential_scatter(
        view.pair_labels, view.metric_differences, view.human_differences, "bleu", 0.5, None, mask
    )
    every, marked = figure.data
    assert len(every.x) == 15 and len(marked.x) == 5  # all pairs, then the system's five
    assert marked.marker.color == HIGHLIGHT_COLOUR
    assert list(marked.text) == [label for label, m in zip(every.text, mask) if m]
    alone = differential_scatter(["a − b"], [1.0], [0.5], "BLEU", 1.0)
    assert len(alone.data) == 1


def test_the_selected_metric_is_outlined_with_p_values_on_hover():
    p_values = np.ones((3, 3))
    p_values[0, 1], p_values[0, 2] = 0.2, 0.004
    ranking = MetricRanking(
        "acc_eq",
        "item",
        (RankedMetric("chrf", 0.6, 1), RankedMetric("<i>x</i>", 0.5, 1), RankedMetric("t", 0.1, 2)),
        p_values,
    )
    labels = {"chrf": "chrF", "<i>x</i>": "<i>x</i>", "t": "TER"}
    bars = metric_ranking_figure(ranking, "acc_eq (item)", labels, "chrf").data[0]
    assert list(bars.y) == ["chrF", "&lt;i>x&lt;/i>", "TER"]
    assert list(bars.marker.line.width) == [3, 0, 0]
    assert list(bars.customdata) == ["", "<br>p against chrF: 0.200", "<br>p against chrF: 0.004"]
    hover = metric_ranking_figure(ranking, "acc_eq (item)", labels, "<i>x</i>").data[0].customdata
    assert hover[0] == "<br>p against &lt;i>x&lt;/i>: 0.200"
    none = metric_ranking_figure(ranking, "acc_eq (item)", labels).data[0]
    assert list(none.customdata) == ["", "", ""] and list(none.marker.line.width) == [0, 0, 0]


def test_names_of_neighbouring_points_go_to_different_sides():
    x = np.array([1.0, 1.02, 5.0, 9.0])
    y = np.array([9.0, 8.9, 5.0, 1.0])
    texts = ["NiuTrans", "KwaiNLP", "", "Online-Y"]
    positions = label_positions(x, y, texts)
    assert positions[0] == "top center"  # the highest point is placed first, above
    assert positions[1] != "top center"  # its neighbour's name would cover it
    assert positions[3] == "top center"  # far from both
    assert label_positions(np.ones(3), np.ones(3), ["a", "", ""])[0] == "top center"
