"""The bitext grid: candidate tokens down, reference tokens across, one cell per token pair.

The whole grid is a single heatmap trace, so a 100 x 200 grid is one trace and hovering any cell
shows both words (and, in a matched cell, its block's length and selection order). Hits are grey,
cells of the matching coloured, the matching's aligned blocks outlined as squares (cut where GTM's
cap bites), each reference barrier shaded with a dotted line, each reference's name centred over
its columns with a bracket as wide as they are. Cells stay square and readable: the cell size
follows the token counts and the width available, but never falls below MIN_CELL, where every
token keeps its label; a grid that needs more room than it is given (several long references) is
wider than asked, for the page to scroll, and Plotly's zoom keeps the cells square.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from mteval_core.gtm.grid import BitextGrid, GridMatching
from mteval_core.report.figures.plotly_escape import escape_plotly

BLOCK_COLOURS = ("#1f77b4", "#d62728")  # greedy, exact
EMPTY, BARRIER, HIT, MATCHED = range(4)  # what a cell shows
CELL_COLOURS = ("#ffffff", "#e8e8e8", "#a6a6a6")  # empty, barrier, hit; matched: block colour
MAX_CELL, MIN_CELL = 22, 11  # pixels; at MIN_CELL every token keeps an 8-px label
MAX_GRID_HEIGHT = 2200  # pixels: a long candidate gets smaller cells (down to MIN_CELL)
MAX_GRID_SIDE = 16_000  # pixels: browsers refuse larger canvases; past it, cells shrink, zoom in
MAX_FONT, MIN_FONT = 12, 8  # tick label sizes
LABEL_CHARS = 16  # longer tokens are cut on the axes; hover shows them whole
TITLE_HEIGHT, NAME_HEIGHT = 64, 24  # pixels: the title's two lines; a reference name and bracket
BOTTOM_MARGIN, RIGHT_MARGIN = 10, 10  # pixels
NAME_FONT = 12  # the reference names' size, cut to their columns' width (hover shows them whole)
MIN_WIDTH = 440  # pixels: room for the title and the tool bar; half the page holds two


def bitext_grid_figure(  # long: one figure's layers, drawn bottom to top
    grid: BitextGrid, matching: GridMatching, title: str = "", max_width: int = 1150
) -> go.Figure:
    """The grid with ``matching`` drawn in square cells sized to fit ``max_width`` pixels, or
    wider where cells that fit would be too small to read: the page scrolls it sideways."""
    layout = _grid_layout(grid, max_width)
    rows, cols = len(grid.candidate), len(grid.columns)
    column_tokens = _column_tokens(grid)
    colour = BLOCK_COLOURS[0] if matching.method == "greedy" else BLOCK_COLOURS[1]
    row_names, column_names = _cell_names(grid)
    states, notes = _cells(grid, matching)
    cells = go.Heatmap(
        x=column_names,  # unique names: the hover label of any cell is its row and column name
        y=row_names,
        z=states,
        text=notes,
        hovertemplate="%{y}<br>%{x}%{text}<extra></extra>",
        zmin=EMPTY - 0.5,
        zmax=MATCHED + 0.5,
        colorscale=_discrete_scale([*CELL_COLOURS, colour]),
        showscale=False,
        xgap=layout.gap,
        ygap=layout.gap,
        name="cells",
    )
    blocks = [
        {
            "type": "rect",
            "x0": j - 0.5,
            "x1": j - 0.5 + length,
            "y0": i - 0.5,
            "y1": i - 0.5 + length,
            "line": {"color": colour, "width": 2},
            "fillcolor": colour,
            "opacity": 0.2,
            "name": f"block {order}",
        }
        for order, (i, j, length) in enumerate(matching.blocks.tolist(), start=1)
    ]
    barriers = [
        {
            "type": "line",
            "x0": end,
            "x1": end,
            "y0": 0,
            "y1": 1,
            "yref": "y domain",
            "line": {"color": "#999", "dash": "dot"},
            "name": f"barrier after {escape_plotly(name)}",
        }
        for name, (_, end) in zip(grid.reference_names, grid.reference_spans)
    ]
    names, brackets = _reference_labels(grid, layout)
    numbers = (
        f"{matching.method}: sum of len^e {matching.weight:.4g}, size {matching.size:.4g}, "
        f"P {matching.precision:.3f}, R {matching.recall:.3f}, F {matching.f:.3f}"
    )
    axis = category_axis(layout.font)
    return go.Figure(
        cells,
        {
            "title": {
                "text": f"{escape_plotly(title)}<br><sup>{numbers}</sup>" if title else numbers,
                "y": 1,
                "yref": "container",
                "yanchor": "top",
                "pad": {"t": 12},
            },
            "xaxis": {
                **axis,
                "tickvals": list(range(0, cols, layout.step)),
                "ticktext": [_cut(token) for token in column_tokens[:: layout.step]],
                "side": "top",
                "constraintoward": "left",
                "tickangle": -90,
                "range": [-0.5, cols - 0.5],
            },
            "yaxis": {
                **axis,
                "tickvals": list(range(0, rows, layout.step)),
                "ticktext": [_cut(token) for token in grid.candidate[:: layout.step]],
                "range": [rows - 0.5, -0.5],
                "scaleanchor": "x",
                "scaleratio": 1,
                "constraintoward": "top",
            },
            "shapes": blocks + barriers + brackets,
            "annotations": names,
            "width": layout.width,
            "height": layout.height,
            "showlegend": False,
            "margin": {"l": layout.left, "r": RIGHT_MARGIN, "t": layout.top, "b": BOTTOM_MARGIN},
            "plot_bgcolor": "white",
        },
    )


@dataclass(frozen=True)
class _Layout:
    """Pixel sizes: the cell, the tick labels and how many are skipped, the margins, the figure."""

    cell: float
    font: int
    step: int  # every step-th token is labelled on the axes
    labels: int  # the column labels' height, between the grid and the reference names
    left: int
    top: int
    width: int
    height: int

    @property
    def gap(self) -> int:
        return 1 if self.cell >= 8 else 0  # white lines between cells while there is room


def bitext_grid_width(grid: BitextGrid, max_width: int = 1150) -> int:
    """The width in pixels ``bitext_grid_figure`` gives this grid: over ``max_width`` where
    cells that fit would be too small to read. A page chooses its layout from it."""
    return _grid_layout(grid, max_width).width


def _grid_layout(grid: BitextGrid, max_width: int) -> _Layout:
    columns = _column_tokens(grid)
    return _fit(len(grid.candidate), len(grid.columns), grid.candidate, columns, max_width)


def _column_tokens(grid: BitextGrid) -> list[str]:
    """The column labels: the references' tokens, a barrier drawn as ‖."""
    return [token if token is not None else "‖" for token in grid.columns]


