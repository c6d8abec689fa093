"""Systems as horizontal bars, best first: one builder for corpus scores and for losses."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from mteval_core.report.figures.plotly_escape import escape_all, escape_plotly


def ranked_bars(
    value_by_system: Mapping[str, float],
    *,
    title: str,
    x_title: str,
    lower_is_better: bool = False,
    intervals: Mapping[str, Sequence[float]] | None = None,
    number_format: str = ".4g",
) -> go.Figure:
    """Systems best first (highest, or lowest with ``lower_is_better``; ties keep their order),
    each bar labelled with its value in ``number_format``.

    ``intervals`` (system -> [low, high]) become error bars; they are asymmetric, as bootstrap
    percentile intervals are, so the bar's end is not their midpoint.
    """
    names = sorted(value_by_system, key=value_by_system.__getitem__, reverse=not lower_is_better)
    values = [value_by_system[name] for name in names]
    bar = go.Bar(
        x=values,
        y=escape_all(names),
        orientation="h",
        text=[f"{value:{number_format}}" for value in values],
        textposition="auto",
        hovertemplate="%{y}: %{x}<extra></extra>",
    )
    if intervals:
        lows = [intervals[name][0] for name in names]
        highs = [intervals[name][1] for name in names]
        bar.error_x = {
            "type": "data",
            "symmetric": False,
            "array": [high - value for high, value in zip(highs, values)],
            "arrayminus": [value - low for low, value in zip(lows, values)],
            "color": "#262730",
            "thickness": 1.5,
        }
        bar.customdata = np.column_stack([lows, highs])
        bar.hovertemplate = (
            f"%{{y}}: %{{x}} [%{{customdata[0]:{number_format}}}, "
            f"%{{customdata[1]:{number_format}}}]<extra></extra>"
        )
        bar.textposition = "inside"  # at the bar's start, clear of the error bar at its end
        bar.insidetextanchor = "start"
    figure = go.Figure(bar)
    figure.update_layout(
        title=escape_plotly(title),
        xaxis_title=escape_plotly(x_title),
        yaxis={"autorange": "reversed"},
        height=120 + 40 * len(names),
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
    )
    return figure
