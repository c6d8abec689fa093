"""Segment level: metric against people over every rated cell, and metrics ranked in clusters.

A WMT test set has tens of thousands of rated (system, segment) cells: drawn as markers they are
one blot, so the scatter is a 2-D histogram whose colour is the number of cells per bin.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go

from mteval_core.report.figures.plotly_escape import escape_all, escape_plotly
from mteval_core.stats.ranking import MetricRanking

DENSITY_BINS = 60  # per axis: fine enough to see ties and floors, coarse enough to count


def segment_density(
    metric_scores: np.ndarray,
    human_scores: np.ndarray,
    metric_label: str,
    human_label: str,
    title: str = "",
) -> go.Figure:
    """Cells with both scores (NaN elsewhere is left out), binned on both axes; the colour is
    how many cells fall in a bin, on a log scale so single outliers stay visible."""
    x = np.asarray(metric_scores, float).ravel()
    y = np.asarray(human_scores, float).ravel()
    both = np.isfinite(x) & np.isfinite(y)
    x, y = x[both], y[both]
    metric_label, human_label = escape_plotly(metric_label), escape_plotly(human_label)
    counts, x_edges, y_edges = _histogram(x, y)
    with np.errstate(divide="ignore"):
        shade = np.where(counts > 0, np.log10(np.maximum(counts, 1)), np.nan)
    figure = go.Figure(
        go.Heatmap(
            x=((x_edges[:-1] + x_edges[1:]) / 2).tolist(),
            y=((y_edges[:-1] + y_edges[1:]) / 2).tolist(),
            z=[[None if np.isnan(v) else float(v) for v in row] for row in shade.T],
            customdata=counts.T.astype(int).tolist(),
            colorscale="Viridis",
            colorbar={"title": "cells", "tickvals": [0, 1, 2, 3, 4], "ticktext": _count_ticks()},
            hovertemplate="metric %{x:.3g}<br>human %{y:.3g}<br>%{customdata} cells<extra></extra>",
        )
    )
    figure.update_layout(
        title=escape_plotly(title) or f"{metric_label} against {human_label}: {len(x):,} cells",
        xaxis_title=metric_label,
        yaxis_title=human_label,
        height=420,
        margin={"t": 60, "b": 50},
    )
    return figure


def _histogram(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Counts per bin; a constant axis gets one bin around its value rather than none."""
    if not len(x):
        return np.zeros((1, 1)), np.array([0.0, 1.0]), np.array([0.0, 1.0])
    bins = [_edges(x), _edges(y)]
    counts, x_edges, y_edges = np.histogram2d(x, y, bins=bins)
    return counts, x_edges, y_edges


def _edges(values: np.ndarray) -> np.ndarray:
    low, high = float(values.min()), float(values.max())
    if low == high:
        return np.array([low - 0.5, high + 0.5])
    distinct = np.unique(values)
    if len(distinct) <= DENSITY_BINS:  # few values (e.g. MQM points): one bin per value
        middles = (distinct[:-1] + distinct[1:]) / 2
        step = np.diff(distinct).min()
        return np.concatenate([[low - step / 2], middles, [high + step / 2]])
    return np.linspace(low, high, DENSITY_BINS + 1)


def _count_ticks() -> list[str]:
    return ["1", "10", "100", "1,000", "10,000"]


def metric_ranking_figure(
    ranking: MetricRanking,
    statistic_label: str,
    labels: Mapping[str, str],
    selected: str | None = None,
) -> go.Figure:
    """One bar per metric (by its label in ``labels``), best at the top, with its bootstrap
    interval; the text is its significance cluster (rank 1 = no metric is significantly better).
    A metric whose statistic is undefined is not ranked, and not drawn. The ``selected`` metric's
    bar is outlined, and the hover of every other bar gives its p-value against it."""
    ranked = [metric for metric in ranking.metrics if metric.value is not None]
    names = escape_all(labels[metric.name] for metric in ranked)
    values = [metric.value for metric in ranked]
    lower = [m.value - m.interval[0] if m.interval else 0.0 for m in ranked]
    upper = [m.interval[1] - m.value if m.interval else 0.0 for m in ranked]
    figure = go.Figure(
        go.Bar(
            x=values,
            y=names,
            orientation="h",
            text=[f"rank {metric.rank}" for metric in ranked],
            textposition="inside",
            insidetextanchor="start",
            error_x={"type": "data", "array": upper, "arrayminus": lower, "visible": True},
            marker={
                "color": [_cluster_colour(metric.rank) for metric in ranked],
                "line": {
                    "color": SELECTED_OUTLINE,
                    "width": [3 if metric.name == selected else 0 for metric in ranked],
                },
            },
            customdata=_p_value_notes(
                ranking, selected, [metric.name for metric in ranked], labels
            ),
            hovertemplate="%{y}: %{x:.4f}<br>%{text}%{customdata}<extra></extra>",
        )
    )
    figure.update_layout(
        title=f"Metrics by {escape_plotly(statistic_label)}, in significance clusters",
        xaxis_title=escape_plotly(statistic_label),
        yaxis={"autorange": "reversed"},
        height=max(260, 60 + 32 * len(ranked)),
        margin={"t": 60, "b": 40},
    )
    return figure


_CLUSTER_COLOURS = ("#1f77b4", "#7fb2dc", "#b8d3ea", "#dde9f4")
SELECTED_OUTLINE = "#d62728"


def _p_value_notes(
    ranking: MetricRanking, selected: str | None, names: list[str], labels: Mapping[str, str]
) -> list[str]:
    """Per drawn bar, the hover's line with its p-value against ``selected`` ("" for none)."""
    if selected not in {metric.name for metric in ranking.metrics}:
        return [""] * len(names)
    p_values = {pair.other: pair.p_value for pair in ranking.p_values_of(selected)}
    label = escape_plotly(labels[selected])
    return [
        f"<br>p against {label}: {p_values[name]:.3f}" if p_values.get(name) is not None else ""
        for name in names
    ]


def _cluster_colour(rank: int) -> str:
    return _CLUSTER_COLOURS[min(rank, len(_CLUSTER_COLOURS)) - 1]
