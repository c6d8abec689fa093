"""Figures of corpus scores: one metric's score per system, and which system pairs differ."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go

from mteval_core.report.figures.bars import ranked_bars
from mteval_core.report.figures.plotly_escape import escape_all, escape_plotly
from mteval_core.stats.significance import SIGNIFICANCE_LEVEL

if TYPE_CHECKING:  # only named in a type hint
    from mteval_core.stats.significance import PairedTest
    from mteval_core.stats.system_clusters import ClusteredSystem

# Colour of log10(p): blues below the significance level, greys above, so significant cells stand
# out at a glance; the break sits where log10(0.05) falls between _LOG_P_MIN and 0.
_LOG_P_MIN = -3.0
_BREAK = (np.log10(SIGNIFICANCE_LEVEL) - _LOG_P_MIN) / -_LOG_P_MIN
_P_COLOURS = [
    [0.0, "#08306b"],
    [_BREAK, "#6baed6"],
    [_BREAK, "#d9d9d9"],
    [1.0, "#f7f7f7"],
]
_P_TICKS = [0.001, 0.01, SIGNIFICANCE_LEVEL, 0.2, 1.0]
# Readable at 25 systems: no text under 11 px, each row at least 30 px high. Cell text (two
# lines, 44 px rows) fits up to 15 systems across a dashboard's width; above that the cells
# stay blank and the hover says it all.
FONT_SIZE = 11
HEATMAP_TEXT_MAX_SYSTEMS = 15
_ROW_PX = {"roomy": 44, "dense": 30}
_CLUSTER_BAND = "rgba(38, 39, 48, 0.07)"  # every other cluster shaded


def system_scores_bar(
    scores: Mapping[str, float],
    metric_label: str,
    intervals: Mapping[str, Sequence[float]] | None = None,
    higher_is_better: bool = True,
) -> go.Figure:
    """Systems sorted best first (highest, or lowest for an error rate such as TER), each bar
    labelled with its score; ``intervals`` (system -> [low, high]) become error bars."""
    return ranked_bars(
        scores,
        title=f"{metric_label} by system",
        x_title=metric_label,
        lower_is_better=not higher_is_better,
        intervals=intervals,
    )


def significance_heatmap(  # long: one figure's matrices, text and colour scale
    scores: Mapping[str, float],
    pairs: Sequence[PairedTest],
    metric: str,
    metric_label: str,
    higher_is_better: bool = True,
) -> go.Figure:
    """Every system pair under one metric: colour is the Holm-corrected paired bootstrap p,
    text the difference (row minus column) and that p.

    ``scores`` is system -> corpus score under ``metric``; ``pairs`` are
    ``bootstrap_scores(...).pairs`` (any metrics). Systems run best first (lowest first for an
    error rate such as TER) down and across, so the upper triangle reads "better than".
    """
    systems = sorted(scores, key=scores.__getitem__, reverse=higher_is_better)
    position = {system: index for index, system in enumerate(systems)}
    chosen = [pair for pair in pairs if pair.metric == metric]
    n = len(systems)
    delta, p, p_holm = (np.full((n, n), np.nan) for _ in range(3))
    if chosen:
        rows = np.array([position[pair.a] for pair in chosen])
        columns = np.array([position[pair.b] for pair in chosen])
        for matrix, name, sign in ((delta, "delta", -1.0), (p, "p", 1.0), (p_holm, "p_holm", 1.0)):
            # a p-value undefined on too few segments is a gap, as the diagonal
            values = np.array([getattr(pair, name) for pair in chosen], dtype=np.float64)
            matrix[rows, columns] = values
            matrix[columns, rows] = sign * values
    tested = np.isfinite(p_holm)  # all but the diagonal
    text = np.full((n, n), "", dtype=object)
    text[tested] = [f"{d:+.3g}<br>p={q:.3f}" for d, q in zip(delta[tested], p_holm[tested])]
    colour = np.log10(np.clip(p_holm, 10**_LOG_P_MIN, 1.0))
    figure = go.Figure(
        go.Heatmap(
            z=_with_gaps(colour),
            x=escape_all(systems),
            y=escape_all(systems),
            text=text.tolist(),
            # too dense to print: the text stays in the data, the hover shows every number
            texttemplate="%{text}" if n <= HEATMAP_TEXT_MAX_SYSTEMS else None,
            textfont={"size": FONT_SIZE},
            customdata=np.stack([delta, p, p_holm], axis=-1).tolist(),
            hovertemplate=(
                "%{y} − %{x}<br>difference: %{customdata[0]:+.4g}<br>"
                "p: %{customdata[1]:.4f}<br>p (Holm): %{customdata[2]:.4f}<extra></extra>"
            ),
            hoverongaps=False,
            zmin=_LOG_P_MIN,
            zmax=0.0,
            colorscale=_P_COLOURS,
            colorbar={
                "title": {"text": "p (Holm)"},
                "tickvals": np.log10(_P_TICKS).tolist(),
                "ticktext": [f"{tick:g}" for tick in _P_TICKS],
            },
        )
    )
    row_px = _ROW_PX["roomy" if n <= HEATMAP_TEXT_MAX_SYSTEMS else "dense"]  # text needs room
    figure.update_layout(
        title=f"{escape_plotly(metric_label)}: paired bootstrap significance",
        font={"size": FONT_SIZE + 1},
        xaxis={"tickangle": -30, "showgrid": False, "tickfont": {"size": FONT_SIZE}},
        yaxis={"autorange": "reversed", "showgrid": False, "tickfont": {"size": FONT_SIZE}},
        plot_bgcolor="rgba(0,0,0,0)",  # the blank diagonal shows as blank
        height=200 + row_px * n,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    return figure


def clickable_cells(heat_map: go.Figure) -> go.Figure:
    """``significance_heatmap``'s figure with every tested cell clickable: Plotly selects no
    heat-map cell, so an invisible marker sits on each (trace 1, carrying the cell's hover) and
    a click anywhere in a cell selects its marker, the nearest. A selected point's ``x`` and
    ``y`` are the column's and the row's system names as the axes show them (escaped)."""
    figure = go.Figure(heat_map)
    (cells,) = figure.data
    rows, columns = np.nonzero(np.array([[v is not None for v in row] for row in cells.z]))
    customdata = np.array(cells.customdata, dtype=float)
    figure.add_trace(
        go.Scatter(
            x=[cells.x[j] for j in columns],
            y=[cells.y[i] for i in rows],
            mode="markers",
            marker={"size": 12, "color": "rgba(0,0,0,0)"},
            customdata=customdata[rows, columns].tolist(),
            hovertemplate=cells.hovertemplate,
            showlegend=False,
        )
    )
    figure.update_traces(hoverinfo="skip", hovertemplate=None, selector={"type": "heatmap"})
    figure.update_layout(hoverdistance=-1, clickmode="event+select")
    return figure


def _with_gaps(matrix: np.ndarray) -> list[list[float | None]]:
    """NaN as None, which Plotly draws as an empty cell (the diagonal, pairs not tested)."""
    return [[None if np.isnan(value) else float(value) for value in row] for row in matrix]


def significance_clusters_figure(
    ranking: Sequence[ClusteredSystem], metric_label: str
) -> go.Figure:
    """Systems best first, each its score with its interval, grouped into significance clusters
    (``stats.system_clusters.cluster_systems``): every other cluster shaded, a dashed line
    between two clusters, the cluster's number at its right and each system's rank range (WMT's
    "1-3") before its name. Reads at 25 systems, where an all-pairs heat map does not."""
    names = escape_all(entry.system for entry in ranking)
    ranks = [_rank_text(entry.rank_range) for entry in ranking]
    figure = go.Figure(_ranked_points(ranking, names, ranks))
    figure.update_layout(
        title=f"{escape_plotly(metric_label)}: systems in significance clusters",
        font={"size": FONT_SIZE + 1},
        xaxis={"title": {"text": escape_plotly(metric_label)}, "tickfont": {"size": FONT_SIZE}},
        yaxis={
            "autorange": "reversed",
            "tickvals": names,
            "ticktext": [f"{rank}   {name}" for rank, name in zip(ranks, names)],
            "tickfont": {"size": FONT_SIZE + 1},
            "showgrid": False,
        },
        shapes=_cluster_shapes([entry.cluster for entry in ranking]),
        annotations=_cluster_labels([entry.cluster for entry in ranking]),
        height=150 + 28 * len(ranking),
        margin={"l": 10, "r": 90, "t": 50, "b": 40},
        showlegend=False,
    )
    return figure


def _ranked_points(
    ranking: Sequence[ClusteredSystem], names: Sequence[str], ranks: Sequence[str]
) -> go.Scatter:
    """One marker per system at its score, its interval as error bars when every system has
    one; the hover names the interval, cluster, rank range and the significant pairs."""
    scores = [entry.score for entry in ranking]
    intervals = [entry.interval for entry in ranking]
    known = [interval for interval in intervals if interval is not None]
    has_intervals = bool(ranking) and len(known) == len(ranking)
    customdata = [
        [
            *(interval if interval is not None else (np.nan, np.nan)),
            entry.cluster,
            rank,
            entry.significantly_better,
            entry.significantly_worse,
        ]
        for entry, interval, rank in zip(ranking, intervals, ranks)
    ]
    interval_hover = " [%{customdata[0]:.4g}, %{customdata[1]:.4g}]" if has_intervals else ""
    points = go.Scatter(
        x=scores,
        y=list(names),
        mode="markers",
        marker={"size": 9, "color": "#1f5fa8"},
        customdata=customdata,
        hovertemplate=(
            f"%{{y}}<br>score: %{{x:.4g}}{interval_hover}<br>cluster %{{customdata[2]}}, "
            "rank %{customdata[3]}<br>significantly worse than %{customdata[4]} system(s), "
            "better than %{customdata[5]}<extra></extra>"
        ),
    )
    if has_intervals:  # asymmetric, as percentile intervals are
        points.error_x = {
            "type": "data",
            "symmetric": False,
            "array": [high - score for score, (_, high) in zip(scores, known)],
            "arrayminus": [score - low for score, (low, _) in zip(scores, known)],
            "color": "#262730",
            "thickness": 1.5,
            "width": 4,
        }
    return points


def _rank_text(rank_range: Sequence[int]) -> str:
    low, high = rank_range
    return f"{low}" if low == high else f"{low}–{high}"


def _cluster_spans(clusters: Sequence[int]) -> list[tuple[int, int, int]]:
    """(cluster, first row, last row) of each run of rows in one cluster, top down."""
    spans: list[tuple[int, int, int]] = []
    for row, cluster in enumerate(clusters):
        if spans and spans[-1][0] == cluster:
            spans[-1] = (cluster, spans[-1][1], row)
        else:
            spans.append((cluster, row, row))
    return spans


def _cluster_shapes(clusters: Sequence[int]) -> list[dict]:
    """A shaded band behind every other cluster and a dashed line between two clusters."""
    shapes = []
    for index, (_, first, last) in enumerate(_cluster_spans(clusters)):
        if index % 2 == 0:
            shapes.append(
                {
                    "type": "rect",
                    "xref": "paper",
                    "x0": 0,
                    "x1": 1,
                    "yref": "y",
                    "y0": first - 0.5,
                    "y1": last + 0.5,
                    "fillcolor": _CLUSTER_BAND,
                    "line": {"width": 0},
                    "layer": "below",
                }
            )
        if index:  # the line above every cluster but the first
            shapes.append(
                {
                    "type": "line",
                    "xref": "paper",
                    "x0": 0,
                    "x1": 1,
                    "yref": "y",
                    "y0": first - 0.5,
                    "y1": first - 0.5,
                    "line": {"color": "#7f7f7f", "width": 1, "dash": "dash"},
                }
            )
    return shapes


def _cluster_labels(clusters: Sequence[int]) -> list[dict]:
    """The cluster's number beside the middle of its rows, right of the plot."""
    return [
        {
            "text": f"cluster {cluster}",
            "xref": "paper",
            "x": 1.01,
            "xanchor": "left",
            "yref": "y",
            "y": (first + last) / 2,
            "showarrow": False,
            "font": {"size": FONT_SIZE + 1},
        }
        for cluster, first, last in _cluster_spans(clusters)
    ]
