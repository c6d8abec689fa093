"""The bitext grid: candidate tokens down, reference tokens across, hits as dots, the matching's
aligned blocks as squares (cut where GTM's cap bites), and a line at each reference barrier."""

from __future__ import annotations

import plotly.graph_objects as go

from mteval_core.grid import BitextGrid, GridMatching

BLOCK_COLOURS = ("#1f77b4", "#d62728")  # greedy, exact


def bitext_grid_figure(grid: BitextGrid, matching: GridMatching, title: str = "") -> go.Figure:
    """Readable up to about 100 x 100 tokens: the axes carry the tokens, hover shows both words."""
    columns = [token if token is not None else "‖" for token in grid.columns]
    figure = go.Figure(
        go.Scatter(
            x=grid.hits[:, 1].tolist(),
            y=grid.hits[:, 0].tolist(),
            mode="markers",
            marker={"size": 7, "color": "#555"},
            name="hits",
            customdata=[[grid.candidate[i], columns[j]] for i, j in grid.hits],
            hovertemplate="row %{y}: %{customdata[0]}<br>column %{x}: %{customdata[1]}"
            "<extra></extra>",
        )
    )
    colour = BLOCK_COLOURS[0] if matching.method == "greedy" else BLOCK_COLOURS[1]
    for order, (i, j, length) in enumerate(matching.blocks.tolist(), start=1):
        figure.add_shape(
            type="rect",
            x0=j - 0.5,
            x1=j - 0.5 + length,
            y0=i - 0.5,
            y1=i - 0.5 + length,
            line={"color": colour, "width": 2},
            fillcolor=colour,
            opacity=0.25,
            name=f"block {order}",
        )
    for _, end in grid.reference_spans:  # the barrier column after each reference
        figure.add_vline(x=end, line={"color": "#999", "dash": "dot"})
    numbers = (
        f"{matching.method}: sum of len^e {matching.weight:.4g}, size {matching.size:.4g}, "
        f"P {matching.precision:.3f}, R {matching.recall:.3f}, F {matching.f:.3f}"
    )
    rows = len(grid.candidate)
    figure.update_layout(
        title={
            "text": f"{title}<br><sup>{numbers}</sup>" if title else numbers,
            "y": 0.98,
            "yref": "container",
            "yanchor": "top",
        },
        xaxis={
            "tickmode": "array",
            "tickvals": list(range(len(columns))),
            "ticktext": columns,
            "side": "top",
            "tickangle": -60,
            "range": [-0.5, len(columns) - 0.5],
            "constrain": "domain",
            "showgrid": False,
        },
        yaxis={
            "tickmode": "array",
            "tickvals": list(range(rows)),
            "ticktext": grid.candidate,
            "range": [rows - 0.5, -0.5],
            "scaleanchor": "x",
            "scaleratio": 1,
            "constrain": "domain",
            "showgrid": False,
        },
        height=min(2600, 260 + 22 * rows),
        showlegend=False,
        margin={"l": 10, "r": 10, "t": 190, "b": 10},
        plot_bgcolor="white",
    )
    return figure
