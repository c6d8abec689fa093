"""Bar chart of one metric's corpus score per system."""

from __future__ import annotations

from collections.abc import Mapping

import plotly.graph_objects as go


def system_scores_bar(scores: Mapping[str, float], metric_label: str) -> go.Figure:
    """Systems sorted best first, each bar labelled with its score."""
    ordered = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    names = [name for name, _ in ordered]
    values = [value for _, value in ordered]
    figure = go.Figure(
        go.Bar(
            x=values,
            y=names,
            orientation="h",
            text=[f"{v:.4g}" for v in values],
            textposition="auto",
            hovertemplate="%{y}: %{x}<extra></extra>",
        )
    )
    figure.update_layout(
        title=f"{metric_label} by system",
        xaxis_title=metric_label,
        yaxis={"autorange": "reversed"},
        height=120 + 40 * len(names),
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
    )
    return figure
