"""Figures of the loss analysis: the rank-reversal map, and losses as ranked bars."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative

from mteval_core.loss.reversal import Boundary, RankingRegion
from mteval_core.report.figures.bars import ranked_bars
from mteval_core.report.figures.labels import MARKER_PX, PAD_PX, PlacedLabel, PlotArea, place_labels
from mteval_core.report.figures.plotly_escape import escape_all, escape_plotly

MAP_HEIGHT = 500  # pixels
MAP_MARGIN = {"l": 70, "r": 10, "t": 50, "b": 70}  # axis titles; the legend widens "r"
MAP_PLOT_PX = MAP_HEIGHT - MAP_MARGIN["t"] - MAP_MARGIN["b"]  # the plot area's height
# The plot sizes (width, height) the labels must not collide at, the usual one first: a map of
# equal scales is a square, narrower in a narrow window; otherwise the width follows the window
# and the legend (a page's full width at 1,400 pixels gives about 600).
EQUAL_SCALE_SIZES = tuple((side, side) for side in (MAP_PLOT_PX, 300, 240))
FREE_SCALE_SIZES = tuple((width, MAP_PLOT_PX) for width in (600, 250, 400, 900))
LABEL_FONT_PX = 12
GOLDEN_ANGLE = 137.50776405003785  # degrees: 360 (1 - 1 / golden ratio), never a repeat
PALE_LIGHTNESS = (72, 82, 90)  # percent: pale enough for black labels and lines on top


def ranking_label(ranking: Sequence[str]) -> str:
    """'A > B > C', each name escaped for Plotly."""
    return " > ".join(escape_all(ranking))


def rank_reversal_map(  # noqa: PLR0913  # long: keyword-only labels; one figure's layers
    regions: Sequence[RankingRegion],
    current: Sequence[float],
    *,
    boundaries: Sequence[Boundary] = (),
    presets: Mapping[str, Sequence[float]] | None = None,
    x_title: str = "share of c2 (non-response)",
    y_title: str = "share of c3 (incorrect response)",
    title: str = "Ranking by cost (best first)",
    current_name: str = "current costs",
    equal_scale: bool = True,
) -> go.Figure:
    """Polygons coloured by full ranking (one legend entry per ranking), the tie lines, the
    current cost point, and optional named preset points (e.g. the paper's costs).

    The axes span exactly the regions (the cost triangle, or the box of two weights); the points'
    labels are placed where they cover no other label and no point
    (mteval_core.report.figures.labels), with a line to their point. ``equal_scale`` keeps one unit
    the same length on both axes, so that distances on the map look like the Euclidean distances
    reported for the nearest reversal."""
    figure = go.Figure()
    _add_regions(figure, regions)
    _add_boundaries(figure, boundaries)
    named = {**(presets or {})}
    for name, point in named.items():
        figure.add_trace(_point_trace(point, name, "diamond-open", "black", 10))
    figure.add_trace(_point_trace(current, current_name, "x", "crimson", 14))
    x_range, y_range = _extent(regions, [current, *named.values()])
    area = PlotArea(x_range, y_range, EQUAL_SCALE_SIZES if equal_scale else FREE_SCALE_SIZES)
    labels = place_labels([current, *named.values()], [current_name, *named], area)
    axis = {"range": list(x_range), "constrain": "domain", "zeroline": False}
    figure.update_layout(
        title=escape_plotly(title),
        xaxis={**axis, "title": escape_plotly(x_title)},
        yaxis={
            **axis,
            "range": list(y_range),
            "title": escape_plotly(y_title),
            **({"scaleanchor": "x", "scaleratio": 1} if equal_scale else {}),
        },
        legend={"title": {"text": "ranking"}},
        height=MAP_HEIGHT,
        margin=MAP_MARGIN,
        annotations=[_label_annotation(label) for label in labels],
    )
    return figure


def ranking_colours(count: int) -> list[str]:
    """``count`` different fill colours, one per ranking on a map: Plotly's Pastel palette
    while it lasts (11), else pale colours around the hue circle, each next one a golden angle
    on (so that rankings listed one after another differ most) at one of three lightnesses. The
    palette used to wrap round: TED en-de's MQM map of six systems has 12 rankings, and two of
    them got one colour."""
    if count <= len(qualitative.Pastel):
        return list(qualitative.Pastel[:count])
    return [
        f"hsl({k * GOLDEN_ANGLE % 360:.3f}, 60%, {PALE_LIGHTNESS[k % len(PALE_LIGHTNESS)]}%)"
        for k in range(count)
    ]


def _add_regions(figure: go.Figure, regions: Sequence[RankingRegion]) -> None:
    rankings = list(dict.fromkeys(region.ranking for region in regions))
    colours = dict(zip(rankings, ranking_colours(len(rankings))))
    shown: set[tuple[str, ...]] = set()
    for region in regions:
        first_time = region.ranking not in shown
        shown.add(region.ranking)
        colour = colours[region.ranking]
        x, y = region.vertices[:, 0], region.vertices[:, 1]
        figure.add_trace(
            go.Scatter(
                x=[*x, x[0]],
                y=[*y, y[0]],
                fill="toself",
                fillcolor=colour,
                mode="lines",
                line={"color": colour, "width": 0.5},
                name=ranking_label(region.ranking),
                legendgroup=ranking_label(region.ranking),
                showlegend=first_time,
                hoveron="fills",
                hoverinfo="name",
            )
        )


def _add_boundaries(figure: go.Figure, boundaries: Sequence[Boundary]) -> None:
    for boundary in boundaries:
        if boundary.segment is not None:
            figure.add_trace(
                go.Scatter(
                    x=boundary.segment[:, 0],
                    y=boundary.segment[:, 1],
                    mode="lines",
                    line={"color": "grey", "width": 1, "dash": "dot"},
                    name=f"{escape_plotly(boundary.first)} = {escape_plotly(boundary.second)}",
                    showlegend=False,
                    hoverinfo="name",
                )
            )


def _extent(
    regions: Sequence[RankingRegion], points: Sequence[Sequence[float]]
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The regions' bounding box (the whole domain: they tile it); the points' without them."""
    corners = np.vstack([region.vertices for region in regions]) if regions else np.array(points)
    low, high = corners.min(axis=0), corners.max(axis=0)
    high = np.where(high > low, high, low + 1.0)  # a single point: a unit window
    return (float(low[0]), float(high[0])), (float(low[1]), float(high[1]))


def _label_annotation(label: PlacedLabel) -> dict:
    """The label's text, its box held at its anchor, with a line to the point it names."""
    return {
        "x": label.point[0],
        "y": label.point[1],
        "xref": "x",
        "yref": "y",
        "ax": label.offset[0],  # pixels from the point; Plotly counts y downwards
        "ay": -label.offset[1],
        "text": escape_plotly(label.text),
        "showarrow": True,
        "arrowhead": 0,
        "arrowwidth": 1,
        "arrowcolor": "#555555",
        "standoff": MARKER_PX,
        "xanchor": label.x_anchor,
        "yanchor": label.y_anchor,
        "bgcolor": "rgba(255, 255, 255, 0.85)",
        "borderpad": PAD_PX,
        "font": {"size": LABEL_FONT_PX, "color": "black"},
    }


def _point_trace(point: Sequence[float], name: str, symbol: str, colour: str, size: int):
    """A marked point; its label is an annotation (see rank_reversal_map)."""
    name = escape_plotly(name)
    return go.Scatter(
        x=[point[0]],
        y=[point[1]],
        mode="markers",
        marker={"symbol": symbol, "size": size, "color": colour},
        text=[name],  # for the hover only: the label is an annotation
        name=name,
        showlegend=False,
        cliponaxis=False,  # a point on the edge of the map is drawn whole
        hovertemplate="%{text}: (%{x:.3f}, %{y:.3f})<extra></extra>",
    )


def loss_bar_chart(
    loss_by_system: Mapping[str, float],
    *,
    intervals: Mapping[str, tuple[float, float]] | None = None,
    title: str = "Average loss (lower is better)",
    x_title: str = "average loss",
) -> go.Figure:
    """Systems best (lowest) first; with ``intervals`` (e.g. 95% bootstrap), error bars. Any loss
    fits, e.g. MQM error points with their own ``x_title``."""
    return ranked_bars(
        loss_by_system,
        title=title,
        x_title=x_title,
        lower_is_better=True,
        intervals=intervals,
        number_format=".2f",
    )
