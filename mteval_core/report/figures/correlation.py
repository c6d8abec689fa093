"""Metric against human: system scatter with the regression line, and pairwise differentials.

Up to ``LABELLED_SYSTEMS`` systems every point carries its name; with more, names would print over
each other, so only the extremes of either axis (and the highlighted system) are labelled and
every other name is on hover. One system can be highlighted: its point in the scatter, its pairs
among the differences.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go

from mteval_core.report.figures.plotly_escape import escape_all, escape_plotly
from mteval_core.stats.reliability import ReliabilityCurve, Statistic, reliability_summary

if TYPE_CHECKING:
    from mteval_core.stats.meta import MetricAgainstHuman

LABELLED_SYSTEMS = 15  # every point labelled up to this many systems (WMT TED: 13)
EXTREMES = 2  # with more: the highest and the lowest this many on each axis are labelled
POINT_COLOUR, HIGHLIGHT_COLOUR, FADED_COLOUR = "#1f77b4", "#d62728", "#b0c4de"


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
    names = escape_all(systems)
    text = [name if shown else "" for name, shown in zip(names, labelled_points(x, y))]
    figure = go.Figure(
        go.Scatter(
            x=x.tolist(),
            y=y.tolist(),
            mode="markers+text",
            text=text,
            hovertext=names,
            textposition=label_positions(x, y, text),
            cliponaxis=False,  # names near the edge stay readable
            marker={"size": 11, "color": POINT_COLOUR},
            name="systems",
            customdata=[metric_label] * len(x),
            hovertemplate="%{hovertext}<br>%{customdata} %{x:.4g}<br>human %{y:.4g}<extra></extra>",
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


def labelled_points(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which points carry their name: all up to ``LABELLED_SYSTEMS``, else the ``EXTREMES``
    highest and lowest on each axis (by position: ties cannot add more)."""
    n = len(x)
    if n <= LABELLED_SYSTEMS:
        return np.ones(n, dtype=bool)
    labelled = np.zeros(n, dtype=bool)
    for values in (x, y):
        order = np.argsort(values, kind="stable")
        labelled[order[:EXTREMES]] = labelled[order[-EXTREMES:]] = True
    return labelled


# A name's box as a share of the axes' spans (a plot about 500 x 350 pixels), and the gap
# between a point and its name.
CHAR_WIDTH, LINE_HEIGHT, GAP = 0.014, 0.05, 0.03
POSITIONS = ("top center", "bottom center", "middle right", "middle left")


def label_positions(x: np.ndarray, y: np.ndarray, texts: Sequence[str]) -> list[str]:
    """Where each name goes beside its point: above, unless its box would cover a name placed
    before it (the highest points are placed first), then below, right or left; above when
    every side is taken."""
    u, v = _share_of_span(x), _share_of_span(y)
    placed: list[tuple[float, float, float, float]] = []
    positions = [POSITIONS[0]] * len(texts)
    for i in sorted((i for i, t in enumerate(texts) if t), key=lambda i: -v[i]):
        width = CHAR_WIDTH * len(texts[i])
        boxes = {
            "top center": (
                u[i] - width / 2,
                u[i] + width / 2,
                v[i] + GAP,
                v[i] + GAP + LINE_HEIGHT,
            ),
            "bottom center": (
                u[i] - width / 2,
                u[i] + width / 2,
                v[i] - GAP - LINE_HEIGHT,
                v[i] - GAP,
            ),
            "middle right": (
                u[i] + GAP,
                u[i] + GAP + width,
                v[i] - LINE_HEIGHT / 2,
                v[i] + LINE_HEIGHT / 2,
            ),
            "middle left": (
                u[i] - GAP - width,
                u[i] - GAP,
                v[i] - LINE_HEIGHT / 2,
                v[i] + LINE_HEIGHT / 2,
            ),
        }
        free = [p for p in POSITIONS if not any(_overlap(boxes[p], box) for box in placed)]
        positions[i] = free[0] if free else POSITIONS[0]
        placed.append(boxes[positions[i]])
    return positions


def _share_of_span(values: np.ndarray) -> np.ndarray:
    finite = values[np.isfinite(values)]
    if not len(finite) or np.ptp(finite) == 0:
        return np.zeros(len(values))
    return (values - finite.min()) / np.ptp(finite)


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[1] and b[0] < a[1] and a[2] < b[3] and b[2] < a[3]


def system_scatter(
    view: MetricAgainstHuman, metric_label: str, human_label: str, highlight: str | None = None
) -> go.Figure:
    """``metric_human_scatter`` of one metric's view (``stats.meta.MetaEvaluation.against_human``)
    with ``highlight``'s point marked and labelled, and the other points faded. The view knows
    its metric by name; ``metric_label`` is what people read (``writers.metric_labels``)."""
    statistics = view.correlations
    figure = metric_human_scatter(
        view.systems,
        view.metric_scores,
        view.human_scores,
        metric_label,
        human_label,
        statistics.pearson,
        statistics.pearson_ci,
        statistics.reason("pearson"),
    )
    if highlight not in view.systems:
        return figure
    points = figure.data[0]
    chosen = np.array([system == highlight for system in view.systems])
    points.marker.color = [HIGHLIGHT_COLOUR if c else FADED_COLOUR for c in chosen]
    points.marker.size = [15 if c else 11 for c in chosen]
    points.text = [
        name if c else text for name, text, c in zip(points.hovertext, points.text, chosen)
    ]
    points.textposition = label_positions(view.metric_scores, view.human_scores, points.text)
    return figure


def differential_scatter(
    pair_labels: Sequence[str],
    metric_differences: Sequence[float],
    human_differences: Sequence[float],
    metric_label: str,
    pearson: float | None,
    undefined: str | None = None,
    highlight: Sequence[bool] | None = None,
) -> go.Figure:
    """Coughlin's view: one point per pair of systems (metric difference, human difference);
    ``undefined`` says why r has no value when it is None. ``highlight`` marks some pairs (those
    of one system): drawn again on top, in colour, with the others faded."""
    x = np.asarray(metric_differences, float)
    y = np.asarray(human_differences, float)
    labels = escape_all(pair_labels)
    marked = np.zeros(len(x), dtype=bool) if highlight is None else np.asarray(highlight, bool)
    hover = "%{text}<br>Δ metric %{x:.4g}<br>Δ human %{y:.4g}<extra></extra>"
    figure = go.Figure(
        go.Scatter(
            x=x.tolist(),
            y=y.tolist(),
            mode="markers",
            text=labels,
            marker={"size": 8, "color": FADED_COLOUR if marked.any() else POINT_COLOUR},
            name="every pair",
            hovertemplate=hover,
        )
    )
    if marked.any():
        figure.add_trace(
            go.Scatter(
                x=x[marked].tolist(),
                y=y[marked].tolist(),
                mode="markers",
                text=[label for label, m in zip(labels, marked) if m],
                marker={"size": 10, "color": HIGHLIGHT_COLOUR},
                name="highlighted system's pairs",
                hovertemplate=hover,
            )
        )
    figure.update_layout(
        title=f"Pairwise differences: Pearson r = {_value(pearson, undefined)}",
        xaxis_title=f"Δ {escape_plotly(metric_label)}",
        yaxis_title="Δ human",
        showlegend=False,
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
