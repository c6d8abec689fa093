"""The rank-reversal map's layout: axes that span the cost triangle (or the box of two weights)
exactly, and point labels that never cover each other or a point, on the cases whose labels used
to collide (the current costs on the paper's (5, 2, 1); Table 10 next to Table 6) and at every
slider setting.

Label boxes are recomputed here from the figure, with this file's own estimate of how Plotly
draws a 12 px label (measured in Chromium: at most ~6.2 pixels per character with Plotly's font,
~4.7 with Streamlit's; 23 pixels high with the padding), at the plot sizes a browser gives the
map, from a narrow window's to a wide one's.
"""

from __future__ import annotations

from itertools import combinations, product
from pathlib import Path

import numpy as np
import pytest
from plotly.colors import qualitative

from mteval_core.io.loss_csv import read_loss_table
from mteval_core.loss.mqm_view import WeightPlane, map_view_at, weight_map
from mteval_core.loss.reversal import SIMPLEX, AffineLosses, simplex_point
from mteval_core.loss.view import PAPER_PRESET_POINTS, PAPER_PRESETS, analyse_loss, view_at
from mteval_core.report.figures import rank_reversal_map
from mteval_core.report.figures.labels import PlacedLabel, PlotArea, place_labels
from mteval_core.report.figures.loss import EQUAL_SCALE_SIZES, ranking_colours

ROOT = Path(__file__).resolve().parents[3]
TABLES = {
    "all": ROOT / "sample_data/loss/tate-voss-2006-table2-table4-rates.csv",
    "per wh": ROOT / "sample_data/loss/tate-voss-2006-table3-table8-rates-by-wh.csv",
}
CHAR_PX = 6.2  # Plotly's Open Sans at 12 px, the wider of the two fonts
HEIGHT_PX = 23.0
PAD_PX = 3.0
MARKER_PX = 5.0  # the centre of a marker and a little around it must stay visible
SQUARES = (380, 300, 240)  # a map of equal scales at 1,400, ~1,000 and ~900 pixels of window
WIDE = ((600, 380), (250, 380), (900, 380))  # a map of free scales, by window width


def unescaped(text: str) -> str:
    return text.replace("&lt;", "<").replace("&amp;", "&")


def boxes(annotations, x_range, y_range, size) -> list[tuple[str, np.ndarray]]:
    """(text, (left, bottom, right, top)) of every label in pixels, y up, for a plot of ``size``
    pixels showing ``x_range`` by ``y_range``; ``annotations`` as Plotly's (x, y: the point;
    ax, ay: the label's anchor in pixels from it, ay counted downwards)."""
    found = []
    for a in annotations:
        point = np.array(
            [
                (a["x"] - x_range[0]) / (x_range[1] - x_range[0]) * size[0],
                (a["y"] - y_range[0]) / (y_range[1] - y_range[0]) * size[1],
            ]
        )
        anchor = point + np.array([a["ax"], -a["ay"]])
        width = CHAR_PX * len(unescaped(a["text"])) + 2 * PAD_PX
        left = {"left": 0.0, "center": -width / 2, "right": -width}[a["xanchor"]]
        bottom = {"bottom": 0.0, "middle": -HEIGHT_PX / 2, "top": -HEIGHT_PX}[a["yanchor"]]
        corner = anchor + np.array([left, bottom])
        found.append((a["text"], np.concatenate([corner, corner + np.array([width, HEIGHT_PX])])))
    return found


def collisions(annotations, points, x_range, y_range, sizes) -> list[str]:
    """Every pair of labels that overlap and every label over a point, at any of ``sizes``."""
    found = []
    for size in sizes:
        labelled = boxes(annotations, x_range, y_range, size)
        for (a, box_a), (b, box_b) in combinations(labelled, 2):
            if min(box_a[2], box_b[2]) > max(box_a[0], box_b[0]) and min(box_a[3], box_b[3]) > max(
                box_a[1], box_b[1]
            ):
                found.append(f"{a!r} on {b!r} at {size}")
        for (text, box), point in product(labelled, points):
            x = (point[0] - x_range[0]) / (x_range[1] - x_range[0]) * size[0]
            y = (point[1] - y_range[0]) / (y_range[1] - y_range[0]) * size[1]
            if (
                box[0] - MARKER_PX < x < box[2] + MARKER_PX
                and box[1] - MARKER_PX < y < box[3] + MARKER_PX
            ):
                found.append(f"{text!r} on the point {tuple(point)} at {size}")
    return found


