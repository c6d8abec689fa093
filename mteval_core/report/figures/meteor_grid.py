"""METEOR's alignment of one segment in a bitext grid: hypothesis words down, the words of the
reference METEOR keeps across.

The grid is the GTM grid's (square cells sized by ``bitext._fit``, one heatmap trace, both words
on hover), drawn with METEOR's pieces: each matched cell in its module's colour (a paraphrase
match fills the whole block of words it pairs on both lines, outlined in its colour), the
candidates the modules offered but the search did not keep in grey, and each chunk outlined. The
colours are Paul Tol's "bright" scheme, told apart with common colour blindness; a key under the
grid names them with each module's match count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import plotly.graph_objects as go

from mteval_core.report.figures.bitext import (
    BOTTOM_MARGIN,
    MAX_FONT,
    NAME_FONT,
    RIGHT_MARGIN,
    _cut,
    _discrete_scale,
    _fit,
    category_axis,
)
from mteval_core.report.figures.plotly_escape import escape_plotly

if TYPE_CHECKING:  # plain data in: drawing needs no METEOR code loaded
    from mteval_core.metrics.meteor.segment_view import (
        AlignedSpan,
        MeteorSegmentView,
        SearchResult,
    )

MODULE_COLOURS = {  # the four modules, fixed so a colour means one module in every figure
    "exact": "#4477aa",
    "stem": "#66ccee",
    "synonym": "#228833",
    "paraphrase": "#ccbb44",
}
EMPTY_COLOUR, CANDIDATE_COLOUR = "#ffffff", "#d0d0d0"
CHUNK_COLOUR = "#ee6677"
EMPTY, CANDIDATE = 0, 1  # cell states; a matched cell is 2 + its module's place in MODULE_COLOURS
# The colour key under the grid starts at the figure's left edge (not the grid's, which long
# hypothesis words push right) and breaks into lines that fit the figure's width: a key of one
# line ran past a narrow figure's right edge and was cut ("not kept" and "chunk" lost).
KEY_LINE = 18  # pixels a line of the key takes
KEY_PAD = 10  # pixels between the grid and the key, and from the figure's left edge
KEY_CHAR = 0.55  # a character's width in font sizes, a little over what Chromium draws (0.44)
KEY_GAP = "   "  # between two entries of a line


def meteor_alignment_figure(  # long: one figure's layers, drawn bottom to top
    view: MeteorSegmentView,
    search: str,
    reference_names: list[str],
    title: str = "",
    max_width: int = 940,
) -> go.Figure:
    """The alignment ``search`` ("beam" or "exact") keeps, against the reference it keeps, in
    square cells sized to fit ``max_width`` pixels (wider where they would be unreadable)."""
    result = view.result(search)
    hypothesis = list(view.hypothesis)
    reference = list(view.references[result.reference])
    name = reference_names[result.reference]
    layout = _fit(len(hypothesis), len(reference), hypothesis, reference, max_width)
    rows = [f"hypothesis {i + 1}: {escape_plotly(w)}" for i, w in enumerate(hypothesis)]
    columns = [
        f"{escape_plotly(name)} {j + 1}: {escape_plotly(w)}" for j, w in enumerate(reference)
    ]
    states, notes = alignment_cells(
        len(hypothesis), len(reference), result, view.candidates[result.reference]
    )
    cells = go.Heatmap(
        x=columns,
        y=rows,
        z=states,
        text=notes,
        hovertemplate="%{y}<br>%{x}%{text}<extra></extra>",
        zmin=-0.5,
        zmax=len(MODULE_COLOURS) + 1.5,
        colorscale=_discrete_scale([EMPTY_COLOUR, CANDIDATE_COLOUR, *MODULE_COLOURS.values()]),
        showscale=False,
        xgap=layout.gap,
        ygap=layout.gap,
        name="cells",
    )
    axis = category_axis(layout.font)
    key = _key(result, layout.width, layout.left)
    key_height = KEY_PAD + KEY_LINE * (key["text"].count("<br>") + 1)
    bottom = BOTTOM_MARGIN + key_height
    return go.Figure(
        cells,
        {
            "title": {
                "text": f"{escape_plotly(title)}<br><sup>{summary(result)}</sup>"
                if title
                else summary(result),
                "y": 1,
                "yref": "container",
                "yanchor": "top",
                "pad": {"t": 12},
            },
            "xaxis": {
                **axis,
                "tickvals": list(range(0, len(reference), layout.step)),
                "ticktext": [_cut(word) for word in reference[:: layout.step]],
                "side": "top",
                "constraintoward": "left",
                "tickangle": -90,
                "range": [-0.5, len(reference) - 0.5],
            },
            "yaxis": {
                **axis,
                "tickvals": list(range(0, len(hypothesis), layout.step)),
                "ticktext": [_cut(word) for word in hypothesis[:: layout.step]],
                "range": [len(hypothesis) - 0.5, -0.5],
                "scaleanchor": "x",
                "scaleratio": 1,
                "constraintoward": "top",
            },
            "shapes": [*block_outlines(result), *chunk_outlines(result)],
            "annotations": [_reference_name(name, layout.labels), key],
            "width": layout.width,
            "height": layout.height + key_height,
            "showlegend": False,
            "margin": {"l": layout.left, "r": RIGHT_MARGIN, "t": layout.top, "b": bottom},
            "plot_bgcolor": "white",
        },
    )


def meteor_alignment_width(view: MeteorSegmentView, search: str, max_width: int = 940) -> int:
    """The width in pixels ``meteor_alignment_figure`` gives this alignment: over ``max_width``
    where cells that fit would be too small to read. A page chooses its layout from it."""
    result = view.result(search)
    hypothesis, reference = list(view.hypothesis), list(view.references[result.reference])
    return _fit(len(hypothesis), len(reference), hypothesis, reference, max_width).width


def summary(result: SearchResult) -> str:
    """The line under the title: the search and the numbers of the segment's score."""
    matches = len(result.matches)
    return (
        f"{result.search}: {matches} match{'es' if matches != 1 else ''} in {result.chunks} "
        f"chunk{'s' if result.chunks != 1 else ''}, Fmean {result.fmean:.3f}, "
        f"penalty {result.penalty:.3f}, METEOR {result.score:.3f}"
    )


