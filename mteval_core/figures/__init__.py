"""Plotly figure builders: plain data in, a Figure out; nothing here knows about Streamlit."""

from mteval_core.figures.bitext import bitext_grid_figure
from mteval_core.figures.correlation import (
    differential_scatter,
    metric_human_scatter,
    reliability_figure,
)
from mteval_core.figures.scores import significance_heatmap, system_scores_bar

__all__ = [
    "bitext_grid_figure",
    "differential_scatter",
    "metric_human_scatter",
    "reliability_figure",
    "significance_heatmap",
    "system_scores_bar",
]