def marked_points(figure) -> list[tuple[float, float]]:
    return [(t.x[0], t.y[0]) for t in figure.data if t.mode == "markers"]


def paper_map(costs, table: str = "all", group: str | None = None):
    path = TABLES[table]
    data = read_loss_table(path.read_bytes(), path.name)
    analysis = analyse_loss(data, data.category_columns[0] if data.category_columns else None)
    view = view_at(analysis.groups[group or next(iter(analysis.groups))], costs)
    return rank_reversal_map(
        view.regions, view.point, boundaries=view.boundaries, presets=PAPER_PRESET_POINTS
    )


def test_the_cost_triangle_axes_span_exactly_the_triangle():
    layout = paper_map((5, 2, 1)).layout
    assert tuple(layout.xaxis.range) == (0.0, 1.0) and tuple(layout.yaxis.range) == (0.0, 1.0)
    assert layout.xaxis.constrain == layout.yaxis.constrain == "domain"  # not widened to -0.5
    assert layout.yaxis.scaleanchor == "x" and layout.yaxis.scaleratio == 1


def test_the_weight_map_axes_span_its_box():
    losses = AffineLosses(("A", "B", "C"), np.array([[1.0, 0.2, 1.0], [2.0, 0.1, 0.0], [0, 0, 3]]))
    box = np.array([[0.0, 0.0], [25.0, 0.0], [25.0, 5.0], [0.0, 5.0]])
    mapped = weight_map(WeightPlane("Major", "Minor", losses, box))
    view = map_view_at(mapped, {"Major": 5.0, "Minor": 1.0})
    figure = rank_reversal_map(view.regions, view.point, equal_scale=False)
    assert tuple(figure.layout.xaxis.range) == (0.0, 25.0)
    assert tuple(figure.layout.yaxis.range) == (0.0, 5.0)
    assert figure.layout.yaxis.scaleanchor is None


@pytest.mark.parametrize(
    ("costs", "table"),
    [
        (PAPER_PRESETS["Tables 5 and 9: (5, 2, 1)"], "all"),  # "current costs" on "Tables 5 and 9"
        (PAPER_PRESETS["Table 10: (5, 5, 5.5)"], "per wh"),  # "Table 10" on Table 6's marker
        (PAPER_PRESETS["Table 6: (1, 2, 2)"], "all"),
        (PAPER_PRESETS["Table 7: (1, 5, 2)"], "all"),
        ((1.0, 1.0, 1.0), "all"),
        ((1.0, 2.0, 1.5), "all"),  # between Table 6 and Tables 5 and 9
    ],
)
def test_labels_of_the_paper_map_never_collide(costs, table):
    figure = paper_map(costs, table)
    annotations = [a.to_plotly_json() for a in figure.layout.annotations]
    points = marked_points(figure)
    assert len(points) == 1 + len(PAPER_PRESET_POINTS)
    squares = [(side, side) for side in SQUARES]
    assert collisions(annotations, points, (0, 1), (0, 1), squares) == []
    named = " | ".join(a["text"] for a in annotations)
    for name in ("current costs", *PAPER_PRESET_POINTS):  # every point is named once
        assert named.count(name) == 1, named
    for a in annotations:  # each label points at its marker
        assert (a["x"], a["y"]) in points and a["showarrow"]


def test_the_current_costs_on_a_preset_share_its_label():
    figure = paper_map(PAPER_PRESETS["Tables 5 and 9: (5, 2, 1)"])
    texts = [a.text for a in figure.layout.annotations]
    assert "current costs = Tables 5 and 9" in texts and len(texts) == len(PAPER_PRESET_POINTS)


def test_the_collision_check_finds_labels_on_each_other():
    """The check itself can fail: Plotly's own placement (text at the top right of each marker)
    collides on the paper's points."""
    points = [simplex_point((5, 2, 1)), *PAPER_PRESET_POINTS.values()]
    names = ["current costs", *PAPER_PRESET_POINTS]
    top_right = [
        {"x": p[0], "y": p[1], "ax": 6, "ay": -6, "xanchor": "left", "yanchor": "bottom", "text": n}
        for p, n in zip(points, names)
    ]
    found = collisions(top_right, points, (0, 1), (0, 1), [(380, 380)])
    assert "'current costs' on 'Tables 5 and 9' at (380, 380)" in found


