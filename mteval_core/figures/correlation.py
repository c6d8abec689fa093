"""Metric against human: system scatter with the regression line, and pairwise differentials."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from mteval_core.figures.text import escape_all, escape_plotly
from mteval_core.stats.reliability import ReliabilityCurve, Statistic, reliability_summary


def metric_human_scatter(
    systems: Sequence[str],
    metric_scores: Sequence[float],
    human_scores: Sequence[float],
    metric_label: str,
    human_label: str,
    pearson: float | None,
    pearson_ci: Sequence[float] | None = None,
    undefined: str | None = None,
) -> go.Figure:
    """One point per system, its least-squares line, and r (with its interval) in the title;
    ``undefined`` says why r has no value (e.g. constant human scores) when it is None."""
    x, y = np.asarray(metric_scores, float), np.asarray(human_scores, float)
    metric_label, human_label = escape_plotly(metric_label), escape_plotly(human_label)
    figure = go.Figure(
        go.Scatter(
            x=x.tolist(),
            y=y.tolist(),
            mode="markers+text",
            text=escape_all(systems),
            textposition="top center",
            cliponaxis=False,  # names near the edge stay readable
            marker={"size": 11},
            name="systems",
            customdata=[metric_label] * len(x),
            hovertemplate="%{text}<br>%{customdata} %{x:.4g}<br>human %{y:.4g}<extra></extra>",
        )
    )
    if len(x) >= 2 and np.ptp(x) > 0:
        slope, intercept = np.polyfit(x, y, 1)
        line_x = np.array([x.min(), x.max()])
        figure.add_trace(
            go.Scatter(
                x=line_x.tolist(),
                y=(slope * line_x + intercept).tolist(),
                mode="lines",
                name="least squares",
                line={"dash": "dash"},
                hoverinfo="skip",
            )
        )
    interval = f" [{pearson_ci[0]:.3f}, {pearson_ci[1]:.3f}]" if pearson_ci else ""
    figure.update_layout(
        title=f"{metric_label} against {human_label}: Pearson r = "
        f"{_value(pearson, undefined)}{interval}",
        xaxis_title=metric_label,
        yaxis_title=human_label,
        showlegend=False,
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
    )
    return figure


def differential_scatter(
    pair_labels: Sequence[str],
    metric_differences: Sequence[float],
    human_differences: Sequence[float],
    metric_label: str,
    pearson: float | None,
    undefined: str | None = None,
) -> go.Figure:
    """Coughlin's view: one point per pair of systems (metric difference, human difference);
    ``undefined`` says why r has no value when it is None."""
    figure = go.Figure(
        go.Scatter(
            x=np.asarray(metric_differences, float).tolist(),
            y=np.asarray(human_differences, float).tolist(),
            mode="markers",
            text=escape_all(pair_labels),
            marker={"size": 8},
            hovertemplate="%{text}<br>Δ metric %{x:.4g}<br>Δ human %{y:.4g}<extra></extra>",
        )
    )
    figure.update_layout(
        title=f"Pairwise differences: Pearson r = {_value(pearson, undefined)}",
        xaxis_title=f"Δ {escape_plotly(metric_label)}",
        yaxis_title="Δ human",
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
    )
    return figure


def reliability_figure(
    curves: Sequence[ReliabilityCurve], metric_label: str, statistic: Statistic = "pearson"
) -> go.Figure:
    """Melamed et al.'s Figure 3: mean correlation against pseudo-document size, one line per
    set of references, with a band from the lowest to the highest repetition."""
    figure = go.Figure()
    for curve in curves:
        summary = reliability_summary(curve, statistic)
        name = escape_plotly(" + ".join(curve.references) or "references")
        figure.add_trace(
            go.Scatter(
                x=[*summary.sizes, *summary.sizes[::-1]],
                y=[*summary.high.tolist(), *summary.low[::-1].tolist()],
                fill="toself",
                opacity=0.15,
                line={"width": 0},
                hoverinfo="skip",
                showlegend=False,
                legendgroup=name,
            )
        )
        figure.add_trace(
            go.Scatter(
                x=summary.sizes,
                y=summary.mean.tolist(),
                mode="lines+markers",
                name=name,
                legendgroup=name,
                customdata=[name] * len(summary.sizes),
                hovertemplate="%{customdata}<br>%{x} segments: r = %{y:.3f}<extra></extra>",
            )
        )
    figure.update_layout(
        title=f"Reliability of {escape_plotly(metric_label)} against test size "
        f"({statistic.capitalize()}, mean and range over repetitions)",
        xaxis_title="segments per pseudo-document",
        yaxis_title=f"{statistic.capitalize()} correlation with human",
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
    )
    return figure


def _value(r: float | None, undefined: str | None) -> str:
    """r to 3 decimals, or 'undefined (why)' when it has no value."""
    if r is not None:
        return f"{r:.3f}"
    return f"undefined ({escape_plotly(undefined)})" if undefined else "undefined"