def _fit(
    rows: int, cols: int, row_labels: list[str], column_labels: list[str], max_width: int
) -> _Layout:
    """Square cells as large as ``max_width`` and MAX_GRID_HEIGHT allow up to MAX_CELL, and
    labels that do not overlap. Cells never shrink below MIN_CELL to fit: the figure is wider
    than ``max_width`` instead (several long references), unless that passes MAX_GRID_SIDE."""
    rows, cols = max(rows, 1), max(cols, 1)
    across = max_width - _label_extent(row_labels, MAX_FONT) - RIGHT_MARGIN
    room = min(across / cols, MAX_GRID_HEIGHT / rows)
    cell = min(MAX_CELL, max(MIN_CELL, room), MAX_GRID_SIDE / max(rows, cols))
    font = min(MAX_FONT, max(MIN_FONT, math.floor(cell * 0.75)))
    step = math.ceil(1.3 * font / cell)  # a label needs about 1.3 font sizes of room
    left = _label_extent(row_labels, font)
    labels = _label_extent(column_labels, font)
    top = TITLE_HEIGHT + NAME_HEIGHT + labels
    width = max(MIN_WIDTH, round(left + RIGHT_MARGIN + cols * cell))
    height = round(top + BOTTOM_MARGIN + rows * cell)
    return _Layout(cell, font, step, labels, left, top, width, height)


def _label_extent(labels: list[str], font: int) -> int:
    """Pixels the longest (cut) label takes, at about 0.62 font sizes per character."""
    longest = max((min(len(label), LABEL_CHARS) for label in labels), default=1)
    return math.ceil(longest * 0.62 * font) + 12


