"""The Compare page's figures: one analysis of two systems as grouped bars with their intervals,
and the salient n-grams of each side. Plain data in (``compare.analysis`` results), a Figure out.

Each bar carries its bucket's index and its system's (0: a, 1: b) in ``customdata``, so a page
that lets people click a bar knows which bucket of which system they chose."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from mteval_core.compare.analysis import BucketResult
from mteval_core.compare.ngram_differences import NgramDifference
from mteval_core.report.figures.plotly_escape import escape_all, escape_plotly

SYSTEM_COLOURS = ("#1f77b4", "#ff7f0e")  # a, b: as `mteval compare --format html` draws them


def bucket_figure(analysis: BucketResult, systems: Sequence[str]) -> go.Figure:
    """The main measure of every bucket (F-measure, BLEU, sentences), one bar per system, with
    whiskers at the bootstrap interval when there is one."""
    m = analysis.main_measure
    labels = escape_all(analysis.labels)
    measure = escape_plotly(analysis.measure_labels[m])
    figure = go.Figure()
    for s, system in enumerate(systems):
        values = analysis.values[s, :, m]
        bar = go.Bar(
            x=labels,
            y=values,
            name=escape_plotly(system),
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
        figure.add_trace(bar)
    figure.update_layout(
        title=escape_plotly(analysis.title),
        yaxis_title=measure,
        barmode="group",
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 50, "b": 40},
        height=360,
        clickmode="event+select",
    )
    return figure


def ngram_figure(
    ngrams: tuple[Sequence[NgramDifference], Sequence[NgramDifference]],
    systems: Sequence[str],
    top: int = 10,
) -> go.Figure:
    """The ``top`` most salient n-grams of each side as horizontal bars of their matches in the
    reference: a's advantages first, then b's."""
    shown = [*ngrams[0][:top], *ngrams[1][:top]]
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
    )
    return figure