def as_annotation(label: PlacedLabel) -> dict:
    return {
        "x": label.point[0],
        "y": label.point[1],
        "ax": label.offset[0],
        "ay": -label.offset[1],
        "xanchor": label.x_anchor,
        "yanchor": label.y_anchor,
        "text": label.text,
    }


def test_the_figure_draws_the_placed_labels():
    figure = paper_map((1.0, 2.0, 1.5))
    placed = place_labels(
        [simplex_point((1.0, 2.0, 1.5)), *PAPER_PRESET_POINTS.values()],
        ["current costs", *PAPER_PRESET_POINTS],
        PlotArea((0.0, 1.0), (0.0, 1.0), EQUAL_SCALE_SIZES),
    )
    drawn = [
        {key: a[key] for key in ("x", "y", "ax", "ay", "xanchor", "yanchor", "text")}
        for a in (annotation.to_plotly_json() for annotation in figure.layout.annotations)
    ]
    assert drawn == [as_annotation(label) for label in placed]


def test_labels_never_collide_at_any_slider_setting():
    """Every cost triple the sliders give in whole steps (0 to 10), with the paper's points."""
    area = PlotArea((0.0, 1.0), (0.0, 1.0), EQUAL_SCALE_SIZES)
    points = {tuple(simplex_point(c)) for c in product(range(11), repeat=3) if any(c)}
    squares = [(side, side) for side in SQUARES]
    failures = []
    for current in sorted(points):
        marked = [current, *PAPER_PRESET_POINTS.values()]
        placed = place_labels(marked, ["current costs", *PAPER_PRESET_POINTS], area)
        annotations = [as_annotation(label) for label in placed]
        found = collisions(annotations, marked, (0, 1), (0, 1), squares)
        failures += [f"{current}: {problem}" for problem in found]
    assert failures == []


@pytest.mark.parametrize("minor", [1.0, 0.9, 0.5])  # Google's weights, then the slider nearby
def test_mqm_map_labels_never_collide(minor):
    losses = AffineLosses(("A", "B"), np.array([[1.0, 0.2, 1.0], [2.0, 0.1, 0.0]]))
    box = np.array([[0.0, 0.0], [25.0, 0.0], [25.0, 5.0], [0.0, 5.0]])
    mapped = weight_map(WeightPlane("Major", "Minor", losses, box))
    view = map_view_at(mapped, {"Major": 5.0, "Minor": minor})
    figure = rank_reversal_map(
        view.regions,
        view.point,
        boundaries=view.boundaries,
        presets={"Google's weights": (5.0, 1.0)},
        current_name="current weights",
        equal_scale=False,
    )
    annotations = [a.to_plotly_json() for a in figure.layout.annotations]
    assert collisions(annotations, marked_points(figure), (0, 25), (0, 5), WIDE) == []
    if minor == 1.0:
        assert [a["text"] for a in annotations] == ["current weights = Google's weights"]


def test_a_label_stays_inside_the_triangle_plot_at_its_corners():
    area = PlotArea((0.0, 1.0), (0.0, 1.0), EQUAL_SCALE_SIZES)
    side = EQUAL_SCALE_SIZES[0][0]
    for corner in SIMPLEX:
        (label,) = place_labels([corner], ["current costs"], area)
        ((_, box),) = boxes([as_annotation(label)], (0, 1), (0, 1), (side, side))
        assert box[0] >= 0 and box[1] >= 0 and box[2] <= side and box[3] <= side


@pytest.mark.parametrize("count", [1, 11, 12, 30, 500])
def test_every_ranking_gets_a_colour_of_its_own(count):
    """Pastel's 11 while they last, then pale colours of their own (12 wrapped round before)."""
    colours = ranking_colours(count)
    assert len(colours) == len(set(colours)) == count
    if count <= len(qualitative.Pastel):
        assert colours == list(qualitative.Pastel[:count])
    else:
        assert all(colour.startswith("hsl(") for colour in colours)