def _cut(label: str, chars: int = LABEL_CHARS) -> str:
    return escape_plotly(label if len(label) <= chars else label[: chars - 1] + "…")


def _reference_labels(grid: BitextGrid, layout: _Layout) -> tuple[list[dict], list[dict]]:
    """Each reference's name centred over its columns, above their labels, and a bracket as wide
    as the columns under it. Both hang from the grid's top edge ("y domain"), in pixels, so they
    stay with their columns however Plotly fits the grid into the figure or zooms it."""
    names, brackets = [], []
    above = layout.labels + 4  # pixels from the grid's top edge to the bracket
    for name, (start, end) in zip(grid.reference_names, grid.reference_spans):
        chars = max(4, math.floor((end - start) * layout.cell / (0.68 * NAME_FONT)))
        names.append(
            {
                "x": (start + end - 1) / 2,
                "xref": "x",
                "y": 1,
                "yref": "y domain",
                "yanchor": "bottom",
                "yshift": above + 2,
                "text": f"<b>{_cut(name, chars)}</b>",
                "hovertext": escape_plotly(name),
                "font": {"size": NAME_FONT},
                "showarrow": False,
            }
        )
        brackets.append(
            {
                "type": "path",
                "path": f"M {start - 0.5},{above - 5} V {above} H {end - 0.5} V {above - 5}",
                "yref": "y domain",
                "ysizemode": "pixel",
                "yanchor": 1,
                "line": {"color": "#888", "width": 1},
                "name": f"columns of {escape_plotly(name)}",
            }
        )
    return names, brackets


def _cell_names(grid: BitextGrid) -> tuple[list[str], list[str]]:
    """Unique, readable names of the rows and columns, e.g. 'candidate 3: cat', 'ref-A 5: cat'."""
    rows = [f"candidate {i + 1}: {escape_plotly(token)}" for i, token in enumerate(grid.candidate)]
    columns = [""] * len(grid.columns)
    for name, (start, end) in zip(map(escape_plotly, grid.reference_names), grid.reference_spans):
        tokens = map(escape_plotly, grid.columns[start:end])
        columns[start:end] = [f"{name} {k + 1}: {token}" for k, token in enumerate(tokens)]
        columns[end] = f"‖ barrier after {name}"
    return rows, columns


def _cells(grid: BitextGrid, matching: GridMatching) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's state, and a note for hits and matched cells, by array operations."""
    states = np.full((len(grid.candidate), len(grid.columns)), EMPTY, dtype=np.int8)
    states[:, [end for _, end in grid.reference_spans]] = BARRIER
    states[grid.hits[:, 0], grid.hits[:, 1]] = HIT
    notes = np.full(states.shape, "", dtype=object)
    notes[states == HIT] = "<br>a hit, not in this matching"
    blocks = matching.blocks
    cells = np.ceil(blocks[:, 2]).astype(np.int64)  # a cut block still covers its last cell
    step = np.arange(cells.sum()) - np.repeat(np.cumsum(cells) - cells, cells)
    i = np.repeat(blocks[:, 0].astype(np.int64), cells) + step
    j = np.repeat(blocks[:, 1].astype(np.int64), cells) + step
    states[i, j] = MATCHED
    block_notes = [
        f"<br>block {order} of {len(blocks)} in selection order, length {length:g}"
        for order, length in enumerate(blocks[:, 2].tolist(), start=1)
    ]
    notes[i, j] = np.repeat(np.array(block_notes, dtype=object), cells)
    return states, notes


def _discrete_scale(colours: list[str]) -> list[list]:
    """A colorscale that gives each integer state from 0 its own flat colour."""
    scale = []
    for k, colour in enumerate(colours):
        scale += [[k / len(colours), colour], [(k + 1) / len(colours), colour]]
    return scale


def category_axis(font: int) -> dict:
    """The word axes of a bitext grid (GTM's and METEOR's): one category a word, no grid lines,
    and the cells kept square within the plot's domain."""
    return {
        "type": "category",
        "tickmode": "array",
        "tickfont": {"size": font},
        "showgrid": False,
        "zeroline": False,
        "constrain": "domain",
    }