def alignment_cells(
    n_hypothesis: int,
    n_reference: int,
    result: SearchResult,
    candidates: tuple[AlignedSpan, ...],
) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's state (EMPTY, CANDIDATE, or 2 + module) and its hover note. A match colours
    every cell of its block (hypothesis span x reference span); candidates colour only cells no
    kept match holds."""
    modules = list(MODULE_COLOURS)
    states = np.full((n_hypothesis, n_reference), EMPTY, dtype=np.int8)
    notes = np.full(states.shape, "", dtype=object)
    offered: dict[tuple[int, int], list[str]] = {}
    for span in candidates:
        for i, j in _block(span):
            offered.setdefault((i, j), []).append(span.module)
    for (i, j), names in offered.items():
        states[i, j] = CANDIDATE
        notes[i, j] = f"<br>candidate ({', '.join(dict.fromkeys(names))}), not kept"
    for span in result.matches:
        words = ""
        if span.hypothesis_length > 1 or span.reference_length > 1:
            words = (
                f", {span.hypothesis_length} hypothesis word(s) to "
                f"{span.reference_length} reference word(s)"
            )
        for i, j in _block(span):
            states[i, j] = 2 + modules.index(span.module)
            chunk = f"chunk {span.chunk + 1} of {result.chunks}"
            notes[i, j] = f"<br>{span.module} match{words}, {chunk}"
    return states, notes


def _block(span: AlignedSpan) -> list[tuple[int, int]]:
    """The cells (hypothesis word, reference word) a match pairs."""
    return [
        (i, j)
        for i in range(span.hypothesis_start, span.hypothesis_start + span.hypothesis_length)
        for j in range(span.reference_start, span.reference_start + span.reference_length)
    ]


def chunk_outlines(result: SearchResult) -> list[dict]:
    """One rectangle around each chunk's words on both lines (its matches follow one another on
    both, so the rectangle holds the chunk's diagonal of blocks)."""
    return [
        {
            "type": "rect",
            "x0": r_start - 0.5,
            "x1": r_end - 0.5,
            "y0": h_start - 0.5,
            "y1": h_end - 0.5,
            "line": {"color": CHUNK_COLOUR, "width": 2.5},
            "fillcolor": "rgba(0,0,0,0)",
            "name": f"chunk {number}",
        }
        for number, (h_start, h_end, r_start, r_end) in enumerate(result.chunk_spans, start=1)
    ]


