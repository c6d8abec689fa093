"""The Compare page's figures: one analysis of two systems as grouped bars with their intervals,
and the salient n-grams of each side. Plain data in (``compare.analysis`` results), a Figure out.

Each bar carries its bucket's index and its system's (0: a, 1: b) in ``customdata``, so a page
that lets people click a bar knows which bucket of which system they chose."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from mteval_core.compare.analysis import BucketResult
from mteval_core.compare.ngram_differences import NgramDifference
from mteval_core.report.figures.plotly_escape import escape_all, escape_plotly

SYSTEM_COLOURS = ("#1f77b4", "#ff7f0e")  # a, b: as `mteval compare --format html` draws them


TITLE_WIDTH = 44  # characters per line of a chart's title at half the page's width


def buckets_figure(analyses: Sequence[BucketResult], systems: Sequence[str]) -> go.Figure:
    """Every bucket analysis in one figure, two charts a row, each as ``bucket_figure`` draws it:
    one Plotly figure draws in the browser in a fraction of the time of four. Trace 2k + s is
    analysis k's system s (0: a, 1: b), so a clicked bar names its analysis, system and bucket
    (its point index)."""
    rows = (len(analyses) + 1) // 2
    figure = make_subplots(
        rows=rows,
        cols=2,
        subplot_titles=[wrapped_title(a.title) for a in analyses],
        vertical_spacing=0.5 / rows,
        horizontal_spacing=0.08,
    )
    for k, analysis in enumerate(analyses):
        row, col = k // 2 + 1, k % 2 + 1
        for bar in _bars(analysis, systems, legend=k == 0):
            figure.add_trace(bar, row=row, col=col)
        figure.update_yaxes(
            title_text=escape_plotly(analysis.measure_labels[analysis.main_measure]),
            row=row,
            col=col,
        )
    figure.update_annotations(font_size=14)  # the charts' titles
    figure.update_layout(
        barmode="group",
        legend={"orientation": "h", "y": 1.0, "yanchor": "bottom", "yref": "container"},
        margin={"t": 90, "b": 40},
        height=430 * rows,
        clickmode="event+select",
    )
    return figure


def wrapped_title(title: str, width: int = TITLE_WIDTH) -> str:
    """``title`` escaped and broken into lines of at most ``width`` characters at spaces, so a
    chart half the page wide shows all of it."""
    lines: list[str] = []
    for word in title.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return "<br>".join(escape_plotly(line) for line in lines)


def _bars(analysis: BucketResult, systems: Sequence[str], legend: bool = True) -> list[go.Bar]:
    """One bar trace per system: each bucket's main measure, whiskers at its interval."""
    m = analysis.main_measure
    labels = escape_all(analysis.labels)
    measure = escape_plotly(analysis.measure_labels[m])
    bars = []
    for s, system in enumerate(systems):
        values = analysis.values[s, :, m]
        bar = go.Bar(
            x=labels,
            y=values,
            name=escape_plotly(system),
            legendgroup=str(s),
            showlegend=legend,
            marker_color=SYSTEM_COLOURS[s],
            customdata=np.column_stack([np.arange(len(labels)), np.full(len(labels), s)]),
            hovertemplate=f"%{{x}}: %{{y:.4g}} {measure}<extra>%{{fullData.name}}</extra>",
        )
        if analysis.intervals is not None:
            low, high = analysis.intervals[s, :, m, 0], analysis.intervals[s, :, m, 1]
            bar.error_y = {
                "type": "data",
                "symmetric": False,
                "array": (high - values).tolist(),
                "arrayminus": (values - low).tolist(),
                "color": "#262730",
                "thickness": 1.2,
            }
        bars.append(bar)
    return bars


NGRAMS_SHOWN = 10  # the most salient n-grams of each side that ``ngram_figure`` draws


def shown_ngrams(
    ngrams: tuple[Sequence[NgramDifference], Sequence[NgramDifference]], top: int = NGRAMS_SHOWN
) -> list[NgramDifference]:
    """The n-grams ``ngram_figure`` draws, in its order: a clicked bar's point index is an
    index into this list."""
    return [*ngrams[0][:top], *ngrams[1][:top]]


def ngram_figure(
    ngrams: tuple[Sequence[NgramDifference], Sequence[NgramDifference]],
    systems: Sequence[str],
    top: int = NGRAMS_SHOWN,
) -> go.Figure:
    """The ``top`` most salient n-grams of each side as horizontal bars of their matches in the
    reference: a's advantages first, then b's."""
    shown = shown_ngrams(ngrams, top)
    names = escape_all(d.ngram for d in shown)
    figure = go.Figure()
    for s, system in enumerate(systems):
        matches = [d.matches_a if s == 0 else d.matches_b for d in shown]
        figure.add_trace(
            go.Bar(
                y=names,
                x=matches,
                orientation="h",
                name=escape_plotly(system),
                marker_color=SYSTEM_COLOURS[s],
                customdata=[[d.salience] for d in shown],
                hovertemplate="%{y}: %{x} matches (salience %{customdata[0]:.3f})"
                "<extra>%{fullData.name}</extra>",
            )
        )
    figure.update_layout(
        title="Salient n-grams: matches in the reference",
        xaxis_title="matches in the reference",
        yaxis={"autorange": "reversed", "type": "category"},
        barmode="group",
        legend={"orientation": "h", "y": -0.15},
        height=max(300, 40 + 34 * len(shown)),
        margin={"t": 50},
        clickmode="event+select",
    )
    return figure
