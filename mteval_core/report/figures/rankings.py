"""One language pair's rank ranges: each system's interval of ranks [first, last], best at the
top, the AutoRank's beside the human one where both exist, a line between clusters and the rows
where the two ranges do not overlap shaded."""

from __future__ import annotations

from collections.abc import Sequence

import plotly.graph_objects as go

from mteval_core.report.figures.plotly_escape import escape_all, escape_plotly
from mteval_core.report.ranking_rows import RankingRow

OWN, OTHER, DISAGREE = "#1f77b4", "#ff7f0e", "rgba(214, 39, 40, 0.15)"
ROW_HEIGHT = 24  # pixels per system: 60 systems fit in 1,500 pixels


def rank_ranges_figure(rows: Sequence[RankingRow], title: str, own_label: str) -> go.Figure:
    """The rank range of every row (``own_label`` names its ranking, e.g. "human"), and the
    AutoRank's range a little below it where the rows carry one."""
    with_other = any(row.autorank_rank is not None for row in rows)
    offset = 0.15 if with_other else 0.0
    figure = go.Figure()
    figure.add_trace(_ranges([row.rank for row in rows], -offset, own_label, OWN, rows))
    if with_other:
        ranges = [row.autorank_rank for row in rows]
        figure.add_trace(_ranges(ranges, offset, "AutoRank", OTHER, rows))
    for i, row in enumerate(rows):
        if row.disagrees:
            figure.add_hrect(
                y0=i - 0.5, y1=i + 0.5, fillcolor=DISAGREE, line_width=0, layer="below"
            )
    for i in range(1, len(rows)):
        if rows[i].cluster is not None and rows[i].cluster != rows[i - 1].cluster:
            figure.add_hline(y=i - 0.5, line={"color": "#262730", "width": 1, "dash": "dash"})
    figure.update_layout(
        title=escape_plotly(title),
        xaxis={"title": "rank (1 is the best)", "dtick": 1 if len(rows) <= 20 else 5},
        yaxis={
            "autorange": "reversed",
            "tickmode": "array",
            "tickvals": list(range(len(rows))),
            "ticktext": escape_all(row.system for row in rows),
        },
        height=140 + ROW_HEIGHT * len(rows),
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
    )
    return figure


def _ranges(
    ranges: Sequence[tuple[int, int] | None],
    offset: float,
    label: str,
    colour: str,
    rows: Sequence[RankingRow],
) -> go.Scatter:
    """One trace: a line from first to last rank per row (None between rows)."""
    xs: list[float | None] = []
    ys: list[float | None] = []
    hover: list[str | None] = []
    for i, (extent, row) in enumerate(zip(ranges, rows)):
        if extent is None:
            continue
        first, last = extent
        shown = str(first) if first == last else f"{first}-{last}"
        xs += [first, last, None]
        ys += [i + offset, i + offset, None]
        hover += [f"{escape_plotly(row.system)}: {shown}"] * 2 + [None]
    return go.Scatter(
        x=xs,
        y=ys,
        mode="lines+markers",
        name=escape_plotly(label),
        line={"color": colour, "width": 4},
        marker={"color": colour, "size": 8},
        hovertext=hover,
        hoverinfo="text",
    )
