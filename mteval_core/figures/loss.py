"""Figures of the loss analysis: the rank-reversal map, and losses as ranked bars."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import plotly.graph_objects as go
from plotly.colors import qualitative

from mteval_core.figures.bars import ranked_bars
from mteval_core.figures.text import escape_all, escape_plotly
from mteval_core.loss.reversal import Boundary, RankingRegion


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

    ``equal_scale`` keeps one unit the same length on both axes, so that distances on the map
    look like the Euclidean distances reported for the nearest reversal."""
    figure = go.Figure()
    colours: dict[tuple[str, ...], str] = {}
    for region in regions:
        first_time = region.ranking not in colours
        colour = colours.setdefault(
            region.ranking, qualitative.Pastel[len(colours) % len(qualitative.Pastel)]
        )
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
    for name, point in (presets or {}).items():
        figure.add_trace(_point_trace(point, name, "diamond-open", "black", 10))
    figure.add_trace(_point_trace(current, current_name, "x", "crimson", 14))
    figure.update_layout(
        title=escape_plotly(title),
        xaxis_title=escape_plotly(x_title),
        yaxis_title=escape_plotly(y_title),
        yaxis={"scaleanchor": "x", "scaleratio": 1} if equal_scale else {},
        legend={"title": {"text": "ranking"}},
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
    )
    return figure


def _point_trace(point: Sequence[float], name: str, symbol: str, colour: str, size: int):
    name = escape_plotly(name)
    return go.Scatter(
        x=[point[0]],
        y=[point[1]],
        mode="markers+text",
        marker={"symbol": symbol, "size": size, "color": colour},
        text=[name],
        textposition="top right",
        name=name,
        showlegend=False,
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