def block_outlines(result: SearchResult) -> list[dict]:
    """A thin rectangle in its module's colour around each match of several words (a
    paraphrase's), so a block reads as one match and not as unrelated cells."""
    return [
        {
            "type": "rect",
            "x0": m.reference_start - 0.5,
            "x1": m.reference_start + m.reference_length - 0.5,
            "y0": m.hypothesis_start - 0.5,
            "y1": m.hypothesis_start + m.hypothesis_length - 0.5,
            "line": {"color": MODULE_COLOURS[m.module], "width": 1.5},
            "fillcolor": "rgba(0,0,0,0)",
            "name": f"{m.module} block",
        }
        for m in result.matches
        if m.hypothesis_length > 1 or m.reference_length > 1
    ]


def _reference_name(name: str, labels: int) -> dict:
    """The kept reference's name over its columns, above their labels."""
    return {
        "x": 0.5,
        "xref": "x domain",
        "y": 1,
        "yref": "y domain",
        "yanchor": "bottom",
        "yshift": labels + 6,
        "text": f"<b>{_cut(name, 40)}</b>",
        "hovertext": escape_plotly(name),
        "font": {"size": NAME_FONT},
        "showarrow": False,
    }


def _key(result: SearchResult, width: int, left: int) -> dict:
    """The colours under the grid: each module with its match count, candidates, chunks; from
    the figure's left edge (``left``: the grid's margin, which the paper coordinates start
    after), in as many lines as ``width`` needs."""
    entries = [
        (f"<span style='color:{MODULE_COLOURS[c.module]}'>■</span> {c.module} {c.matches}", c)
        for c in result.per_module
    ]
    parts = [html for html, _ in entries]
    shown = [f"■ {c.module} {c.matches}" for _, c in entries]
    parts.append(f"<span style='color:{CANDIDATE_COLOUR}'>■</span> not kept")
    parts.append(f"<span style='color:{CHUNK_COLOUR}'>□</span> chunk")
    shown += ["■ not kept", "□ chunk"]
    plot_width = max(width - left - RIGHT_MARGIN, 1)
    return {
        "x": -(left - KEY_PAD) / plot_width,
        "xref": "paper",
        "xanchor": "left",
        "y": 0,
        "yref": "paper",
        "yanchor": "top",
        "yshift": -KEY_PAD,
        "align": "left",
        "text": "<br>".join(_key_lines(parts, shown, width - 2 * KEY_PAD)),
        "font": {"size": MAX_FONT},
        "showarrow": False,
        "name": "key",
    }


def _key_lines(parts: list[str], shown: list[str], room: int) -> list[str]:
    """The key's entries (``parts``, drawn as the text ``shown``) in lines of at most ``room``
    pixels each, in order, at least one entry a line."""
    lines: list[list[str]] = []
    used = 0.0
    for part, text in zip(parts, shown, strict=True):
        needed = len(text) * KEY_CHAR * MAX_FONT
        gap = len(KEY_GAP) * KEY_CHAR * MAX_FONT
        if lines and used + gap + needed <= room:
            lines[-1].append(part)
            used += gap + needed
        else:
            lines.append([part])
            used = needed
    return [KEY_GAP.join(line) for line in lines]
