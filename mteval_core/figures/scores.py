"""Figures of corpus scores: one metric's score per system, and which system pairs differ."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go

from mteval_core.figures.bars import ranked_bars
from mteval_core.figures.text import escape_all, escape_plotly
from mteval_core.stats.significance import SIGNIFICANCE_LEVEL

if TYPE_CHECKING:  # only named in a type hint
    from mteval_core.stats.significance import PairedTest

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


def system_scores_bar(
    scores: Mapping[str, float],
    metric_label: str,
    intervals: Mapping[str, Sequence[float]] | None = None,
) -> go.Figure:
    """Systems sorted best (highest) first, each bar labelled with its score; ``intervals``
    (system -> [low, high]) become error bars."""
    return ranked_bars(
        scores, title=f"{metric_label} by system", x_title=metric_label, intervals=intervals
    )


def significance_heatmap(  # long: one figure's matrices, text and colour scale
    scores: Mapping[str, float],
    pairs: Sequence[PairedTest],
    metric: str,
    metric_label: str,
) -> go.Figure:
    """Every system pair under one metric: colour is the Holm-corrected paired bootstrap p,
    text the difference (row minus column) and that p.

    ``scores`` is system -> corpus score under ``metric``; ``pairs`` are
    ``bootstrap_scores(...).pairs`` (any metrics). Systems run best
    first down and across, so the upper triangle reads "better than".
    """
    systems = sorted(scores, key=scores.__getitem__, reverse=True)
    position = {system: index for index, system in enumerate(systems)}
    chosen = [pair for pair in pairs if pair.metric == metric]
    n = len(systems)
    delta, p, p_holm = (np.full((n, n), np.nan) for _ in range(3))
    if chosen:
        rows = np.array([position[pair.a] for pair in chosen])
        columns = np.array([position[pair.b] for pair in chosen])
        for matrix, name, sign in ((delta, "delta", -1.0), (p, "p", 1.0), (p_holm, "p_holm", 1.0)):
            values = np.array([getattr(pair, name) for pair in chosen])
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
            texttemplate="%{text}",
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
    figure.update_layout(
        title=f"{escape_plotly(metric_label)}: paired bootstrap significance",
        xaxis={"tickangle": -30, "showgrid": False},
        yaxis={"autorange": "reversed", "showgrid": False},
        plot_bgcolor="rgba(0,0,0,0)",  # the blank diagonal shows as blank
        height=200 + 45 * n,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
    )
    return figure


def _with_gaps(matrix: np.ndarray) -> list[list[float | None]]:
    """NaN as None, which Plotly draws as an empty cell (the diagonal, pairs not tested)."""
    return [[None if np.isnan(value) else float(value) for value in row] for row in matrix]
