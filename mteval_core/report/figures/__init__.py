"""Plotly figure builders: plain data in, a Figure out; nothing here knows about Streamlit.

Pages import every builder from here; the modules group them by subject.
"""

from mteval_core.report.figures.bars import ranked_bars
from mteval_core.report.figures.bitext import bitext_grid_figure, bitext_grid_width
from mteval_core.report.figures.comparison import buckets_figure, ngram_figure, shown_ngrams
from mteval_core.report.figures.correlation import (
    differential_scatter,
    metric_human_scatter,
    reliability_figure,
    system_scatter,
)
from mteval_core.report.figures.loss import loss_bar_chart, rank_reversal_map
from mteval_core.report.figures.meteor_grid import meteor_alignment_figure, meteor_alignment_width
from mteval_core.report.figures.rankings import rank_ranges_figure
from mteval_core.report.figures.scores import (
    clickable_cells,
    significance_clusters_figure,
    significance_heatmap,
    system_scores_bar,
)
from mteval_core.report.figures.segment_level import metric_ranking_figure, segment_density

__all__ = [
    "bitext_grid_figure",
    "bitext_grid_width",
    "buckets_figure",
    "clickable_cells",
    "differential_scatter",
    "loss_bar_chart",
    "meteor_alignment_figure",
    "meteor_alignment_width",
    "metric_human_scatter",
    "metric_ranking_figure",
    "ngram_figure",
    "rank_ranges_figure",
    "rank_reversal_map",
    "ranked_bars",
    "reliability_figure",
    "segment_density",
    "shown_ngrams",
    "significance_clusters_figure",
    "significance_heatmap",
    "system_scatter",
    "system_scores_bar",
]
